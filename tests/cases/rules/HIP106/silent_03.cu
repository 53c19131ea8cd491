// __launch_bounds__(256, 2)
__global__ void k() {}