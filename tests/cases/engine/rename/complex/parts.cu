#include <cuComplex.h>
float r = cuCrealf(a), i = cuCimagf(a);
