#include <cuda.h>
struct Request {
    int requestedHandleTypes;
};
int wanted(CUmemAllocationProp *prop)
{
    Request r = {1};
    return r.requestedHandleTypes + prop->type;
}
