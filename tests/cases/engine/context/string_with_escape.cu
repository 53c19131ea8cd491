#include <cuda_runtime.h>
puts("\ncudaFree\t");
