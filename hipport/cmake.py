"""Build-file translation: CMakeLists.txt and *.cmake from CUDA to HIP.

`translate_cmake` is pure: bytes in, bytes + edits + findings out. It tokenizes CMake
(command invocations, quoted/bracket/unquoted arguments, line and bracket comments) and
edits only argument bytes it understands, so comments, prose in strings, line endings and
whitespace survive untouched. What has no clear HIP meaning is reported (HIP301, HIP302)
instead of guessed.

What it renames or reports (CMAKE_CUDA_* variables, CUDA_* properties, CUDA::<lib>
imported targets, FindCUDA's variables and commands, nvcc-only options) is data in
mappings/cmake.tsv (see mappings/README.md), read through hipport.facts.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hipport.catalogue import ARCHITECTURE, UNTRANSLATABLE
from hipport.edits import Edit, apply
from hipport.findings import Finding, Location, RuleInfo

if TYPE_CHECKING:
    from hipport.facts import CMakeVocabulary
    from hipport.mappings import Mappings

# The CMake vocabulary (variables, properties, imported targets, FindCUDA's commands, nvcc
# options) is data: mappings/cmake.tsv, read through Mappings.cmake (hipport.mappings).
PROPERTY_COMMANDS = {
    "set_target_properties",
    "set_property",
    "get_target_property",
    "get_property",
    "set_source_files_properties",
    "get_source_file_property",
}

_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_VAR_REF = re.compile(rb"\$(?:CACHE)?\{([A-Za-z0-9_]+)\}")
_LINK_TARGET = re.compile(rb"(?<![A-Za-z0-9_])(?<!::)CUDA::[A-Za-z0-9_]+")
_LANG_GENEX = re.compile(rb"\$<(?:COMPILE|LINK)_LANG(?:UAGE|_AND_ID):[^>]*\bCUDA\b[^>]*>")
_CUDA_VARIABLE = re.compile(rb"CMAKE_CUDA_[A-Za-z0-9_]+|CUDAToolkit_[A-Za-z0-9_]+")
_COMPILE_FEATURE = re.compile(rb"cuda_std_[0-9]+")


@dataclass
class CMakeResult:
    output: bytes
    edits: list[Edit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


# --------------------------------------------------------------------------- tokenizer


class CMakeSyntaxError(ValueError):
    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class Arg:
    """One argument. `start`/`end` cover the whole token (quotes included)."""

    kind: str  # "unquoted", "quoted" or "bracket"
    start: int
    end: int
    raw: bytes

    @property
    def value(self) -> bytes:
        """The text CMake sees before variable expansion (quotes stripped)."""
        return self.raw[1:-1] if self.kind == "quoted" else self.raw

    @property
    def value_start(self) -> int:
        return self.start + 1 if self.kind == "quoted" else self.start

    def is_exactly(self, text: bytes) -> bool:
        return self.kind != "bracket" and self.value == text


@dataclass(frozen=True)
class Command:
    name: str  # lower-cased: CMake command names are case-insensitive
    start: int  # first byte of the name
    end: int  # one past the closing parenthesis
    args: tuple[Arg, ...]


def _bracket_open(source: bytes, pos: int) -> int | None:
    """At `[=*[`, return the number of `=`; otherwise None."""
    if source[pos : pos + 1] != b"[":
        return None
    level = 0
    while source[pos + 1 + level : pos + 2 + level] == b"=":
        level += 1
    return level if source[pos + 1 + level : pos + 2 + level] == b"[" else None


def _skip_bracket(source: bytes, pos: int, level: int) -> int:
    close = b"]" + b"=" * level + b"]"
    end = source.find(close, pos + level + 2)
    if end < 0:
        raise CMakeSyntaxError(pos, "unterminated bracket argument or comment")
    return end + len(close)


def _skip_comment(source: bytes, pos: int) -> int:
    """`pos` is at `#`: return the offset after the comment (line end not included)."""
    level = _bracket_open(source, pos + 1)
    if level is not None:
        return _skip_bracket(source, pos + 1, level)
    end = source.find(b"\n", pos)
    if end < 0:
        return len(source)
    return end - 1 if source[end - 1 : end] == b"\r" else end


def _skip_quoted(source: bytes, pos: int) -> int:
    i = pos + 1
    while i < len(source):
        byte = source[i : i + 1]
        if byte == b"\\":
            i += 2
        elif byte == b'"':
            return i + 1
        else:
            i += 1
    raise CMakeSyntaxError(pos, "unterminated quoted argument")


def _skip_unquoted(source: bytes, pos: int) -> int:
    i = pos
    while i < len(source):
        byte = source[i : i + 1]
        if byte in b" \t\r\n()#":
            break
        if byte == b"\\":
            i += 2
        elif byte == b'"':  # legacy form: -DX="a b" is one argument
            i = _skip_quoted(source, i)
        else:
            i += 1
    return i


def _parse_args(source: bytes, pos: int) -> tuple[list[Arg], int]:
    """`pos` is just after `(`: return the arguments and the offset after the closing `)`."""
    args: list[Arg] = []
    depth = 1
    i = pos
    while i < len(source):
        byte = source[i : i + 1]
        if byte in b" \t\r\n":
            i += 1
        elif byte == b"#":
            i = _skip_comment(source, i)
        elif byte == b"(":
            depth += 1
            i += 1
        elif byte == b")":
            depth -= 1
            i += 1
            if depth == 0:
                return args, i
        else:
            level = _bracket_open(source, i)
            if byte == b'"':
                kind, end = "quoted", _skip_quoted(source, i)
            elif level is not None:
                kind, end = "bracket", _skip_bracket(source, i, level)
            else:
                kind, end = "unquoted", _skip_unquoted(source, i)
            args.append(Arg(kind, i, end, source[i:end]))
            i = end
    raise CMakeSyntaxError(pos - 1, "unbalanced parentheses in command arguments")


def parse_commands(source: bytes) -> list[Command]:
    """Tokenize a CMake file into its command invocations; raise CMakeSyntaxError."""
    commands: list[Command] = []
    i = 0
    while i < len(source):
        byte = source[i : i + 1]
        if byte in b" \t\r\n":
            i += 1
            continue
        if byte == b"#":
            i = _skip_comment(source, i)
            continue
        match = _WORD.match(source, i)
        if not match:
            raise CMakeSyntaxError(i, f"unexpected byte {byte!r} outside a command")
        j = match.end()
        while source[j : j + 1] in (b" ", b"\t"):
            j += 1
        if source[j : j + 1] != b"(":
            raise CMakeSyntaxError(i, "command name not followed by '('")
        args, end = _parse_args(source, j + 1)
        name = match.group().decode("ascii").lower()
        commands.append(Command(name, i, end, tuple(args)))
        i = end
    return commands


# --------------------------------------------------------------------------- context


@dataclass
class _Context:
    source: bytes
    path: str
    commands: list[Command]
    vocab: CMakeVocabulary
    edits: list[Edit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._line_starts = [0] + [m.end() for m in re.finditer(rb"\n", self.source)]

    def location(self, start: int, end: int) -> Location:
        line, col = self._line_col(start)
        end_line, end_col = self._line_col(end)
        return Location(self.path, line, col, end_line, end_col)

    def _line_col(self, offset: int) -> tuple[int, int]:
        index = bisect.bisect_right(self._line_starts, offset) - 1
        return index + 1, offset - self._line_starts[index] + 1

    def replace(self, start: int, end: int, new: bytes, rule: str) -> None:
        self.edits.append(Edit(start, end, new, rule, self.source[start:end]))

    def report(self, info: RuleInfo, start: int, end: int, message: str, **hints: str) -> None:
        location = self.location(start, end)
        self.findings.append(Finding(info.code, info.severity, message, location, **hints))

    def line_end(self, offset: int) -> int:
        """Offset of the line ending (or end of file) of the line holding `offset`."""
        end = self.source.find(b"\n", offset)
        if end < 0:
            return len(self.source)
        return end - 1 if self.source[end - 1 : end] == b"\r" else end

    def eol(self, offset: int) -> bytes:
        """The line ending used at `offset`'s line, or the file's if that line has none."""
        end = self.source.find(b"\n", offset)
        if end >= 0:
            return b"\r\n" if self.source[end - 1 : end] == b"\r" else b"\n"
        return b"\r\n" if b"\r\n" in self.source else b"\n"

    def indent(self, offset: int) -> bytes:
        start = self.source.rfind(b"\n", 0, offset) + 1
        prefix = self.source[start:offset]
        return prefix if prefix.strip(b" \t") == b"" else b""

    def add_lines_after(self, command: Command, lines: list[bytes], rule: str) -> None:
        """Insert whole lines after the line that ends `command`, at its indentation."""
        if not lines:
            return
        at = self.line_end(command.end)
        eol, indent = self.eol(command.end), self.indent(command.start)
        new = b"".join(eol + indent + line.replace(b"\n", eol + indent) for line in lines)
        self.edits.append(Edit(at, at, new, rule, b""))


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _span(args: tuple[Arg, ...] | list[Arg]) -> tuple[int, int]:
    return args[0].start, args[-1].end


# --------------------------------------------------------------------------- rules


def _languages(ctx: _Context) -> bool:
    """project(... LANGUAGES CUDA) and enable_language(CUDA) -> HIP. True if any changed."""
    changed = False
    for command in ctx.commands:
        if command.name == "project":
            languages = _project_languages(command.args)
        elif command.name == "enable_language":
            languages = [a for a in command.args if not a.is_exactly(b"OPTIONAL")]
        else:
            continue
        has_hip = any(a.is_exactly(b"HIP") for a in languages)
        for arg in languages:
            if not arg.is_exactly(b"CUDA"):
                continue
            changed = True
            if has_hip:  # already listed: drop CUDA and the blanks before it
                ctx.replace(_blank_before(ctx.source, arg.start), arg.end, b"", "cmake-language")
            else:
                ctx.replace(arg.value_start, arg.value_start + 4, b"HIP", "cmake-language")
    return changed


_PROJECT_KEYWORDS = {b"VERSION", b"DESCRIPTION", b"HOMEPAGE_URL", b"LANGUAGES"}


def _project_languages(args: tuple[Arg, ...]) -> list[Arg]:
    rest = list(args[1:])
    keywords = [i for i, a in enumerate(rest) if a.value in _PROJECT_KEYWORDS]
    if not keywords:
        return rest  # project(name CXX CUDA): the short form lists languages only
    languages: list[Arg] = []
    inside = False
    for arg in rest:
        if arg.value in _PROJECT_KEYWORDS:
            inside = arg.value == b"LANGUAGES"
        elif inside:
            languages.append(arg)
    return languages


def _blank_before(source: bytes, start: int) -> int:
    while start > 0 and source[start - 1 : start] in (b" ", b"\t"):
        start -= 1
    return start


def _minimum_version(ctx: _Context) -> None:
    """HIP as a language needs CMake 3.21: report an older minimum (raising it moves policies)."""
    for command in ctx.commands:
        if command.name != "cmake_minimum_required" or len(command.args) < 2:
            continue
        version = command.args[1]
        numbers = re.match(rb"(\d+)\.(\d+)", version.value)
        if numbers and (int(numbers[1]), int(numbers[2])) < ctx.vocab.hip_min_cmake:
            ctx.report(
                UNTRANSLATABLE,
                version.start,
                version.end,
                f"CMake's HIP language needs CMake 3.21; this file requires only "
                f"{_text(version.value)}",
                hint="raise cmake_minimum_required to 3.21 after checking the policy changes",
            )


def _is_prose(command: Command) -> bool:
    return command.name == "message"


def _variables(ctx: _Context) -> None:
    """Rename CMAKE_CUDA_* variables with a HIP twin; report the others and FindCUDA's."""
    for command in ctx.commands:
        if command.name == "find_package" and command.args and command.args[0].value == b"CUDA":
            continue  # reported as a whole by _packages
        for arg in command.args:
            if arg.kind == "bracket":
                continue
            exact = not _is_prose(command)
            if (
                exact
                and command.name not in PROPERTY_COMMANDS
                and _text(arg.value) in ctx.vocab.legacy_variables
            ):
                _report_variable(ctx, arg.value, arg.value_start, arg.end)
                continue
            if exact and _CUDA_VARIABLE.fullmatch(arg.value):
                _variable(ctx, arg.value, arg.value_start, arg.value_start + len(arg.value))
                continue
            for ref in _VAR_REF.finditer(arg.value):
                name = ref.group(1)
                start = arg.value_start + ref.start(1)
                if _CUDA_VARIABLE.fullmatch(name):
                    _variable(ctx, name, start, start + len(name))
                elif name in ctx.vocab.legacy_variables:
                    _report_variable(ctx, name, start, start + len(name))
        _architecture_values(ctx, command)
        _nvcc_flags(ctx, command)


