#include <cuda_runtime.h>
// CUDART_CB in a comment, "CUDART_CB" in a string
const char *what = "CUDART_CB";
#if defined(__CUDA_ARCH__)
static void CUDART_CB never_on_hip(void *data) {}
#endif
