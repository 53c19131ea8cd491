#include <cub/cub.cuh>
CUB_NAMESPACE_BEGIN
int x;
CUB_NAMESPACE_END
