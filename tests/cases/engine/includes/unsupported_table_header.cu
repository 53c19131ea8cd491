#include <caffe2/core/common_gpu.h>
int x;
