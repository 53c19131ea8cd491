#include <cuda.h>
// HIPIFY maps it without a HIP release and no production release declares it
int kinds() { return CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES; }
