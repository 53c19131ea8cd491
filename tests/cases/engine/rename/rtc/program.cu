#include <nvrtc.h>
nvrtcProgram prog;
nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr);
nvrtcCompileProgram(prog, 0, nullptr);
nvrtcDestroyProgram(&prog);
