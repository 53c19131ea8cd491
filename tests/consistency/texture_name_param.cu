// An upload helper in a renderer: `texture` is a plain parameter name, not CUDA's template.
#include <cstdio>
#include <cuda_runtime.h>

typedef unsigned int GLuint;

struct Upload {
  GLuint texture;
  int width, height;
};

static void record_upload(Upload *u, GLuint texture, int width, int height) {
  u->texture = texture;
  u->width = width;
  u->height = height;
}

__global__ void gradient(uchar4 *pixels, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    pixels[y * width + x] = make_uchar4(x & 0xff, y & 0xff, 128, 255);
}

int main() {
  Upload up;
  GLuint texture = 7;
  record_upload(&up, texture, 64, 64);
  uchar4 *pixels;
  cudaMalloc(&pixels, up.width * up.height * sizeof(uchar4));
  gradient<<<dim3(4, 4), dim3(16, 16)>>>(pixels, up.width, up.height);
  cudaDeviceSynchronize();
  printf("texture %u uploaded (%d < %d)\n", up.texture, int(texture < 8), 8);
  cudaFree(pixels);
  return 0;
}
