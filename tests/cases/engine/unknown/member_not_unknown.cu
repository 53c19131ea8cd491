#include <cuda_runtime.h>
s.cudaThing = 1;
p->cuFoo();
