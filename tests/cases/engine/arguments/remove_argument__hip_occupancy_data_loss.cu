#include <cuda.h>
size_t smem_for(int block) { return block * 4; }
void pick(CUfunction f, int* grid, int* block) {
  cuOccupancyMaxPotentialBlockSize(grid, block, f, smem_for, 0, 256);
  cuOccupancyMaxPotentialBlockSizeWithFlags(grid, block, f, /* no callback */ NULL, 0, 256,
                                            CU_OCCUPANCY_DEFAULT);
}
