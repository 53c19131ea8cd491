#ifndef K_CUH
#define K_CUH
__global__ void k();
#endif
