#include <cuda_runtime.h>
static void CUDART_CB done(cudaStream_t stream, cudaError_t status, void *data) {}
typedef void (CUDART_CB *host_fn)(void *);
