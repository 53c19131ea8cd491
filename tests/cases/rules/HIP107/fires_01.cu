#include <cooperative_groups/scan.h>
