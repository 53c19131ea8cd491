#include "cooperative_groups.h"
int x;
