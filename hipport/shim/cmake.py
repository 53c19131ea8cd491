"""hipport-shim.cmake: one CMake function that builds a target's CUDA sources as HIP
through the shim (CMake's HIP language, CMake >= 3.21)."""

from __future__ import annotations

CMAKE_FILE = "hipport-shim.cmake"


def cmake_module(banner: str) -> bytes:
    text = banner.replace("/*", "#").replace(" * ", "# ").replace(" */", "")
    return (
        text
        + """
# Usage (after project(... LANGUAGES CXX HIP) or enable_language(HIP)):
#   include(${CMAKE_CURRENT_SOURCE_DIR}/<shim dir>/hipport-shim.cmake)
#   hipport_shim_target(my_target)
# marks every .cu source of my_target as HIP and puts the shim first on its include path;
# .cu files that relied on nvcc's implicit cuda_runtime.h get it as a forced include.
set(HIPPORT_SHIM_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL "hipport shim directory")

function(hipport_shim_target target)
  get_target_property(_sources ${target} SOURCES)
  foreach(_src IN LISTS _sources)
    if(_src MATCHES "\\\\.cu$")
      set_source_files_properties(${_src} TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE HIP)
    endif()
  endforeach()
  target_include_directories(${target} BEFORE PRIVATE "${HIPPORT_SHIM_DIR}")
  # a .cu file is CUDA to clang whatever CMake's LANGUAGE says: -x hip makes it HIP
  target_compile_options(${target} PRIVATE
    "$<$<COMPILE_LANGUAGE:HIP>:SHELL:-x hip>"
    "$<$<COMPILE_LANGUAGE:HIP>:SHELL:-include cuda_runtime.h>")
endfunction()
"""
    ).encode("utf-8")
