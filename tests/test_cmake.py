"""hipport.cmake: (CMake in, CMake out) pairs, the findings they raise, and invariants."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from hipport.cmake import parse_commands, translate_cmake
from hipport.edits import apply
from hipport.findings import RULES

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "saxpy_project" / "CMakeLists.txt"
EXPECTED = ROOT / "tests" / "cases" / "cmake" / "saxpy_project.CMakeLists.txt.expected"


def _diff(expected: bytes, actual: bytes) -> str:
    lines = difflib.unified_diff(
        expected.decode().splitlines(keepends=True),
        actual.decode().splitlines(keepends=True),
        "expected",
        "actual",
    )
    return "".join(lines)


def _check(source: str, expected: str) -> list[str]:
    result = translate_cmake(source.encode(), "CMakeLists.txt")
    assert result.output == expected.encode(), _diff(expected.encode(), result.output)
    return [f.code for f in result.findings]


# (input, expected output, expected finding codes in order)
PAIRS = [
    pytest.param(
        "project(app LANGUAGES CXX CUDA)\n",
        "project(app LANGUAGES CXX HIP)\n",
        [],
        id="project-languages",
    ),
    pytest.param(
        'project(app VERSION 1.0 LANGUAGES CUDA CXX DESCRIPTION "CUDA app")\n',
        'project(app VERSION 1.0 LANGUAGES HIP CXX DESCRIPTION "CUDA app")\n',
        [],
        id="project-keywords-and-description-string",
    ),
    pytest.param("project(app CXX CUDA)\n", "project(app CXX HIP)\n", [], id="project-short-form"),
    pytest.param(
        "project(CUDA VERSION 2.0)\n", "project(CUDA VERSION 2.0)\n", [], id="project-named-cuda"
    ),
    pytest.param(
        "project(app LANGUAGES CXX CUDA HIP)\n",
        "project(app LANGUAGES CXX HIP)\n",
        [],
        id="project-already-hip",
    ),
    pytest.param("enable_language(CUDA)\n", "enable_language(HIP)\n", [], id="enable-language"),
    pytest.param(
        "ENABLE_LANGUAGE(CUDA OPTIONAL)\n",
        "ENABLE_LANGUAGE(HIP OPTIONAL)\n",
        [],
        id="enable-language-upper-case-optional",
    ),
    pytest.param(
        "cmake_minimum_required(VERSION 3.18)\nenable_language(CUDA)\n",
        "cmake_minimum_required(VERSION 3.18)\nenable_language(HIP)\n",
        ["HIP301"],
        id="minimum-version-too-old",
    ),
    pytest.param(
        "cmake_minimum_required(VERSION 3.24...3.28)\nenable_language(CUDA)\n",
        "cmake_minimum_required(VERSION 3.24...3.28)\nenable_language(HIP)\n",
        [],
        id="minimum-version-ok",
    ),
    pytest.param(
        "set(CMAKE_CUDA_ARCHITECTURES 80)\n",
        "set(CMAKE_HIP_ARCHITECTURES 80)\n",
        ["HIP302"],
        id="architectures-number",
    ),
    pytest.param(
        'set(CMAKE_CUDA_ARCHITECTURES "native" CACHE STRING "GPU targets")\n',
        'set(CMAKE_HIP_ARCHITECTURES "native" CACHE STRING "GPU targets")\n',
        ["HIP302"],
        id="architectures-native-cache",
    ),
    pytest.param(
        "set(CMAKE_CUDA_ARCHITECTURES gfx90a;gfx942)\n",
        "set(CMAKE_HIP_ARCHITECTURES gfx90a;gfx942)\n",
        [],
        id="architectures-already-gfx",
    ),
    pytest.param(
        "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n"
        '  message(STATUS "archs: ${CMAKE_CUDA_ARCHITECTURES}")\nendif()\n',
        "if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)\n"
        '  message(STATUS "archs: ${CMAKE_HIP_ARCHITECTURES}")\nendif()\n',
        [],
        id="architectures-references",
    ),
    pytest.param(
        'set_target_properties(app PROPERTIES CUDA_ARCHITECTURES "70;80" CXX_STANDARD 17)\n',
        'set_target_properties(app PROPERTIES HIP_ARCHITECTURES "70;80" CXX_STANDARD 17)\n',
        ["HIP302"],
        id="architectures-target-property",
    ),
    pytest.param(
        "set_property(TARGET app PROPERTY CUDA_ARCHITECTURES native)\n",
        "set_property(TARGET app PROPERTY HIP_ARCHITECTURES native)\n",
        ["HIP302"],
        id="architectures-set-property",
    ),
    pytest.param(
        "set(CMAKE_CUDA_STANDARD 17)\nset(CMAKE_CUDA_STANDARD_REQUIRED ON)\n",
        "set(CMAKE_HIP_STANDARD 17)\nset(CMAKE_HIP_STANDARD_REQUIRED ON)\n",
        [],
        id="standard",
    ),
    pytest.param(
        'set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -O3")\n',
        'set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} -O3")\n',
        [],
        id="flags",
    ),
    pytest.param(
        'string(APPEND CMAKE_CUDA_FLAGS_RELEASE " --use_fast_math")\n',
        'string(APPEND CMAKE_HIP_FLAGS_RELEASE " --use_fast_math")\n',
        ["HIP301"],
        id="flags-nvcc-only-option",
    ),
    pytest.param(
        "set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)\n",
        "set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)\n",
        ["HIP301"],
        id="compiler-reported",
    ),
    pytest.param(
        'if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")\nendif()\n',
        'if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")\nendif()\n',
        ["HIP301"],
        id="compiler-id-reported",
    ),
    pytest.param(
        "set(CMAKE_CUDA_SEPARABLE_COMPILATION ON)\n",
        "set(CMAKE_CUDA_SEPARABLE_COMPILATION ON)\n",
        ["HIP301"],
        id="separable-compilation-variable",
    ),
    pytest.param(
        "set_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n",
        "set_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n",
        ["HIP301"],
        id="separable-compilation-property",
    ),
    pytest.param(
        "set_target_properties(k PROPERTIES CUDA_STANDARD 17 LINKER_LANGUAGE CUDA)\n",
        "set_target_properties(k PROPERTIES HIP_STANDARD 17 LINKER_LANGUAGE HIP)\n",
        [],
        id="standard-and-linker-language-properties",
    ),
    pytest.param(
        "target_compile_features(k PUBLIC cuda_std_17 cxx_std_17)\n",
        "target_compile_features(k PUBLIC hip_std_17 cxx_std_17)\n",
        [],
        id="compile-feature",
    ),
    pytest.param(
        "find_package(CUDAToolkit REQUIRED)\n",
        "find_package(hip REQUIRED)\n",
        [],
        id="find-cudatoolkit",
    ),
    pytest.param(
        "find_package(CUDAToolkit 11.4 QUIET)\n",
        "find_package(hip QUIET)\n",
        [],
        id="find-cudatoolkit-version-dropped",
    ),
    pytest.param(
        "find_package(CUDAToolkit REQUIRED)\n"
        "target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas CUDA::cufft)\n",
        "find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\n"
        "find_package(hipfft REQUIRED)\n"
        "target_link_libraries(app PRIVATE hip::host roc::hipblas hip::hipfft)\n",
        [],
        id="find-cudatoolkit-adds-library-packages",
    ),
    pytest.param(
        "if(USE_GPU)\n\tfind_package(CUDAToolkit REQUIRED) # toolkit\nendif()\n"
        "target_link_libraries(app CUDA::cusparse CUDA::cusolver CUDA::nvrtc)\n",
        "if(USE_GPU)\n\tfind_package(hip REQUIRED) # toolkit\n\tfind_package(hipsparse REQUIRED)\n"
        "\tfind_package(hipsolver REQUIRED)\n\tfind_package(hiprtc REQUIRED)\nendif()\n"
        "target_link_libraries(app roc::hipsparse roc::hipsolver hiprtc::hiprtc)\n",
        [],
        id="library-packages-indented-after-comment",
    ),
    pytest.param(
        "find_package(CUDAToolkit)\nfind_package(hiprand)\n"
        "target_link_libraries(app CUDA::curand CUDA::cudart_static CUDA::cuda_driver)\n",
        "find_package(hip)\nfind_package(hiprand)\n"
        "target_link_libraries(app hip::hiprand hip::host hip::host)\n",
        [],
        id="library-package-already-found",
    ),
    pytest.param(
        "target_link_libraries(app PRIVATE CUDA::cublas)\n",
        "target_link_libraries(app PRIVATE roc::hipblas)\n",
        ["HIP301"],
        id="library-without-find-package-reported",
    ),
    pytest.param(
        'target_link_libraries(app PRIVATE $<BUILD_INTERFACE:CUDA::cudart> "CUDA::curand")\n',
        'target_link_libraries(app PRIVATE $<BUILD_INTERFACE:hip::host> "hip::hiprand")\n',
        ["HIP301"],
        id="link-target-in-genex-and-exact-string",
    ),
    pytest.param(
        "target_link_libraries(app CUDA::nvToolsExt CUDA::cupti CUDA::nvml)\n",
        "target_link_libraries(app CUDA::nvToolsExt CUDA::cupti CUDA::nvml)\n",
        ["HIP301", "HIP301", "HIP301"],
        id="link-targets-without-hip-twin",
    ),
    pytest.param(
        "find_package(CUDA REQUIRED)\ncuda_add_executable(app main.cu)\n"
        "cuda_add_library(k STATIC k.cu)\n",
        "find_package(CUDA REQUIRED)\ncuda_add_executable(app main.cu)\n"
        "cuda_add_library(k STATIC k.cu)\n",
        ["HIP301", "HIP301", "HIP301"],
        id="legacy-findcuda",
    ),
    pytest.param(
        "add_executable(app main.cpp kernel.cu)\n",
        "add_executable(app main.cpp kernel.cu)\n"
        "set_source_files_properties(kernel.cu PROPERTIES LANGUAGE HIP)\n",
        [],
        id="sources-executable",
    ),
    pytest.param(
        'add_library(k STATIC\n    a.cu\n    "${CMAKE_CURRENT_SOURCE_DIR}/b.cu"\n    c.cpp)\n',
        'add_library(k STATIC\n    a.cu\n    "${CMAKE_CURRENT_SOURCE_DIR}/b.cu"\n    c.cpp)\n'
        'set_source_files_properties(a.cu "${CMAKE_CURRENT_SOURCE_DIR}/b.cu" '
        "PROPERTIES LANGUAGE HIP)\n",
        [],
        id="sources-library-multiline",
    ),
    pytest.param(
        "set(SRCS a.cu b.cu)\nadd_executable(app ${SRCS})\ntarget_sources(app PRIVATE c.cu)\n",
        "set(SRCS a.cu b.cu)\nset_source_files_properties(a.cu b.cu PROPERTIES LANGUAGE HIP)\n"
        "add_executable(app ${SRCS})\n"
        "target_sources(app PRIVATE c.cu)\n"
        "set_source_files_properties(c.cu PROPERTIES LANGUAGE HIP)\n",
        [],
        id="sources-variable-and-target-sources",
    ),
    pytest.param(
        "add_executable(app a.cu)\nset_source_files_properties(a.cu PROPERTIES LANGUAGE CUDA)\n",
        "add_executable(app a.cu)\nset_source_files_properties(a.cu PROPERTIES LANGUAGE HIP)\n",
        [],
        id="sources-language-property-already-set",
    ),
    pytest.param(
        "add_library(CUDA::helper ALIAS helper)\nadd_library(imp SHARED IMPORTED)\n",
        "add_library(CUDA::helper ALIAS helper)\nadd_library(imp SHARED IMPORTED)\n",
        ["HIP301"],
        id="alias-and-imported-not-sources",
    ),
    pytest.param(
        "file(GLOB KERNELS src/*.cu)\n",
        "file(GLOB KERNELS src/*.cu)\n",
        ["HIP301"],
        id="glob-sources-reported",
    ),
    pytest.param(
        "target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math>)\n",
        "target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math>)\n",
        ["HIP301"],
        id="compile-language-genex-reported",
    ),
    pytest.param(
        "if(CUDAToolkit_FOUND)\n  include_directories(${CUDAToolkit_INCLUDE_DIRS})\nendif()\n",
        "if(CUDAToolkit_FOUND)\n  include_directories(${CUDAToolkit_INCLUDE_DIRS})\nendif()\n",
        ["HIP301", "HIP301"],
        id="cudatoolkit-variables-reported",
    ),
    pytest.param(
        "include(CheckLanguage)\ncheck_language(CUDA)\n",
        "include(CheckLanguage)\ncheck_language(CUDA)\n",
        ["HIP301"],
        id="check-language-reported",
    ),
    pytest.param(
        "# project(app LANGUAGES CUDA) uses CMAKE_CUDA_ARCHITECTURES and CUDA::cublas\n"
        "#[[ enable_language(CUDA)\nadd_executable(x a.cu) ]]\n"
        'message(STATUS "link CUDA::cublas, set CMAKE_CUDA_FLAGS, CUDA")\n'
        "set(NOTE [[CUDA::cudart CMAKE_CUDA_STANDARD]])\n",
        "# project(app LANGUAGES CUDA) uses CMAKE_CUDA_ARCHITECTURES and CUDA::cublas\n"
        "#[[ enable_language(CUDA)\nadd_executable(x a.cu) ]]\n"
        'message(STATUS "link CUDA::cublas, set CMAKE_CUDA_FLAGS, CUDA")\n'
        "set(NOTE [[CUDA::cudart CMAKE_CUDA_STANDARD]])\n",
        [],
        id="comments-brackets-and-prose-untouched",
    ),
    pytest.param(
        'set(DOC "CUDA::cudart;CUDA::cublas")\nset(X "see CMAKE_CUDA_STANDARD")\n',
        'set(DOC "CUDA::cudart;CUDA::cublas")\nset(X "see CMAKE_CUDA_STANDARD")\n',
        ["HIP301"],
        id="strings-not-exactly-a-value-untouched",
    ),
    pytest.param(
        "add_executable(app a.cu # the kernels\n  b.cpp)  \t\n",
        "add_executable(app a.cu # the kernels\n  b.cpp)  \t\n"
        "set_source_files_properties(a.cu PROPERTIES LANGUAGE HIP)\n",
        [],
        id="trailing-whitespace-and-inline-comment-kept",
    ),
    pytest.param(
        "add_executable(app a.cu)",
        "add_executable(app a.cu)\nset_source_files_properties(a.cu PROPERTIES LANGUAGE HIP)",
        [],
        id="no-final-newline",
    ),
]


@pytest.mark.parametrize(("source", "expected", "codes"), PAIRS)
def test_pairs(source: str, expected: str, codes: list[str]) -> None:
    assert _check(source, expected) == codes


@pytest.mark.parametrize(("source", "expected", "codes"), PAIRS)
def test_idempotent(source: str, expected: str, codes: list[str]) -> None:
    once = translate_cmake(source.encode(), "CMakeLists.txt").output
    twice = translate_cmake(once, "CMakeLists.txt").output
    assert twice == once, _diff(once, twice)


@pytest.mark.parametrize(("source", "expected", "codes"), PAIRS)
def test_edits_reproduce_output(source: str, expected: str, codes: list[str]) -> None:
    result = translate_cmake(source.encode(), "CMakeLists.txt")
    assert apply(source.encode(), result.edits) == result.output
    for edit in result.edits:
        assert source.encode()[edit.start : edit.end] == edit.old


def test_example_project_whole_file() -> None:
    result = translate_cmake(EXAMPLE.read_bytes(), str(EXAMPLE))
    expected = EXPECTED.read_bytes()
    assert result.output == expected, _diff(expected, result.output)
    assert [(f.code, f.location.line) for f in result.findings] == [
        ("HIP301", 1),  # cmake_minimum_required(VERSION 3.18) < 3.21
        ("HIP302", 11),  # CMAKE_HIP_ARCHITECTURES 80
    ]
    assert translate_cmake(expected, str(EXAMPLE)).output == expected
    names = [c.name for c in parse_commands(result.output)]
    assert names.count("find_package") == 2
    assert "set_source_files_properties" in names


def test_crlf_preserved() -> None:
    source = (
        b"project(app LANGUAGES CXX CUDA)\r\n"
        b"find_package(CUDAToolkit REQUIRED)\r\n"
        b"add_executable(app main.cu)\r\n"
        b"target_link_libraries(app CUDA::cublas)\r\n"
    )
    expected = (
        b"project(app LANGUAGES CXX HIP)\r\n"
        b"find_package(hip REQUIRED)\r\n"
        b"find_package(hipblas REQUIRED)\r\n"
        b"add_executable(app main.cu)\r\n"
        b"set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)\r\n"
        b"target_link_libraries(app roc::hipblas)\r\n"
    )
    result = translate_cmake(source, "CMakeLists.txt")
    assert result.output == expected
    assert translate_cmake(result.output, "CMakeLists.txt").output == expected


def test_crlf_file_without_final_newline_uses_crlf() -> None:
    source = b"enable_language(CUDA)\r\nadd_executable(app k.cu)"
    result = translate_cmake(source, "x.cmake")
    assert result.output == (
        b"enable_language(HIP)\r\nadd_executable(app k.cu)\r\n"
        b"set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)"
    )


def test_finding_location_is_one_based_bytes() -> None:
    source = b"# \xc3\xa9\n  set(CMAKE_CUDA_ARCHITECTURES 80 86)\n"
    (finding,) = translate_cmake(source, "a/CMakeLists.txt").findings
    assert finding.code == "HIP302"
    loc = finding.location
    assert (loc.path, loc.line, loc.column, loc.end_line, loc.end_column) == (
        "a/CMakeLists.txt",
        2,
        32,
        2,
        37,
    )
    assert "80;86" in finding.message and "gfx90a;gfx942" in finding.message


def test_syntax_error_leaves_file_unchanged() -> None:
    source = b'project(app LANGUAGES CUDA\nset(X "unterminated)\n'
    result = translate_cmake(source, "CMakeLists.txt")
    assert result.output == source
    assert result.edits == []
    assert [f.code for f in result.findings] == ["HIP301"]


def test_rules_registered_with_docs() -> None:
    for code, name in (("HIP301", "cmake-untranslatable"), ("HIP302", "cmake-architecture")):
        info = RULES[code]
        assert info.name == name
        assert info.severity.value == "warning"
        assert info.why and info.example and info.fix


def test_tokenizer_shapes() -> None:
    source = b'foo(a "b c" [=[d]=] #[[x]] e(f) # g\n h)\nBar ()\n'
    first, second = parse_commands(source)
    assert first.name == "foo" and second.name == "bar"
    assert [a.raw for a in first.args] == [b"a", b'"b c"', b"[=[d]=]", b"e", b"f", b"h"]
    assert [a.kind for a in first.args[:3]] == ["unquoted", "quoted", "bracket"]
