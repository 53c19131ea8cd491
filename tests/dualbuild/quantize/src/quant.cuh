#pragma once

#ifdef QNT_USE_HIP
#include "vendors/hip.h"
#else
#include "vendors/cuda.h"
#endif

#include <cstdint>

#define QK 32  // values per quantized block

struct block_q8 {
    half scale;
    int8_t q[QK];
};
