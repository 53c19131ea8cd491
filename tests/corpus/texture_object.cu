// texture_object.cu - bindless textures: a CUDA array wrapped in a texture
// object, sampled with tex2D and bilinear filtering; plus a linear-memory
// texture read with tex1Dfetch.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "common.cuh"

__global__ void resample(cudaTextureObject_t tex, float *out, int outW, int outH, float angle)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= outW || y >= outH) return;

    float u = x / static_cast<float>(outW) - 0.5f;
    float v = y / static_cast<float>(outH) - 0.5f;
    float tu = u * cosf(angle) - v * sinf(angle) + 0.5f;
    float tv = v * cosf(angle) + u * sinf(angle) + 0.5f;
    out[y * outW + x] = tex2D<float>(tex, tu, tv);
}

__global__ void gatherLinear(cudaTextureObject_t tex, const int *index, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(tex, index[i]);
}

int main()
{
    const int w = 256, h = 256;
    std::vector<float> image(w * h);
    for (int i = 0; i < w * h; ++i) image[i] = static_cast<float>((i / w + i % w) & 1);

    cudaChannelFormatDesc channel = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t array = nullptr;
    CUDA_CHECK(cudaMallocArray(&array, &channel, w, h));
    CUDA_CHECK(cudaMemcpy2DToArray(array, 0, 0, image.data(), w * sizeof(float),
                                   w * sizeof(float), h, cudaMemcpyHostToDevice));

    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;

    cudaTextureDesc desc = {};
    desc.addressMode[0] = cudaAddressModeWrap;
    desc.addressMode[1] = cudaAddressModeWrap;
    desc.filterMode = cudaFilterModeLinear;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 1;

    cudaTextureObject_t tex = 0;
    CUDA_CHECK(cudaCreateTextureObject(&tex, &res, &desc, nullptr));

    float *dOut = nullptr;
    CUDA_CHECK(cudaMalloc(&dOut, w * h * sizeof(float)));
    dim3 block(16, 16), grid(w / 16, h / 16);
    resample<<<grid, block>>>(tex, dOut, w, h, 0.5f);
    CUDA_CHECK_KERNEL();

    // Linear memory as a 1D texture.
    float *dLinear = nullptr;
    int *dIndex = nullptr;
    CUDA_CHECK(cudaMalloc(&dLinear, w * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dIndex, w * sizeof(int)));
    CUDA_CHECK(cudaMemset(dIndex, 0, w * sizeof(int)));
    cudaResourceDesc lin = {};
    lin.resType = cudaResourceTypeLinear;
    lin.res.linear.devPtr = dLinear;
    lin.res.linear.desc = cudaCreateChannelDesc<float>();
    lin.res.linear.sizeInBytes = w * sizeof(float);
    cudaTextureDesc linDesc = {};
    linDesc.readMode = cudaReadModeElementType;
    cudaTextureObject_t linTex = 0;
    CUDA_CHECK(cudaCreateTextureObject(&linTex, &lin, &linDesc, nullptr));
    gatherLinear<<<1, w>>>(linTex, dIndex, dOut, w);
    CUDA_CHECK_KERNEL();

    CUDA_CHECK(cudaDestroyTextureObject(linTex));
    CUDA_CHECK(cudaDestroyTextureObject(tex));
    CUDA_CHECK(cudaFreeArray(array));
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dLinear));
    CUDA_CHECK(cudaFree(dIndex));
    return 0;
}
