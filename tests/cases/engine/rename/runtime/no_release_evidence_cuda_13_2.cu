#include <cuda_runtime.h>
// CUDA 13.2 names (newer than the CUDA 13.0 installed here) mapped without a HIP release
int kinds() {
  int n = cudaMemPoolAttrAllocationType + cudaMemPoolAttrExportHandleTypes;
  n += cudaMemPoolAttrHwDecompressEnabled + cudaMemPoolAttrLocationId;
  return n + cudaMemPoolAttrLocationType + cudaMemPoolAttrMaxPoolSize;
}
