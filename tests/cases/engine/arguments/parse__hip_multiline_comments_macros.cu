#include <cuda_runtime.h>
#define CHECK(call) (void)(call)
#define SYM(name) name
__constant__ int lut[8];
template <typename T, int N> struct Box { T v[N]; };
__constant__ Box<int, 4> box;
void load(const int* host, cudaStream_t s) {
  CHECK(cudaMemcpyToSymbolAsync(
      SYM(lut),  // the table
      host, /* bytes */ sizeof(int) * 8,
      0, cudaMemcpyHostToDevice, s));
  cudaMemcpyToSymbol(box, static_cast<const Box<int, 4>*>(nullptr), sizeof(Box<int, 4>));
}
