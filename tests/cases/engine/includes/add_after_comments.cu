// Copyright
// kernels

__global__ void k() {}
