#include <cuda_runtime.h>
void* find(const char* name) {
  void* fn = nullptr;
  cudaGetDriverEntryPoint(name, &fn, 0);
  return fn;
}
