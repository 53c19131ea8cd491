#include <cufft.h>
int x;
