void* p = malloc(32);
#define WARP_SIZE_LOG 5
