#include <cufft.h>
cufftResult r = cufftExecZ2Z(p, (cufftDoubleComplex*)in, out, CUFFT_FORWARD);
