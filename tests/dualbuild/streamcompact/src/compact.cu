// Stream compaction: keep the positive values, in order, with one atomic per warp.
#include "warp.cuh"

__global__ void compact_positive(const float *__restrict__ in, float *__restrict__ out,
                                 int n, int *__restrict__ count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % SC_WARP_SIZE;
    const bool keep = i < n && in[i] > 0.0f;
    const lanemask_t active = __activemask();
    const lanemask_t votes = static_cast<lanemask_t>(__ballot_sync(active, keep));
    const int rank = SC_POPC(votes & lanes_below(lane));
    int base = 0;
    if (lane == 0) {
        base = atomicAdd(count, SC_POPC(votes));
    }
    base = __shfl_sync(active, base, 0, SC_WARP_SIZE);
    if (keep) {
        out[base + rank] = in[i];
    }
}

__global__ void block_offsets(const int *__restrict__ counts, int *__restrict__ offsets, int n) {
    const int lane = threadIdx.x % SC_WARP_SIZE;
    const int v = threadIdx.x < n ? counts[threadIdx.x] : 0;
    const int inclusive = warp_inclusive_scan(v, lane);
    if (threadIdx.x < n) {
        offsets[threadIdx.x] = inclusive - v;
    }
}

cudaError_t compact(const float *in, float *out, int n, int *count) {
    compact_positive<<<(n + 255) / 256, 256>>>(in, out, n, count);
    return cudaGetLastError();
}
