#include <cuda.h>
CUmemAllocationProp shared_prop;
CUmemAllocationProp props[2];
void exportable()
{
    shared_prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    props[1].requestedHandleTypes = CU_MEM_HANDLE_TYPE_NONE;
}
