#include <cufft.h>
cufftHandle p;
cufftPlan2d(&p, nx, ny, CUFFT_Z2Z);
cufftDestroy(p);
