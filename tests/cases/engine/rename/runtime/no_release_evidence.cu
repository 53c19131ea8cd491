#include <cuda_runtime.h>
// HIPIFY maps these without a HIP release and no production release declares them
int kinds() { return cudaErrorLossyQuery + cudaGraphNodeTypeConditional; }
