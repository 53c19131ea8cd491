#include <cudnn.h>
cudnnHandle_t h;
cudnnCreate(&h);
cudnnDestroy(h);