def _variable(ctx: _Context, name: bytes, start: int, end: int) -> None:
    hip = ctx.vocab.variables.get(_text(name))
    if hip is not None:
        ctx.replace(start, end, hip.encode(), "cmake-variable")
    else:
        _report_variable(ctx, name, start, end)


def _report_variable(ctx: _Context, name: bytes, start: int, end: int) -> None:
    text = _text(name)
    if text.startswith("CUDAToolkit_"):
        why = "find_package(CUDAToolkit) becomes find_package(hip), which does not set it"
        hint = "use hip_* results (hip_FOUND, hip_VERSION) or drop the check"
    elif text in ctx.vocab.legacy_variables:
        why = "it belongs to the legacy FindCUDA module"
        hint = "port to CMake's HIP language and imported targets"
    else:
        why = ctx.vocab.variable_hints.get(text, "CMake has no HIP twin for it")
        hint = "decide the HIP equivalent by hand"
    ctx.report(UNTRANSLATABLE, start, end, f"{text} not translated: {why}", api=text, hint=hint)


def _set_values(command: Command) -> tuple[bytes, list[Arg]]:
    """For set()/list(APPEND): the variable name and its value arguments."""
    args = list(command.args)
    if command.name == "list" and len(args) >= 2 and args[0].value == b"APPEND":
        args = args[1:]
    elif command.name == "string" and len(args) >= 2 and args[0].value == b"APPEND":
        args = args[1:]
    elif command.name != "set" or not args:
        return b"", []
    values: list[Arg] = []
    for arg in args[1:]:
        if arg.kind == "unquoted" and arg.value in (b"CACHE", b"PARENT_SCOPE"):
            break
        values.append(arg)
    return args[0].value, values


