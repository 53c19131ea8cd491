#include <numeric>
int f(int* a, int n) { return std::reduce(a, a + n); }