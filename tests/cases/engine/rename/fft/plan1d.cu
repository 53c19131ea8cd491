#include <cufft.h>
cufftPlan1d(&p, n, CUFFT_C2C, 1);
cufftExecC2C(p, d, d, CUFFT_INVERSE);
