#include <cub/cub.cuh>
#include <thrust/device_vector.h>
namespace mycub { int cub_helper(); }
namespace c2 = ::cub;
using cub::BlockReduce;
template <int Threads>
__global__ void scan(int* data) {
  using namespace cub;
  typedef ::cub::BlockScan<int, Threads, cub::BLOCK_SCAN_WARP_SCANS> Scan;
  __shared__ typename Scan::TempStorage temp;
  int v = data[threadIdx.x];
  Scan(temp).InclusiveSum(v, v);  // cub::BlockScan keeps its name in comments
  data[threadIdx.x] = v + mycub::cub_helper();
  const char* name = "cub::BlockScan";
  (void)name;
}
void sum(thrust::device_vector<int>& v, void* tmp, size_t bytes, int* out) {
  cub::DeviceReduce::Sum(tmp, bytes, thrust::raw_pointer_cast(v.data()), out, int(v.size()));
}
