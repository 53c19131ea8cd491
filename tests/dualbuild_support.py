"""The dual-build corpus (tests/dualbuild/): programs written, as projects that already build
for AMD write them, to compile untranslated with nvcc and, through their own compat headers
and the project macro, with hipcc. tests/test_dualbuild.py builds them both ways and gates
`hipport check` on them.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import shutil
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).parent / "dualbuild"
MANIFEST = CORPUS / "MANIFEST.toml"
NVCC_FLAGS = ("-c", "-arch=sm_80", "-std=c++17")
# Debian's HIP 5.2 has no device libraries: -nogpulib, and a syntax-only pass (host and
# device) unless the device code must go through the assembler (inline asm).
HIPCC_FLAGS = (
    "-x",
    "hip",
    "--offload-arch=gfx90a",
    "-nogpulib",
    "-Wno-unused-command-line-argument",
    "-std=c++17",
)
TIMEOUT_SECONDS = 300
MANIFEST_KEYS = {"both", "cuda", "hip", "include", "port"}
_DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):\d+: (?:fatal )?error:", re.MULTILINE)


@dataclass(frozen=True)
class Program:
    name: str
    root: Path
    cuda_sources: tuple[str, ...]
    hip_sources: tuple[str, ...]
    include: tuple[str, ...]
    defines: tuple[str, ...]  # [tool.hipport] defines: the HIP build's -D flags
    port: tuple[str, ...] = ()  # the project's own port: translate leaves these alone

    def include_flags(self) -> list[str]:
        return [f"-I{self.root / d}" for d in self.include]

    def define_flags(self) -> list[str]:
        return [f"-D{d}" for d in self.defines]


def hipport_defines(root: Path) -> tuple[str, ...]:
    """`defines` from the program's own configuration (.hipport.toml or pyproject.toml),
    read here with tomllib so the builds do not depend on hipport reading it right."""
    for name in (".hipport.toml", "pyproject.toml"):
        path = root / name
        if not path.is_file():
            continue
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        table = data.get("tool", {}).get("hipport")
        if table is None and name == ".hipport.toml":
            table = data
        if table is not None:
            return tuple(table.get("defines", ()))
    raise AssertionError(f"{root.name}: no hipport configuration")


def read_manifest() -> list[Program]:
    data = tomllib.loads(MANIFEST.read_text(encoding="utf-8"))
    programs = []
    for name, entry in data.items():
        unknown = set(entry) - MANIFEST_KEYS
        assert not unknown, f"{name}: unknown manifest keys {sorted(unknown)}"
        root = CORPUS / name
        both = tuple(entry.get("both", ()))
        programs.append(
            Program(
                name=name,
                root=root,
                cuda_sources=both + tuple(entry.get("cuda", ())),
                hip_sources=both + tuple(entry.get("hip", ())),
                include=tuple(entry.get("include", ())),
                defines=hipport_defines(root),
                port=tuple(entry.get("port", ())),
            )
        )
    return programs


@dataclass(frozen=True)
class Build:
    command: tuple[str, ...]
    cwd: Path
    returncode: int
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def source_errors(self) -> list[tuple[Path, int]]:
        """(file, line) of each error the compiler located in a source (file:line:col:
        error:), not the linker's."""
        return [
            ((self.cwd / m.group("file")).resolve(), int(m.group("line")))
            for m in _DIAGNOSTIC.finditer(self.stderr)
        ]

    def errors_at(self, path: Path) -> list[int]:
        """Lines of `path` the compiler reported an error at."""
        return [line for file, line in self.source_errors() if file == path.resolve()]

    def report(self) -> str:
        return f"$ {shlex.join(self.command)}\n{self.stderr}"


def _run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> Build:
    proc = subprocess.run(
        command,
        cwd=cwd,
        capture_output=True,
        text=True,
        errors="replace",
        env=env,
        timeout=TIMEOUT_SECONDS,
        check=False,
    )
    return Build(tuple(command), cwd, proc.returncode, proc.stderr + proc.stdout)


def nvcc_build(program: Program, source: Path, out_dir: Path, extra: tuple[str, ...] = ()) -> Build:
    command = [
        "nvcc",
        *NVCC_FLAGS,
        *extra,
        *program.include_flags(),
        "-o",
        str(out_dir / (source.stem + ".o")),
        str(source),
    ]
    return _run(command, source.parent)


