#include <cuda_runtime.h>
cudaMallocPitch((void**)&p, &pitch, w, h);
