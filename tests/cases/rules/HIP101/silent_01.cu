// asm("mov.u32 %0, %%laneid;");
__global__ void k() {}