#include <cuda_runtime.h>
float* p; size_t pitch;
cudaMallocPitch(&p, &pitch, w, h);
