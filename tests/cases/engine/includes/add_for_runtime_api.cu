#include <cstdio>
void f() { cudaDeviceSynchronize(); }
