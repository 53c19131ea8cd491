#include <cudnn.h>
void backward(cudnnHandle_t h, const float* alpha, cudnnFilterDescriptor_t wd, const float* w,
              cudnnTensorDescriptor_t dyd, const float* dy, cudnnConvolutionDescriptor_t cd,
              cudnnConvolutionBwdDataAlgo_t algo, void* ws, size_t wsBytes, const float* beta,
              cudnnTensorDescriptor_t dxd, float* dx) {
  cudnnConvolutionBackwardData(h, alpha, wd, w, dyd, dy, cd, algo, ws, wsBytes, beta, dxd, dx);
}
