// nothing here
/* cudaMalloc */
