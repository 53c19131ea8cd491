#include <cuda_runtime.h>
size_t pitch;
cudaMallocPitch(&p, &pitch, w, h);
cudaMemcpy2D(p, pitch, q, w, w, h, cudaMemcpyHostToDevice);
