// Tensor-core WMMA: the header, the nvcuda::wmma namespace and wmma:: uses.
#include <mma.h>
#include <cuda_fp16.h>
namespace wm = nvcuda::wmma;
using namespace nvcuda;

__global__ void gemm16(const half *a, const half *b, float *c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
    wm::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    (void)b;
    (void)c;
}
