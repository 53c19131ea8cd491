// texture<float, 1, cudaReadModeElementType> tex;
const char* s = "cudaBindTexture";