def _architecture_values(ctx: _Context, command: Command) -> None:
    name, values = _set_values(command)
    if name in (b"CMAKE_CUDA_ARCHITECTURES", b"CMAKE_HIP_ARCHITECTURES"):
        _check_architectures(ctx, values)


def _check_architectures(ctx: _Context, values: list[Arg]) -> None:
    """Report values that are not gfx targets; variable references are left to their source."""
    items = [
        item
        for arg in values
        if not re.fullmatch(rb"\$\{[A-Za-z0-9_]+\}", arg.value)
        for item in arg.value.split(b";")
        if item and not item.startswith(b"gfx")
    ]
    if not items:
        return
    shown = ";".join(_text(i) for i in items)
    start, end = _span(values)
    ctx.report(
        ARCHITECTURE,
        start,
        end,
        f"CUDA architecture {shown!r} kept as a HIP architecture: AMD GPUs need gfx targets, "
        f"e.g. {ctx.vocab.architecture_suggestion}",
        hint=f"set it to AMD targets such as {ctx.vocab.architecture_suggestion}",
    )


def _nvcc_flags(ctx: _Context, command: Command) -> None:
    name, values = _set_values(command)
    if _text(name) not in ctx.vocab.flag_variables:
        return
    for arg in values:
        if arg.kind == "bracket":
            continue
        for word in re.split(rb"[\s;]+", arg.value):
            flag = _text(word)
            if any(flag == f or flag.startswith((f + "=", f + " ")) for f in ctx.vocab.nvcc_flags):
                ctx.report(
                    UNTRANSLATABLE,
                    arg.start,
                    arg.end,
                    f"nvcc option {flag} moves to CMAKE_HIP_FLAGS, where clang does not accept it",
                    api=flag,
                    hint="replace it with the clang/hipcc option or remove it",
                )


