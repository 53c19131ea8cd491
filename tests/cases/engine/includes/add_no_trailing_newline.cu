// only a comment then code
__global__ void k() {}