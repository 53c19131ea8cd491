cuda_add_executable(app main.cu)
