add_executable(app main.cpp)
