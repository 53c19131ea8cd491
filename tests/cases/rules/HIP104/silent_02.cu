// nvcuda::wmma
const char* s = "wmma::fragment";