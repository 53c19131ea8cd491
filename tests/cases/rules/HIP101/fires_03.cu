__device__ void f() {
  __asm("membar.gl;");
}