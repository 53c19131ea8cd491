

#ifndef A_H
#define A_H

__device__ int f();
#endif
