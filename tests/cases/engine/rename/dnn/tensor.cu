#include <cudnn.h>
cudnnTensorDescriptor_t t;
cudnnCreateTensorDescriptor(&t);
cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 3, 8, 8);
