// #include <cuda_runtime.h>
/* #include <cuda.h> */
int x;
