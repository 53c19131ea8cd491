#include <texture_fetch_functions.h>
int x;
