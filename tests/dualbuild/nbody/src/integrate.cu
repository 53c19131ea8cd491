// All-pairs n-body step in one cooperative launch: forces, grid sync, then positions.
#include <stdexcept>
#include "gpu.h"

struct Body {
    float4 pos;  // w: mass
    float4 vel;
};

__device__ float3 accumulate(float4 me, float4 other, float3 acc) {
    const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
    const float d2 = dx * dx + dy * dy + dz * dz + 1e-4f;
    const float inv = rsqrtf(d2);
    const float s = other.w * inv * inv * inv;
    return make_float3(acc.x + dx * s, acc.y + dy * s, acc.z + dz * s);
}

__device__ float block_energy(cg::thread_block block, float e) {
#if !defined(NBODY_USE_HIP) && CUDART_VERSION >= 11000
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    return cg::reduce(warp, e, cg::plus<float>());
#else
    __shared__ float partial[1024];
    partial[block.thread_rank()] = e;
    block.sync();
    for (unsigned stride = block.size() / 2; stride > 0; stride /= 2) {
        if (block.thread_rank() < stride) {
            partial[block.thread_rank()] += partial[block.thread_rank() + stride];
        }
        block.sync();
    }
    return partial[0];
#endif
}

__global__ void step(Body *bodies, int n, float dt, float *energy) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    const int i = grid.thread_rank();
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);
    if (i < n) {
        for (int j = 0; j < n; ++j) {
            acc = accumulate(bodies[i].pos, bodies[j].pos, acc);
        }
    }
    grid.sync();
    float e = 0.0f;
    if (i < n) {
        Body &b = bodies[i];
        b.vel.x += acc.x * dt;
        b.vel.y += acc.y * dt;
        b.vel.z += acc.z * dt;
        b.pos.x += b.vel.x * dt;
        b.pos.y += b.vel.y * dt;
        b.pos.z += b.vel.z * dt;
        e = 0.5f * b.pos.w * (b.vel.x * b.vel.x + b.vel.y * b.vel.y + b.vel.z * b.vel.z);
    }
    e = block_energy(block, e);
    if (block.thread_rank() == 0) {
        atomicAdd(energy, e);
    }
}

void run_step(Body *bodies, int n, float dt, float *energy) {
    int sms = 0, per_sm = 0, device = 0;
    NBODY_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    NBODY_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, step, 256, 0));
    void *args[] = {&bodies, &n, &dt, &energy};
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
    cudaLaunchConfig_t config = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    config.gridDim = dim3(sms * per_sm);
    config.blockDim = dim3(256);
    config.attrs = attr;
    config.numAttrs = 1;
    NBODY_CHECK(cudaLaunchKernelExC(&config, reinterpret_cast<const void *>(step), args));
#else
    NBODY_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(step),
                                            dim3(sms * per_sm), dim3(256), args, 0, 0));
#endif
    NBODY_CHECK(cudaDeviceSynchronize());
}
