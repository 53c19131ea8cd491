#include <thrust/device_vector.h>
int x;
