// NVIDIA build: the toolkit headers the kernels use.
#pragma once

#include <cuda_runtime.h>
#include <cuda.h>
#include <cuda_fp16.h>

#if CUDART_VERSION < 11070
#error "tinylm needs CUDA 11.7 or newer"
#endif
