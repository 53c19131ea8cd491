void f(){ (*kernel_ptr)<<<grid, block>>>(x); }
