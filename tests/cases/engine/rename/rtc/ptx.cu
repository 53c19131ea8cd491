#include <nvrtc.h>
size_t n; nvrtcGetPTXSize(prog, &n);
nvrtcGetPTX(prog, buf);
