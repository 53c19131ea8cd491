#include <cudnn.h>
cudnnStatus_t st = cudnnCreate(&h);
if (st != CUDNN_STATUS_SUCCESS) {}
