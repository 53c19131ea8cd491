#include <cufftXt.h>
cufftHandle p;
