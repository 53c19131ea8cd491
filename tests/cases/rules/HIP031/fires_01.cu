#include <cuda.h>
#include <cuda_runtime.h>
void exportable(CUmemAllocationProp *out, int dev)
{
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    prop.location.id = dev;
    out->requestedHandleTypes = prop.requestedHandleTypes;
}
size_t perSm(int dev)
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, dev);
    return p.sharedMemPerMultiprocessor;
}
