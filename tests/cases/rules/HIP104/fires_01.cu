#include "mma.h"
