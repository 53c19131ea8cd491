#include <cuComplex.h>
cuComplex a;
cuDoubleComplex b;
cuFloatComplex c;
