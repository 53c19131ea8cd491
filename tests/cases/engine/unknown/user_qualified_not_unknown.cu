#include <cuda_runtime.h>
mylib::cudaThing();
