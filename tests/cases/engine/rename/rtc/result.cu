#include <nvrtc.h>
nvrtcResult r = nvrtcCompileProgram(prog, 0, nullptr);
if (r != NVRTC_SUCCESS) puts(nvrtcGetErrorString(r));
