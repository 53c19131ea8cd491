// A texture reference in a file that also names a variable `texture`: the template use
// is still CUDA's removed texture<> (and HIP105's texture reference).
#include <cuda_runtime.h>
texture<float, 1, cudaReadModeElementType> tex;
__global__ void k(float *out, int texture) { out[texture] = tex1Dfetch(tex, texture); }