def _properties(ctx: _Context) -> None:
    """CUDA_* target properties with a HIP twin are renamed; LANGUAGE CUDA becomes HIP."""
    vocab = ctx.vocab
    for command in ctx.commands:
        if command.name not in PROPERTY_COMMANDS:
            continue
        args = command.args
        for index, arg in enumerate(args):
            name = _text(arg.value) if arg.kind != "bracket" else ""
            if name in vocab.properties:
                end = arg.value_start + len(arg.value)
                ctx.replace(
                    arg.value_start,
                    end,
                    vocab.properties[name].encode(),
                    "cmake-property",
                )
                if name == "CUDA_ARCHITECTURES":
                    _check_architectures(ctx, _property_values(command, index))
            elif name in vocab.property_hints:
                ctx.report(
                    UNTRANSLATABLE,
                    arg.start,
                    arg.end,
                    f"property {name} has no HIP meaning",
                    api=name,
                    hint=vocab.property_hints[name],
                )
            elif name in ("LANGUAGE", "LINKER_LANGUAGE") and index + 1 < len(args):
                value = args[index + 1]
                if value.is_exactly(b"CUDA"):
                    ctx.replace(value.value_start, value.value_start + 4, b"HIP", "cmake-property")


def _property_values(command: Command, index: int) -> list[Arg]:
    rest = list(command.args[index + 1 :])
    if command.name == "set_target_properties":
        return rest[:1]  # PROPERTIES name value name value ...
    return rest


