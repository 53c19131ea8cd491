// Near misses: wmma in comments and strings, names that only contain "wmma", other mma headers.
#include <cstdio>
#include "mma_config.h"

// wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
/* #include <mma.h> nvcuda::wmma */
struct Options { int wmma; };
static int use_wmma_path = 0;

int main()
{
    Options o{1};
    std::printf("nvcuda::wmma disabled %d %d\n", o.wmma, use_wmma_path);
    return 0;
}
