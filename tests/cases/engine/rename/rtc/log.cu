#include <nvrtc.h>
nvrtcGetProgramLog(prog, log);
if (r == NVRTC_ERROR_COMPILATION) {}