def _compile_features(ctx: _Context) -> None:
    for command in ctx.commands:
        if command.name != "target_compile_features":
            continue
        for arg in command.args:
            if arg.kind != "bracket" and _COMPILE_FEATURE.fullmatch(arg.value):
                ctx.replace(arg.value_start, arg.value_start + 4, b"hip", "cmake-compile-feature")


def _link_targets(ctx: _Context) -> dict[str, tuple[int, int]]:
    """CUDA::<lib> -> HIP imported targets; return the HIP packages needed, at first use."""
    packages: dict[str, tuple[int, int]] = {}
    for command in ctx.commands:
        if _is_prose(command):
            continue
        for arg in command.args:
            if arg.kind == "unquoted":
                matches = [(m.start(), m.group()) for m in _LINK_TARGET.finditer(arg.value)]
            elif arg.kind == "quoted" and _LINK_TARGET.fullmatch(arg.value):
                matches = [(0, arg.value)]
            else:
                if arg.kind == "quoted" and b"CUDA::" in arg.value:
                    ctx.report(
                        UNTRANSLATABLE,
                        arg.start,
                        arg.end,
                        "CUDA:: target inside a longer string is not translated",
                        hint="split the string into separate arguments, or rename by hand",
                    )
                continue
            for offset, target in matches:
                start = arg.value_start + offset
                _link_target(ctx, _text(target), start, start + len(target), packages)
    return packages


def _link_target(
    ctx: _Context, target: str, start: int, end: int, packages: dict[str, tuple[int, int]]
) -> None:
    vocab = ctx.vocab
    if target in vocab.link_targets:
        hip, package = vocab.link_targets[target]
        ctx.replace(start, end, hip.encode(), "cmake-link-target")
        if package:
            packages.setdefault(package, (start, end))
        return
    hint = vocab.link_hints.get(target)
    if (
        hint is None
        and target.endswith("_static")
        and target[: -len("_static")] in vocab.link_targets
    ):
        shared = vocab.link_targets[target[: -len("_static")]][0]
        hint = f"ROCm ships this library shared: link {shared}"
    ctx.report(
        UNTRANSLATABLE,
        start,
        end,
        f"{target} has no HIP imported target",
        api=target,
        hint=hint or "find the ROCm library that replaces it and link it by hand",
    )


