// A ring of slots in mapped memory: producers advance one cursor with atomicInc_system,
// consumers walk another down with atomicDec_system (host and GPU see both).
#include <cuda_runtime.h>

namespace ring {
struct Cursors {
    unsigned head, tail;
};

__device__ unsigned claim(Cursors *c, unsigned slots)
{
    return atomicInc_system(&c->head, slots - 1);
}
}  // namespace ring

__global__ void produce(ring::Cursors *c, unsigned *owner, unsigned slots)
{
    owner[ring::claim(c, slots)] = threadIdx.x;
}

__global__ void consume(ring::Cursors *c, unsigned *owner, unsigned slots)
{
    unsigned slot = atomicDec_system(&c->tail, slots - 1);
    owner[slot] = 0;
}
