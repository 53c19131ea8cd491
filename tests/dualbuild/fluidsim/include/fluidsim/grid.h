#ifndef FLUIDSIM_GRID_H
#define FLUIDSIM_GRID_H

#include "fluidsim/gpu_runtime.h"

struct Grid {
    int nx, ny;
    float dx;
    float *u, *v, *p;
};

__host__ __device__ inline int idx(const Grid &g, int i, int j) { return j * g.nx + i; }

void advect(Grid &g, float dt, gpuStream_t stream);
void pressure_jacobi(Grid &g, int iterations, gpuStream_t stream);

#endif
