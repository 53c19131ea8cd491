#include <cuda_runtime.h>
struct Window {
    unsigned umin, umax;
};
__global__ void clamp(unsigned *k, Window w)
{
    k[threadIdx.x] = min(max(k[threadIdx.x], w.umin), w.umax);
}
