// Legacy texture/surface references (removed in CUDA 12: this file does not build with
// CUDA 12+, which is the point of the rule).
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> texIn;
texture<uchar4, cudaTextureType2D, cudaReadModeNormalizedFloat> texImg;
surface<void, 2> surfOut;

__global__ void copy(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch(texIn, i);
    float4 p = tex2D(texImg, 0.5f, 0.5f);
    surf2Dwrite(p.x, surfOut, 0, 0);
}

void bind(const float *d, int n)
{
    cudaBindTexture(nullptr, texIn, d, n * sizeof(float));
    cudaUnbindTexture(texIn);
}
