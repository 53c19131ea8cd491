__global__ void k(int); void f(){ k<<<grid, block>>>(x); }
