#include <cufft_device.h>
int x;
