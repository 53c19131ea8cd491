// NVIDIA build: the CUDA toolkit headers.
#pragma once

#include <cuda_runtime.h>
