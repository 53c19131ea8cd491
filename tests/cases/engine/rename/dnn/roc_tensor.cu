#include <cudnn.h>
cudnnTensorDescriptor_t t;
cudnnCreateTensorDescriptor(&t);
int f = CUDNN_DATA_FLOAT;
