#include <vector_types.h>
int x;
