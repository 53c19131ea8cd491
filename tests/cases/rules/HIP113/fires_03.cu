#include <cuda_runtime.h>
#include <cstdio>
int main() { printf("%d\n", CUDART_VERSION); }