def _packages(ctx: _Context, libraries: dict[str, tuple[int, int]]) -> None:
    """find_package(CUDAToolkit) -> find_package(hip) plus one find_package per HIP library."""
    found = {_text(c.args[0].value) for c in ctx.commands if c.name == "find_package" and c.args}
    toolkit = [c for c in ctx.commands if c.name == "find_package" and _first_is(c, b"CUDAToolkit")]
    for command in toolkit:
        _replace_toolkit(ctx, command)
    missing = [lib for lib in libraries if lib not in found]
    if toolkit:
        mode = b"".join(
            b" " + a.value for a in toolkit[0].args if a.value in (b"REQUIRED", b"QUIET")
        )
        lines = [b"find_package(" + lib.encode() + mode + b")" for lib in missing]
        ctx.add_lines_after(toolkit[0], lines, "cmake-package")
    for lib in missing if not toolkit else []:
        start, end = libraries[lib]
        ctx.report(
            UNTRANSLATABLE,
            start,
            end,
            f"find_package({lib}) is needed for this target, and this file has no "
            "find_package(CUDAToolkit) to put it after",
            hint=f"add find_package({lib} REQUIRED) here or in a parent directory",
        )
    for command in ctx.commands:
        if command.name == "find_package" and _first_is(command, b"CUDA"):
            ctx.report(
                UNTRANSLATABLE,
                command.start,
                command.end,
                "legacy FindCUDA (find_package(CUDA)) is not translated",
                hint="port to enable_language(HIP) and find_package(hip)",
            )
        elif command.name in ctx.vocab.legacy_commands:
            ctx.report(
                UNTRANSLATABLE,
                command.start,
                command.start + len(command.name),
                f"FindCUDA command {command.name}() is not translated",
                api=command.name,
                hint="use add_executable/add_library with .cu files set to LANGUAGE HIP",
            )
        elif command.name == "check_language" and _first_is(command, b"CUDA"):
            arg = command.args[0]
            ctx.report(
                UNTRANSLATABLE,
                arg.start,
                arg.end,
                "check_language(CUDA) sets CMAKE_CUDA_COMPILER, which has no HIP rename",
                hint="use check_language(HIP) and test CMAKE_HIP_COMPILER",
            )


def _first_is(command: Command, name: bytes) -> bool:
    return bool(command.args) and command.args[0].is_exactly(name)


def _replace_toolkit(ctx: _Context, command: Command) -> None:
    """Keep REQUIRED/QUIET; drop the CUDA version and other CUDAToolkit-only arguments."""
    first = command.args[0]
    ctx.replace(first.value_start, first.value_start + len(first.value), b"hip", "cmake-package")
    for arg in command.args[1:]:
        if arg.value in (b"REQUIRED", b"QUIET"):
            continue
        start = _blank_before(ctx.source, arg.start)
        ctx.replace(start, arg.end, b"", "cmake-package")


_SOURCE_COMMANDS = {"add_executable", "add_library", "target_sources", "set", "list"}


def _sources(ctx: _Context) -> None:
    """.cu sources compile as HIP: add set_source_files_properties(... LANGUAGE HIP)."""
    covered = _hip_language_sources(ctx.commands)
    for command in ctx.commands:
        if command.name == "file":
            _report_glob(ctx, command)
            continue
        files = [a.raw for a in _listed_sources(command) if a.raw not in covered]
        files = list(dict.fromkeys(files))
        covered.update(files)
        if files:
            ctx.add_lines_after(command, [_source_properties(ctx, command, files)], "cmake-source")


def _listed_sources(command: Command) -> list[Arg]:
    args = command.args
    if command.name not in _SOURCE_COMMANDS or len(args) < 2:
        return []
    if command.name in ("add_executable", "add_library"):
        if any(a.value in (b"IMPORTED", b"ALIAS") for a in args[1:3]):
            return []
    if command.name == "list" and args[0].value != b"APPEND":
        return []
    return [a for a in args[1:] if _is_cu_file(a)]


