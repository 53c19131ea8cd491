// Box blur reading a 2D texture object bound to a CUDA array.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

__global__ void blur(cudaTextureObject_t tex, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0.f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) s += tex2D<float>(tex, x + dx + 0.5f, y + dy + 0.5f);
  out[y * w + x] = s / 9.f;
}

int main() {
  const int w = 64, h = 64;
  std::vector<float> img(w * h, 1.f);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  cudaMallocArray(&arr, &desc, w, h);
  cudaMemcpy2DToArray(arr, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h,
                      cudaMemcpyHostToDevice);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeClamp;
  td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  cudaCreateTextureObject(&tex, &res, &td, nullptr);
  float *out;
  cudaMalloc(&out, w * h * sizeof(float));
  blur<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(tex, out, w, h);
  cudaDeviceSynchronize();
  cudaDestroyTextureObject(tex);
  cudaFreeArray(arr);
  cudaFree(out);
  printf("ok\n");
  return 0;
}
