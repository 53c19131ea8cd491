#include <cudnn.h>
cudnnStatus_t st;
if (st == CUDNN_STATUS_SUCCESS) {}
