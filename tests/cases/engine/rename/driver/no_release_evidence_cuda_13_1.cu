#include <cuda.h>
// a CUDA 13.1 name (newer than the CUDA 13.0 installed here) mapped without a HIP release
int kinds() { return CU_STREAM_MEM_OP_ATOMIC_REDUCTION; }
