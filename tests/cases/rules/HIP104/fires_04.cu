#include <mma.h>
using namespace nvcuda;
__global__ void k(){ wmma::fragment<wmma::matrix_a, 16, 16, 16, half> a; }
