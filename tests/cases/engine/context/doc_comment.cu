#include <cuda_runtime.h>
/// Wraps cudaMemcpy.
void copy();
