#include <cuda_runtime.h>
#include <cstdio>
#define CUDART_VERSION 12000  // the program's own
int main() { printf("%d\n", CUDART_VERSION); }
