#include <cstdio>
#include <vector>
#include "mine.h"
int x;
