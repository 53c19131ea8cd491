// A physical allocation made with the driver's virtual memory API, exportable as a POSIX file
// descriptor for another process (the allocation properties' requested handle types).
#include <cstdio>
#include <cuda.h>

int main() {
  cuInit(0);
  CUdevice device;
  cuDeviceGet(&device, 0);
  CUcontext ctx;
  cuDevicePrimaryCtxRetain(&ctx, device);
  cuCtxSetCurrent(ctx);

  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;

  size_t granularity = 0;
  cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  CUmemGenericAllocationHandle handle;
  if (cuMemCreate(&handle, granularity, &prop, 0) != CUDA_SUCCESS) return 1;
  int fd = -1;
  cuMemExportToShareableHandle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  printf("exported %zu bytes as fd %d\n", granularity, fd);
  cuMemRelease(handle);
  cuDevicePrimaryCtxRelease(device);
  return 0;
}
