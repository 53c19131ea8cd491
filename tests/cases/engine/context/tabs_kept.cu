#include <cuda_runtime.h>
	cudaFree(p);	// x
		cudaDeviceSynchronize();
