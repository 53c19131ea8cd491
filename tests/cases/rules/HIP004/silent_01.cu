#include <cuda_runtime.h>
void f(){ frobnicate_widget(); }
