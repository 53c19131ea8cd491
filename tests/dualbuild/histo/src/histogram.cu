// Byte histogram: privatized bins in shared memory, merged with global atomics.
#include "cuda.h"

#ifndef HISTO_USE_HIP
#include <cuda.h>  // driver API, for the version report only
#endif

__global__ void histogram_shared(const unsigned char *__restrict__ data, size_t n,
                                 unsigned *__restrict__ bins) {
    __shared__ unsigned local[histo::kBins];
    for (int b = threadIdx.x; b < histo::kBins; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
         i += size_t(gridDim.x) * blockDim.x) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < histo::kBins; b += blockDim.x) {
        atomicAdd(&bins[b], local[b]);
    }
}

namespace histo {

cudaError_t build(const unsigned char *data, size_t n, unsigned *bins) {
    cudaError_t err = cudaMemset(bins, 0, kBins * sizeof(unsigned));
    if (err != cudaSuccess) return err;
    histogram_shared<<<120, 256>>>(data, n, bins);
    err = cudaGetLastError();
    return err != cudaSuccess ? err : cudaDeviceSynchronize();
}

int driver_version() {
    int version = 0;
#ifdef HISTO_USE_HIP
    hipDriverGetVersion(&version);
#else
    cuDriverGetVersion(&version);
#endif
    return version;
}

}  // namespace histo
