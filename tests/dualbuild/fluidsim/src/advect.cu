#include "fluidsim/grid.h"

__global__ void advect_kernel(Grid g, const float *__restrict__ u0, float dt) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y;
    if (i <= 0 || i >= g.nx - 1 || j <= 0 || j >= g.ny - 1) {
        return;
    }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 350
    const float uc = __ldg(u0 + idx(g, i, j));
#else
    const float uc = u0[idx(g, i, j)];
#endif
    const float back = static_cast<float>(i) - dt * uc / g.dx;
    const int i0 = max(0, min(g.nx - 2, static_cast<int>(back)));
    const float t = back - static_cast<float>(i0);
    g.u[idx(g, i, j)] = (1.0f - t) * u0[idx(g, i0, j)] + t * u0[idx(g, i0 + 1, j)];
}

void advect(Grid &g, float dt, gpuStream_t stream) {
    float *u0 = nullptr;
    const size_t bytes = sizeof(float) * g.nx * g.ny;
    GPU_CHECK(gpuMallocAsync(reinterpret_cast<void **>(&u0), bytes, stream));
    GPU_CHECK(gpuMemcpyAsync(u0, g.u, bytes, gpuMemcpyDefault, stream));
    dim3 block(FLUIDSIM_BLOCK);
    dim3 grid((g.nx + FLUIDSIM_BLOCK - 1) / FLUIDSIM_BLOCK, g.ny);
    advect_kernel<<<grid, block, 0, stream>>>(g, u0, dt);
    GPU_CHECK(gpuPeekAtLastError());
    GPU_CHECK(gpuFreeAsync(u0, stream));
}
