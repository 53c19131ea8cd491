#include <cuda_runtime.h>
namespace lib { namespace cub { int f(); } }
int g() {
  int cub = lib::cub::f();
  return cub;
}
