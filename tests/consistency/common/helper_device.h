// Device selection shared by the corpus's multi-file programs: pick the device with the most
// throughput, or one that meets a compute capability, and describe it from cudaDeviceProp.
#ifndef CORPUS_HELPER_DEVICE_H
#define CORPUS_HELPER_DEVICE_H

#include <cstdio>
#include <cstdlib>

#ifdef __CUDA_RUNTIME_H__
// runtime-API helpers (cuda_runtime.h included first)
inline int deviceClockKHz(int device) {
  int clock = 0;
#if CUDART_VERSION >= 12000
  cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, device);
#else
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  clock = prop.clockRate;
#endif
  return clock;
}

inline int fastestDevice() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return -1;
  int best = -1;
  long long bestScore = -1;
  for (int device = 0; device < count; ++device) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    if (prop.major < 3) continue;
    long long score = 1LL * prop.multiProcessorCount * prop.maxThreadsPerMultiProcessor *
                      deviceClockKHz(device);
    if (score > bestScore) {
      bestScore = score;
      best = device;
    }
  }
  return best;
}

inline int deviceWithCapability(int major, int minor) {
  int count = 0;
  cudaGetDeviceCount(&count);
  for (int device = 0; device < count; ++device) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    if (prop.major > major || (prop.major == major && prop.minor >= minor)) return device;
  }
  fprintf(stderr, "no device of compute capability %d.%d or newer\n", major, minor);
  return -1;
}

inline void describeDevice(int device) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  printf("device %d: %s, sm_%d%d, %d SMs, %zu MiB\n", device, prop.name, prop.major, prop.minor,
         prop.multiProcessorCount, prop.totalGlobalMem >> 20);
  printf("  shared memory per block %zu (opt-in %zu), copy engines %d, unified addressing %d\n",
         prop.sharedMemPerBlock, prop.sharedMemPerBlockOptin, prop.asyncEngineCount,
         prop.unifiedAddressing);
  printf("  blocks per SM %d, warp %d, managed memory %d\n", prop.maxBlocksPerMultiProcessor,
         prop.warpSize, prop.managedMemory);
}
#endif  // __CUDA_RUNTIME_H__

#endif  // CORPUS_HELPER_DEVICE_H
