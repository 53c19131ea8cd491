cudaDeviceProp p; // p.asyncEngineCount
const char* s = "p.luid";