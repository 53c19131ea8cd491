#include <cuda_runtime.h>
#include <cufft.h>
static const char *name_of(cudaError_t error) { return cudaGetErrorName(error); }
static const char *name_of(cufftResult error) { return error == CUFFT_SUCCESS ? "ok" : "cufft"; }
struct A { void run(cudaError_t e) { (void)e; } };
struct B { void run(cudaError_t e) { (void)e; } };
