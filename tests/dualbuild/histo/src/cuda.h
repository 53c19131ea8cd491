// histo's own device layer (named after the backend it was first written for).
// Files include it as "cuda.h"; the toolkit's driver API header stays <cuda.h>.
#pragma once

#ifdef HISTO_USE_HIP
#include <hip/hip_runtime.h>
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaMalloc hipMalloc
#define cudaMemset hipMemset
#define cudaFree hipFree
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaGetLastError hipGetLastError
#else
#include <cuda_runtime.h>
#endif

namespace histo {
constexpr int kBins = 256;
cudaError_t build(const unsigned char *data, size_t n, unsigned *bins);
int driver_version();
}  // namespace histo
