#include <cuComplex.h>
c = cuCaddf(a, cuCmulf(a, b));
d = cuCdivf(a, b);
