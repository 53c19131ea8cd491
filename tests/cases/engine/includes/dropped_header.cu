#include <cuda_runtime.h>
#include <device_launch_parameters.h>
int x;
