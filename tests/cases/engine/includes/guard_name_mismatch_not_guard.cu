#ifndef A_H
#define B_H
__device__ int f();
#endif
