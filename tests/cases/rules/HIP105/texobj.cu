// Near misses: texture objects, a variable named texture, references in comments/strings.
#include <cstdio>
#include <cuda_runtime.h>

// texture<float, 1, cudaReadModeElementType> oldTex;
__global__ void fetch(cudaTextureObject_t tex, cudaSurfaceObject_t surf, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(tex, i);
    float v = tex2D<float>(tex, 0.5f, 0.5f);
    surf2Dwrite(v, surf, 0, 0);
}

int main()
{
    int texture = 3;
    bool small = texture < 4;
    cudaResourceDesc res{};
    cudaTextureDesc desc{};
    cudaTextureObject_t obj = 0;
    cudaCreateTextureObject(&obj, &res, &desc, nullptr);
    std::printf("cudaBindTexture is gone %d\n", small);
    return 0;
}