def hipcc_build(program: Program, source: Path, out_dir: Path, assemble: bool = False) -> Build:
    """The HIP build of one untranslated source, with the project's defines. `assemble`
    compiles the device code to an object (the assembler then reads inline asm); the link
    of that object fails without device libraries, so only source-located errors count."""
    mode = ["--cuda-device-only", "-c", "-o", str(out_dir / (source.stem + ".o"))]
    command = [
        "hipcc",
        *HIPCC_FLAGS,
        *(mode if assemble else ["-fsyntax-only"]),
        *program.define_flags(),
        *program.include_flags(),
        str(source),
    ]
    env = {**os.environ, "HIP_PLATFORM": "amd"}  # hipcc picks nvcc when it finds CUDA
    return _run(command, source.parent, env)


DEFECTS = CORPUS / "DEFECTS.toml"
DEFECT_KEYS = {
    "name",
    "program",
    "file",
    "after",
    "code",
    "rules",
    "assemble",
    "dead-file",
    "dead-after",
    "dead-code",
    "nvcc-flags",
}


@dataclass(frozen=True)
class Defect:
    name: str
    program: str
    file: str
    after: str
    code: str
    rules: frozenset[str]
    dead_file: str
    dead_after: str
    dead_code: str
    assemble: bool = False
    nvcc_flags: tuple[str, ...] = ()


def read_defects() -> list[Defect]:
    defects = []
    for entry in tomllib.loads(DEFECTS.read_text(encoding="utf-8"))["defect"]:
        unknown = set(entry) - DEFECT_KEYS
        assert not unknown, f"{entry.get('name')}: unknown keys {sorted(unknown)}"
        defects.append(
            Defect(
                name=entry["name"],
                program=entry["program"],
                file=entry["file"],
                after=entry["after"],
                code=entry["code"],
                rules=frozenset(entry["rules"]),
                dead_file=entry.get("dead-file", entry["file"]),
                dead_after=entry["dead-after"],
                dead_code=entry["dead-code"],
                assemble=entry.get("assemble", False),
                nvcc_flags=tuple(entry.get("nvcc-flags", ())),
            )
        )
    return defects


def inject(root: Path, file: str, after: str, code: str) -> list[int]:
    """Insert `code` after the one line of `root/file` equal to `after`; returns the
    1-based numbers of the inserted lines."""
    path = root / file
    lines = path.read_text(encoding="utf-8").split("\n")
    where = [i for i, line in enumerate(lines) if line == after]
    assert len(where) == 1, f"{file}: {len(where)} lines are {after!r}"
    new = code.strip("\n").split("\n")
    lines[where[0] + 1 : where[0] + 1] = new
    path.write_text("\n".join(lines), encoding="utf-8")
    first = where[0] + 2
    return list(range(first, first + len(new)))


def program_named(name: str) -> Program:
    return next(p for p in read_manifest() if p.name == name)


def copy_program(program: Program, where: Path) -> Program:
    """The program copied under `where` (to inject defects into)."""
    root = where / program.name
    shutil.copytree(program.root, root)
    return dataclasses.replace(program, root=root)


# A replacement the compat header provides, and a use of it: without the replacement the
# use is a CUDA-only call again (tests drop it to see the HIP build and the gate fail).
REPLACEMENT = (
    "quantize",
    "src/vendors/hip.h",
    "static __device__ __forceinline__ unsigned int __vsub4(unsigned int a, unsigned int b) {\n"
    "    unsigned int r = 0;\n"
    "#pragma unroll\n"
    "    for (int i = 0; i < 4; ++i) {\n"
    "        const unsigned int d = ((a >> (8 * i)) - (b >> (8 * i))) & 0xffu;\n"
    "        r |= d << (8 * i);\n"
    "    }\n"
    "    return r;\n"
    "}\n",
    "src/quantize.cu",
    "        d[i] = __vsub4(a[i], b[i]);",
)


def drop_replacement(where: Path) -> tuple[Program, str, int]:
    """A copy of the program without the replacement: (program, file of the use, line)."""
    name, header, definition, user, use = REPLACEMENT
    program = copy_program(program_named(name), where)
    path = program.root / header
    text = path.read_text(encoding="utf-8")
    assert text.count(definition) == 1
    path.write_text(text.replace(definition, ""), encoding="utf-8")
    lines = (program.root / user).read_text(encoding="utf-8").split("\n")
    return program, user, lines.index(use) + 1
