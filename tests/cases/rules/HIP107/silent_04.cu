#include <cooperative_groups.h>
void f() { std::vector<int> v; wait(0); }