def _is_cu_file(arg: Arg) -> bool:
    value = arg.value
    return (
        arg.kind != "bracket"
        and value.endswith(b".cu")
        and b"$<" not in value
        and b";" not in value
    )


def _hip_language_sources(commands: list[Command]) -> set[bytes]:
    """Sources already given LANGUAGE CUDA or HIP, so a second run adds nothing."""
    covered: set[bytes] = set()
    for command in commands:
        values = [a.value for a in command.args]
        language = b"LANGUAGE" in values and values.index(b"LANGUAGE") + 1 < len(values)
        if not language or values[values.index(b"LANGUAGE") + 1] not in (b"CUDA", b"HIP"):
            continue
        if command.name == "set_source_files_properties" and b"PROPERTIES" in values:
            covered.update(a.raw for a in command.args[: values.index(b"PROPERTIES")])
        elif command.name == "set_property" and values[:1] == [b"SOURCE"]:
            stop = next((i for i, v in enumerate(values) if v in (b"PROPERTY", b"DIRECTORY")), 0)
            covered.update(a.raw for a in command.args[1:stop])
    return covered


def _source_properties(ctx: _Context, command: Command, files: list[bytes]) -> bytes:
    one_line = b"set_source_files_properties(" + b" ".join(files) + b" PROPERTIES LANGUAGE HIP)"
    if len(ctx.indent(command.start)) + len(one_line) <= 100:
        return one_line
    body = b"".join(b"\n  " + f for f in files)
    return b"set_source_files_properties(" + body + b"\n  PROPERTIES LANGUAGE HIP)"


def _report_glob(ctx: _Context, command: Command) -> None:
    args = command.args
    if not args or args[0].value not in (b"GLOB", b"GLOB_RECURSE"):
        return
    patterns = [a for a in args[2:] if a.value.endswith(b".cu")]
    if patterns and len(args) > 1:
        var = _text(args[1].value)
        start, end = _span(patterns)
        ctx.report(
            UNTRANSLATABLE,
            start,
            end,
            "globbed .cu sources still compile as CUDA",
            hint=f"add set_source_files_properties(${{{var}}} PROPERTIES LANGUAGE HIP)",
        )


def _language_generators(ctx: _Context) -> None:
    """$<COMPILE_LANGUAGE:CUDA> guards nvcc options: renaming it would pass them to clang."""
    for command in ctx.commands:
        for arg in command.args:
            if arg.kind == "bracket":
                continue
            for match in _LANG_GENEX.finditer(arg.value):
                start = arg.value_start + match.start()
                ctx.report(
                    UNTRANSLATABLE,
                    start,
                    arg.value_start + match.end(),
                    f"{_text(match.group())} selects nvcc options; not translated",
                    hint="write the clang options under $<COMPILE_LANGUAGE:HIP>",
                )


# --------------------------------------------------------------------------- driver


def translate_cmake(source: bytes, path: str, mappings: Mappings | None = None) -> CMakeResult:
    """Translate one CMakeLists.txt or *.cmake file from CUDA to HIP (pure). `mappings`:
    the run's (its CMake vocabulary); None: the package's mappings/."""
    if mappings is None:
        from hipport.mappings import load_mappings

        mappings = load_mappings()
    try:
        commands = parse_commands(source)
    except CMakeSyntaxError as error:
        ctx = _Context(source, path, [], mappings.cmake)
        ctx.report(
            UNTRANSLATABLE,
            error.offset,
            error.offset,
            f"not translated: CMake syntax error ({error})",
            hint="fix the syntax so CMake itself can read the file",
        )
        return CMakeResult(source, [], ctx.findings)
    ctx = _Context(source, path, commands, mappings.cmake)
    if _languages(ctx):
        _minimum_version(ctx)
    _variables(ctx)
    _properties(ctx)
    _compile_features(ctx)
    _packages(ctx, _link_targets(ctx))
    _sources(ctx)
    _language_generators(ctx)
    output = apply(source, ctx.edits)
    ctx.findings.sort(key=lambda f: (f.location.line, f.location.column, f.code))
    return CMakeResult(output, sorted(ctx.edits), ctx.findings)
