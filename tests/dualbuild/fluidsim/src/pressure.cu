#include "fluidsim/grid.h"

__global__ void __launch_bounds__(FLUIDSIM_BLOCK)
jacobi_step(Grid g, const float *__restrict__ p_old, float *__restrict__ p_new) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y;
    if (i <= 0 || i >= g.nx - 1 || j <= 0 || j >= g.ny - 1) {
        return;
    }
    const float div = (g.u[idx(g, i + 1, j)] - g.u[idx(g, i - 1, j)] +
                       g.v[idx(g, i, j + 1)] - g.v[idx(g, i, j - 1)]) * 0.5f / g.dx;
    p_new[idx(g, i, j)] = 0.25f * (p_old[idx(g, i - 1, j)] + p_old[idx(g, i + 1, j)] +
                                   p_old[idx(g, i, j - 1)] + p_old[idx(g, i, j + 1)] -
                                   div * g.dx * g.dx);
}

void pressure_jacobi(Grid &g, int iterations, gpuStream_t stream) {
    float *scratch = nullptr;
    const size_t bytes = sizeof(float) * g.nx * g.ny;
    GPU_CHECK(gpuMallocAsync(reinterpret_cast<void **>(&scratch), bytes, stream));
    dim3 block(FLUIDSIM_BLOCK);
    dim3 grid((g.nx + FLUIDSIM_BLOCK - 1) / FLUIDSIM_BLOCK, g.ny);
    gpuEvent_t start, stop;
    GPU_CHECK(gpuEventCreate(&start));
    GPU_CHECK(gpuEventCreate(&stop));
    GPU_CHECK(gpuEventRecord(start, stream));
    for (int it = 0; it < iterations; ++it) {
        jacobi_step<<<grid, block, 0, stream>>>(g, g.p, scratch);
        jacobi_step<<<grid, block, 0, stream>>>(g, scratch, g.p);
    }
    GPU_CHECK(gpuEventRecord(stop, stream));
    GPU_CHECK(gpuEventSynchronize(stop));
    float ms = 0.0f;
    GPU_CHECK(gpuEventElapsedTime(&ms, start, stop));
    std::printf("jacobi: %d iterations in %.3f ms\n", iterations, ms);
    GPU_CHECK(gpuFreeAsync(scratch, stream));
}
