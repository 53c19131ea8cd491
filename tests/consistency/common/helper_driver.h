// Driver-API helpers shared by the corpus's multi-file programs: result checking, device and
// primary-context setup, compiled only when the program included cuda.h before this header.
#ifndef CORPUS_HELPER_DRIVER_H
#define CORPUS_HELPER_DRIVER_H

#include <cstdio>
#include <cstdlib>

#ifdef __cuda_cuda_h__
inline void reportDriverFailure(CUresult status, const char *call, const char *file, int line) {
  if (status != CUDA_SUCCESS) {
    const char *text = nullptr;
    cuGetErrorString(status, &text);
    fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, call, text ? text : "?");
    exit(EXIT_FAILURE);
  }
}
#define checkCuErrors(call) reportDriverFailure((call), #call, __FILE__, __LINE__)

// Initialise the driver, take the first device of at least sm_<major>0 and make its primary
// context current.
inline CUcontext driverContext(int major, CUdevice *picked) {
  checkCuErrors(cuInit(0));
  int count = 0;
  checkCuErrors(cuDeviceGetCount(&count));
  for (int i = 0; i < count; ++i) {
    CUdevice device;
    checkCuErrors(cuDeviceGet(&device, i));
    int cc = 0;
    checkCuErrors(cuDeviceGetAttribute(&cc, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
    if (cc < major) continue;
    CUcontext ctx;
    checkCuErrors(cuDevicePrimaryCtxRetain(&ctx, device));
    checkCuErrors(cuCtxSetCurrent(ctx));
    *picked = device;
    return ctx;
  }
  fprintf(stderr, "no device of compute capability %d.x\n", major);
  exit(EXIT_FAILURE);
}

inline size_t freeDeviceMemory() {
  size_t free_bytes = 0, total_bytes = 0;
  checkCuErrors(cuMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}
#endif  // __cuda_cuda_h__

#endif  // CORPUS_HELPER_DRIVER_H
