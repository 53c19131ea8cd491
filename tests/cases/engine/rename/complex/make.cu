#include <cuComplex.h>
cuComplex a = make_cuComplex(1.f, 2.f);
cuDoubleComplex b = make_cuDoubleComplex(1.0, 2.0);
