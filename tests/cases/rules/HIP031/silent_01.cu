#include <cuda_runtime.h>
struct Request {
    int requestedHandleTypes;
};
size_t perSm(Request *r, int dev)
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, dev);
    return p.sharedMemPerMultiprocessor + r->requestedHandleTypes;
}
