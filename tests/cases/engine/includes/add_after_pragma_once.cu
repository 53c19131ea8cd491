// k.cuh
#pragma once
#include <cstdio>
__global__ void k();
