#include <cudnn.h>
void softmax(cudnnHandle_t h, cudnnTensorDescriptor_t xd, const float* x, float* y) {
  const float one = 1.0f, zero = 0.0f;
  cudnnSoftmaxForward(h, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL,
                      &one, xd, x,
                      &zero, xd, y);
}
