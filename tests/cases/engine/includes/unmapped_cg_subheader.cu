#include <cooperative_groups/memcpy_async.h>
int x;
