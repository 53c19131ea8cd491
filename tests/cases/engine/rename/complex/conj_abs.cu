#include <cuComplex.h>
float m = cuCabsf(cuConjf(a));
