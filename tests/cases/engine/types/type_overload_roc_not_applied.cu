#include <library_types.h>
enum cudaDataType_t pick(bool wide) { return wide ? CUDA_R_64F : CUDA_R_32F; }
cudaDataType_t narrow = CUDA_R_16F;
cudaDataType other = CUDA_R_8I;
