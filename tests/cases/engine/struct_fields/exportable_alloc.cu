// Physical allocations that can be exported as file descriptors, and the device's shared
// memory per multiprocessor, read through the structs' fields.
#include <cuda.h>
#include <cuda_runtime.h>

void exportable(CUmemAllocationProp *out, int dev)
{
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    *out = prop;
    out->requestedHandleTypes = prop.requestedHandleTypes;
}

size_t sharedPerSm(int dev)
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, dev);
    return p.sharedMemPerMultiprocessor;
}
