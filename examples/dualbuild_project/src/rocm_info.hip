// AMD build only: report the GPU the library runs on.
#include <cstdio>
#include <hip/hip_runtime.h>

void vecstats_print_device() {
    int device = 0;
    hipDeviceProp_t prop;
    if (hipGetDevice(&device) == hipSuccess &&
        hipGetDeviceProperties(&prop, device) == hipSuccess) {
        std::printf("vecstats on %s (%s, wavefront %d)\n", prop.name, prop.gcnArchName,
                    prop.warpSize);
    }
}
