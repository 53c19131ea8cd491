#include <cmath>
float f(float x) { return sqrtf(x); }
