// Sub-buffers of one driver-API allocation addressed by CUdeviceptr byte offsets.
#include <cstdio>
#include <cuda.h>

int main() {
  const size_t n = 1 << 16, parts = 4, part = n / parts;
  cuInit(0);
  CUdevice device;
  cuDeviceGet(&device, 0);
  CUcontext ctx;
  cuDevicePrimaryCtxRetain(&ctx, device);
  cuCtxSetCurrent(ctx);
  CUdeviceptr base;
  cuMemAlloc(&base, n * sizeof(unsigned int));
  for (size_t p = 0; p < parts; ++p) {
    CUdeviceptr slice = base + p * part * sizeof(unsigned int);
    cuMemsetD32(slice, static_cast<unsigned int>(p), part);
  }
  unsigned int check[parts];
  for (size_t p = 0; p < parts; ++p)
    cuMemcpyDtoH(&check[p], base + (p * part + part - 1) * sizeof(unsigned int), sizeof(unsigned int));
  printf("%u %u %u %u\n", check[0], check[1], check[2], check[3]);
  size_t aligned = (base + 255) & ~CUdeviceptr(255);
  printf("aligned: %d\n", aligned == base);
  cuMemFree(base);
  cuDevicePrimaryCtxRelease(device);
  return 0;
}
