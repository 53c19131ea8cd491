"""The HIP build's preprocessor, as far as conditionals go: which #if/#elif/#else arms hipcc
compiles for the target (*live*), never compiles (*dead*), or may compile depending on
macros hipport does not know (*undecided*), and why.

What it knows before a file's first line (`Build`): the HIP compiler's predefined macros
for the target release (mappings/hip_predefined_macros.tsv: defined, undefined, or only
on the device pass), then the project's macros (`[tool.hipport] defines`, -D/-U on the
command line, a file's -D/-U in compile_commands.json), in that order. While it walks the
file it follows the file's own #define/#undef (and, through `include`, the project's
headers): a macro the project #defines somewhere it reads is undefined until a compiled
#define defines it, so a feature macro defined only in a dead arm is undefined and every
arm testing it is dead. Any other name is unknown: a condition that depends on it is
undecided. The host and device passes (and a version number this file has no value for)
are walked separately: an arm is live when some pass compiles it, dead when none does.

Pure: directives in, verdicts out; no files (the caller hands headers in).
"""

from __future__ import annotations

import posixpath
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from itertools import product

from hipport.facts import HipMacros, PredefinedMacro


class Verdict(StrEnum):
    LIVE = "live"
    DEAD = "dead"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class Macro:
    """What is known of one macro: defined (with its body) or not, and where that came
    from (for --show-branches)."""

    defined: bool
    body: tuple[str, ...] = ()
    function_like: bool = False
    origin: str = ""


UNKNOWN = Macro(False, origin="unknown")  # neither defined nor undefined as far as we know
PROJECT_UNDEFINED = Macro(False, origin="undefined: no compiled #define of it before")


class Env(dict[str, Macro]):
    """Macro name -> what is known of it. A name not in it is unknown, unless the project
    #defines it somewhere the model reads (`project`): undefined until a compiled #define."""

    project: frozenset[str] | set[str] = frozenset()

    def macro(self, name: str) -> Macro:
        found = self.get(name)
        if found is not None:
            return found
        return PROJECT_UNDEFINED if name in self.project else UNKNOWN


@dataclass(frozen=True)
class PPDirective:
    """One directive as the model reads it: its name, the words after the name (comments
    dropped) and the byte range of its line(s)."""

    name: str
    words: tuple[str, ...]
    start: int
    end: int
    line: int = 0  # 1-based line, for reasons and --show-branches (0: not known)
    function_like: bool = False  # a #define whose name is followed at once by "("


@dataclass(frozen=True)
class Arm:
    directive: PPDirective
    verdict: Verdict
    body: tuple[int, int]  # byte range of the arm's code: [after its directive, the next one)
    macros: tuple[tuple[str, str], ...]  # (name, what is known of it) its chain has tested
    chain: int  # index of its #if chain in the file (arms of one chain share it)
    enclosing: int  # index of the arm it sits in (-1: none)

    @property
    def deciding(self) -> tuple[str, ...]:
        """The macros of known value its verdict rests on."""
        return tuple(n for n, origin in self.macros if origin != UNKNOWN.origin)

    @property
    def unknown(self) -> tuple[str, ...]:
        """The macros of unknown value its condition (or an earlier arm's) tests."""
        return tuple(n for n, origin in self.macros if origin == UNKNOWN.origin)


@dataclass(frozen=True)
class Conditionals:
    arms: tuple[Arm, ...] = ()
    dead: tuple[tuple[int, int], ...] = ()  # sorted, disjoint byte ranges no pass compiles
    undecided: tuple[tuple[int, int], ...] = ()  # sorted byte ranges of undecided arms
    includes: tuple[tuple[str, bool], ...] = ()  # (spelling, angle) of compiled #includes
    defines: tuple[str, ...] = ()  # macros compiled #defines define (live or undecided)
    reached: frozenset[str] = frozenset()  # project headers compiled (ProjectHeaders keys)
    # names the HIP build's own code defines here and in the headers it reaches: macros
    # #defined in compiled code, and every name a reached header already written for HIP
    # defines (the project's replacements: no finding and no rename on them)
    own_names: frozenset[str] = frozenset()

    def is_dead(self, offset: int) -> bool:
        return _inside(self.dead, offset)

    def undecided_arm(self, offset: int) -> Arm | None:
        """The innermost undecided arm holding the byte at `offset` (None: not in one)."""
        if not _inside(self.undecided, offset):
            return None
        found = None
        for arm in self.arms:
            if arm.verdict is Verdict.UNDECIDED and arm.body[0] <= offset < arm.body[1]:
                found = arm
        return found


def _inside(ranges: tuple[tuple[int, int], ...], offset: int) -> bool:
    k = bisect_right(ranges, (offset, 1 << 62)) - 1
    return k >= 0 and ranges[k][0] <= offset < ranges[k][1]


# --- the HIP compiler's macros (mappings/hip_predefined_macros.tsv, Mappings.hip_macros) ----


def _package_macros() -> HipMacros:
    """The HIP compiler's macros of the package's mappings (a Build made without a run's)."""
    from hipport.mappings import load_mappings

    return load_mappings().hip_macros


RENAMED_BY_TRANSLATE = {"__CUDACC__": "__HIPCC__"}  # driver.tsv's one renamed macro


@dataclass(frozen=True)
class Build:
    """The HIP build a file is seen under: the target release, the project's -D/-U (in
    order: config, command line, compilation database), and how nvcc's macros read."""

    rocm: tuple[int, int] | None = None  # (major, minor); None: the version macros unknown
    defines: tuple[str, ...] = ()  # "-DNAME", "-DNAME=VALUE", "-UNAME"
    # check: nvcc's macros are undefined, __CUDACC__ reads as translate's __HIPCC__;
    # "hip": a file already written for HIP (nothing renamed: __CUDACC__ undefined too);
    # "translate": nvcc's macros unknown (translate renames inside arms a fix can revive);
    # "cuda": the project's CUDA build (nvcc): HIP's macros undefined, __CUDACC__ and
    # __NVCC__ defined, nvcc's other macros unknown (see cuda_build)
    view: str = "check"
    # the HIP compiler's macros per release: the run's (ctx.mappings.hip_macros)
    macros: HipMacros = field(default_factory=_package_macros, repr=False)

    def worlds(self) -> list[tuple[str, Env]]:
        """The passes (host, device) and alternatives to walk, each with its macros (the
        same lists for the same build: callers copy an Env before changing it)."""
        return _worlds(self)

    def _worlds(self) -> list[tuple[str, Env]]:
        rows = self.macros.rows_for(self.rocm)
        worlds: list[tuple[str, Env]] = []
        alternatives = _alternatives(rows)
        for pass_name in ("host", "device"):
            for alt in alternatives:
                env = self._env(rows, pass_name, alt)
                worlds.append((pass_name, env))
        return worlds

    def _env(self, rows: dict[str, PredefinedMacro], pass_name: str, alt: dict[str, str]) -> Env:
        env = Env()
        for name, row in rows.items():
            env[name] = self._predefined(row, pass_name, alt.get(name))
        for name, target in RENAMED_BY_TRANSLATE.items():
            if self.view == "check" and target in env:
                env[name] = Macro(
                    env[target].defined,
                    env[target].body,
                    origin=f"read as {target}: translate renames it",
                )
        for flag in self.defines:
            name, macro = parse_define(flag)
            if name:
                env[name] = macro
        return env

    def _predefined(self, row: PredefinedMacro, pass_name: str, alt: str | None) -> Macro:
        if self.view == "cuda":
            if row.macro in _NVCC_DEFINED:
                return Macro(True, ("1",), origin="defined by nvcc")
            if row.macro in self.macros.nvcc:
                return UNKNOWN
            return Macro(False, origin="not defined by nvcc")
        if row.passes == "unknown" or (self.view == "translate" and row.macro in self.macros.nvcc):
            return UNKNOWN
        if row.passes == "none" or (row.passes == "device" and pass_name != "device"):
            return Macro(False, origin="not defined by hipcc")
        value = alt if alt is not None else row.value
        if "{" in value:
            if self.rocm is None:
                return UNKNOWN
            value = value.format(major=self.rocm[0], minor=self.rocm[1])
        origin = "predefined by hipcc" if row.passes == "both" else "defined on the device pass"
        shown = " ".join(value.split())  # an empty body (__HIP_PLATFORM_AMD__): no "()"
        origin = f"{origin} ({shown})" if shown else origin
        return Macro(True, tuple(words_of(value)), origin=origin)


_NVCC_DEFINED = frozenset({"__CUDACC__", "__NVCC__"})  # on both of nvcc's passes


def cuda_build(build: Build, switches: Sequence[str]) -> Build:
    """The project's CUDA build beside its HIP build `build`: nvcc's view of the macros,
    and the project's switches for its HIP build (`switches`: the configuration's and the
    command line's -DNAME without a value, MYPROJ_USE_HIP) undefined; a macro given a
    value, or taken from compile_commands.json (-DNDEBUG), is unknown there."""
    flags = tuple(f"-U{f[2:]}" for f in switches if f.startswith("-D") and "=" not in f)
    return replace(build, defines=flags, view="cuda")


def hip_only(hip: Conditionals, cuda: Conditionals) -> tuple[tuple[int, int], ...]:
    """The byte ranges of the arms only the HIP build may compile: not dead under the HIP
    build, dead under the CUDA build (the same file's arms under the two builds)."""
    if len(hip.arms) != len(cuda.arms):
        return ()
    return _merge(
        [
            h.body
            for h, c in zip(hip.arms, cuda.arms, strict=True)
            if h.verdict is not Verdict.DEAD and c.verdict is Verdict.DEAD
        ]
    )


@lru_cache(maxsize=64)
def _worlds(build: Build) -> list[tuple[str, Env]]:
    return build._worlds()


def _alternatives(rows: dict[str, PredefinedMacro]) -> list[dict[str, str]]:
    varying = {name: row.value.split("|") for name, row in rows.items() if "|" in row.value}
    if not varying:
        return [{}]
    names = sorted(varying)
    return [dict(zip(names, combo, strict=True)) for combo in product(*(varying[n] for n in names))]


def parse_define(flag: str, origin: str = "") -> tuple[str, Macro]:
    """-DNAME / -DNAME=VALUE / -UNAME (or NAME / NAME=VALUE as in the config) -> the macro."""
    text = flag.strip()
    if text.startswith("-U"):
        name = text[2:].strip()
        if not _NAME.match(name):
            return "", UNKNOWN
        return name, Macro(False, origin=origin or f"-U{name}")
    if text.startswith("-D"):
        text = text[2:].strip()
    name, eq, value = text.partition("=")
    name = name.strip()
    if not _NAME.match(name):
        return "", UNKNOWN
    body = tuple(words_of(value)) if eq else ("1",)
    return name, Macro(True, body, origin=origin or f"-D{text}")


_NAME = re.compile(r"[A-Za-z_]\w*\Z")
_WORD = re.compile(
    r"\s*(0[xX][0-9a-fA-F]+\w*|\d\w*|[A-Za-z_]\w*|'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|"
    r"<<|>>|<=|>=|==|!=|&&|\|\||.)"
)


def words_of(text: str) -> list[str]:
    """A macro value as preprocessor tokens (enough of them for conditions)."""
    return [w for w in _WORD.findall(text.strip()) if not w.isspace()]


# --- conditions -------------------------------------------------------------------------------


class _Unreadable(Exception):
    pass


_INT = re.compile(r"(0[xX][0-9a-fA-F]+|0[bB][01]+|\d+)([uUlLzZ]*)\Z")
_HAS = frozenset(
    {
        "__has_include",
        "__has_include_next",
        "__has_builtin",
        "__has_attribute",
        "__has_cpp_attribute",
        "__has_feature",
        "__has_extension",
        "__has_declspec_attribute",
        "__has_c_attribute",
        "__building_module",
    }
)
_BINARY: dict[str, int] = {
    "||": 1,
    "&&": 2,
    "|": 3,
    "^": 4,
    "&": 5,
    "==": 6,
    "!=": 6,
    "<": 7,
    ">": 7,
    "<=": 7,
    ">=": 7,
    "<<": 8,
    ">>": 8,
    "+": 9,
    "-": 9,
    "*": 10,
    "/": 10,
    "%": 10,
}


def evaluate(words: Sequence[str], env: dict[str, Macro]) -> int | None:
    """The value of a #if condition (words: its tokens) with the macros of `env`; None when
    it depends on a macro of unknown value (or is not a condition this reads). A name not
    in `env` is unknown; one in it as undefined reads as 0, as the preprocessor does."""
    if not isinstance(env, Env):
        env = Env(env)
    try:
        parser = _Parser(list(words), env, 0)
        value = parser.expression(0)
        if parser.i != len(parser.words):
            raise _Unreadable
        return value
    except (_Unreadable, RecursionError):
        return None


class _Parser:
    """Precedence climbing over integers; None is an unknown value. && || ?: and * by 0
    short-circuit an unknown operand as C would short-circuit evaluation."""

    def __init__(self, words: list[str], env: Env, depth: int) -> None:
        self.words, self.env, self.depth, self.i = words, env, depth, 0

    def peek(self) -> str | None:
        return self.words[self.i] if self.i < len(self.words) else None

    def take(self) -> str:
        if self.i >= len(self.words):
            raise _Unreadable
        self.i += 1
        return self.words[self.i - 1]

    def expression(self, min_prec: int) -> int | None:
        left = self.unary()
        while True:
            op = self.peek()
            if op == "?" and min_prec == 0:
                self.i += 1
                then = self.expression(0)
                if self.take() != ":":
                    raise _Unreadable
                other = self.expression(0)
                if left is None:
                    left = then if then == other else None
                else:
                    left = then if left else other
                continue
            prec = _BINARY.get(op or "")
            if prec is None or prec < min_prec:
                return left
            self.i += 1
            right = self.expression(prec + 1)
            left = _binary(op or "", left, right)

    def unary(self) -> int | None:
        word = self.take()
        if word in ("!", "~", "-", "+"):
            value = self.unary()
            if value is None:
                return None
            return {"!": int(not value), "~": ~value, "-": -value, "+": value}[word]
        if word == "(":
            value = self.expression(0)
            if self.take() != ")":
                raise _Unreadable
            return value
        if word == "defined":
            return self.defined()
        if word in _HAS:
            self.skip_call()
            return None
        return self.primary(word)

    def defined(self) -> int | None:
        word = self.take()
        paren = word == "("
        if paren:
            word = self.take()
        if not _NAME.match(word):
            raise _Unreadable
        if paren and self.take() != ")":
            raise _Unreadable
        macro = self.env.macro(word)
        if macro is UNKNOWN:
            return None
        return int(macro.defined)

    def skip_call(self) -> None:
        if self.peek() != "(":
            return
        depth = 0
        while True:
            word = self.take()
            depth += {"(": 1, ")": -1}.get(word, 0)
            if depth == 0:
                return

    def primary(self, word: str) -> int | None:
        number = _int(word)
        if number is not None:
            return number
        if word[:1] == "'" or word[:2] in ("L'", "u'", "U'"):
            return _char(word)
        if not _NAME.match(word):
            raise _Unreadable
        if word in ("true", "false"):
            return int(word == "true")
        macro = self.env.macro(word)
        if macro is UNKNOWN:
            if self.peek() == "(":
                self.skip_call()
            return None
        if not macro.defined:
            return 0
        if macro.function_like:
            self.skip_call()
            return None
        if self.depth > 16 or not macro.body:
            return None
        inner = _Parser(list(macro.body), self.env, self.depth + 1)
        try:
            value = inner.expression(0)
        except _Unreadable:
            return None
        return value if inner.i == len(inner.words) else None


def _binary(op: str, a: int | None, b: int | None) -> int | None:
    if op == "&&":
        if a == 0 or b == 0:
            return 0
        return None if a is None or b is None else 1
    if op == "||":
        if (a is not None and a != 0) or (b is not None and b != 0):
            return 1
        return None if a is None or b is None else 0
    if op == "*" and (a == 0 or b == 0):
        return 0
    if a is None or b is None:
        return None
    if op in ("/", "%"):
        if b == 0:
            return None
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)  # C truncates toward 0
        return q if op == "/" else a - q * b
    if op in ("<<", ">>"):
        if b < 0 or b > 63:
            return None
        return a << b if op == "<<" else a >> b
    return _ARITHMETIC[op](a, b)


_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b,
    "&": lambda a, b: a & b,
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b),
    ">": lambda a, b: int(a > b),
    "<=": lambda a, b: int(a <= b),
    ">=": lambda a, b: int(a >= b),
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
}


def _int(word: str) -> int | None:
    m = _INT.match(word.replace("'", "") if word[:1].isdigit() else word)
    if m is None:
        return None
    digits = m.group(1)
    if digits[:2] in ("0x", "0X"):
        return int(digits[2:], 16)
    if digits[:2] in ("0b", "0B"):
        return int(digits[2:], 2)
    if len(digits) > 1 and digits[0] == "0":
        try:
            return int(digits, 8)
        except ValueError:
            return None
    return int(digits)


def _char(word: str) -> int | None:
    inner = word[word.index("'") + 1 : -1]
    if len(inner) == 1:
        return ord(inner)
    simple = {"\\n": 10, "\\t": 9, "\\0": 0, "\\\\": 92, "\\'": 39, "\\r": 13}
    return simple.get(inner)


def condition_words(d: PPDirective) -> tuple[str, ...]:
    """The condition of an #if-family directive, #ifdef X written as `defined X`."""
    if d.name in ("ifdef", "elifdef"):
        return ("defined", *d.words[:1])
    if d.name in ("ifndef", "elifndef"):
        return ("!", "defined", *d.words[:1])
    if d.name == "else":
        return ("1",)
    return d.words


def tested_names(words: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for w in words:
        if _NAME.match(w) and w not in ("defined", "true", "false") and w not in _HAS:
            seen.setdefault(w, None)
    return list(seen)


# --- the walk -------------------------------------------------------------------------------

OPENS = ("if", "ifdef", "ifndef")
ARMS = ("elif", "else", "elifdef", "elifndef")


@dataclass
class ProjectHeaders:
    """The project's own files as the model reads them, to follow #include into: each
    file's directives (key: its path relative to the run, posix), the names files already
    written for HIP define (a compat header's replacements), the project's -I directories,
    and the files every #include of which sits in a dead arm (never compiled)."""

    files: dict[str, tuple[PPDirective, ...]]
    hip_names: dict[str, frozenset[str]] = field(default_factory=dict)
    include_dirs: tuple[str, ...] = ()
    dead: frozenset[str] = frozenset()
    # a header compile_commands.json has no entry for: the -D/-U of the entries compiling it
    inherited: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _tails: dict[str, list[str]] = field(default_factory=dict, repr=False)

    @property
    def defines(self) -> frozenset[str]:
        """Every macro a project file #defines (undefined until a compiled #define)."""
        found = self.__dict__.get("_defines")
        if found is None:
            found = frozenset(
                d.words[0]
                for ds in self.files.values()
                for d in ds
                if d.name == "define" and d.words
            )
            self.__dict__["_defines"] = found
        return found

    def lookup(self, spelling: str, angle: bool, includer: str) -> str | None:
        """The project file an #include names, as the compiler finds it: a quote include
        beside its includer, then on the project's -I directories (an angle include only
        there: <cuda.h> is the toolkit's even when the project has a cuda.h); failing
        both, a quote include with a directory part that names the end of exactly one
        project path (hipport does not always know the -I paths: "proj/config.h")."""
        if spelling.startswith("/"):
            return None
        if not angle:
            key = posixpath.normpath(posixpath.join(posixpath.dirname(includer), spelling))
            if key in self.files:
                return key
        for directory in self.include_dirs:
            key = posixpath.normpath(posixpath.join(directory, spelling))
            if key in self.files:
                return key
        if angle or "/" not in spelling:
            return None  # a bare name not beside its includer: a system header's, maybe
        if not self._tails:
            for key in self.files:
                parts = key.split("/")
                for i in range(len(parts)):
                    self._tails.setdefault("/".join(parts[i:]), []).append(key)
        found = self._tails.get(posixpath.normpath(spelling), [])
        return found[0] if len(found) == 1 else None

    @property
    def words(self) -> frozenset[str]:
        """Every word of every directive of the project's files."""
        found = self.__dict__.get("_words")
        if found is None:
            found = frozenset(w for ds in self.files.values() for d in ds for w in d.words)
            self.__dict__["_words"] = found
        return found

    def digest_parts(self) -> list:
        """Everything a cached result may depend on (a file's context when it is opaque:
        hipport.runner.project_macros.header_contexts)."""
        return [
            sorted((k, [(d.name, d.words) for d in v]) for k, v in self.files.items()),
            sorted((k, sorted(v)) for k, v in self.hip_names.items()),
            list(self.include_dirs),
            sorted(self.dead),
            sorted(self.inherited.items()),
        ]


@dataclass
class _Frame:
    parent: bool | None  # is the enclosing region compiled (None: unknown)
    prior: bool | None  # did an earlier arm of this chain hold
    chain: int
    arm: int  # index in the walk's arm list of the current arm (-1: not recorded)
    enclosing: int  # index of the arm it sits in (-1: none)
    macros: dict[str, str] = field(default_factory=dict)  # tested so far -> what is known
    state: bool | None = True


def _and(a: bool | None, b: bool | None) -> bool | None:
    if a is False or b is False:
        return False
    return None if a is None or b is None else True


def _not(a: bool | None) -> bool | None:
    return None if a is None else not a


def _or(a: bool | None, b: bool | None) -> bool | None:
    if a is True or b is True:
        return True
    return None if a is None or b is None else False


@dataclass
class _WalkArm:
    directive: PPDirective
    chain: int
    enclosing: int
    macros: tuple[tuple[str, str], ...]
    state: bool | None
    end: int = -1


@dataclass
class _Walk:
    env: Env
    headers: ProjectHeaders | None
    path: str
    arms: list[_WalkArm] = field(default_factory=list)
    includes: list[tuple[str, bool]] = field(default_factory=list)
    defines: set[str] = field(default_factory=set)
    once: set[str] = field(default_factory=set)
    active: list[str] = field(default_factory=list)  # headers being walked (cycles)
    reached: set[str] = field(default_factory=set)  # project headers compiled (or maybe)
    live_defines: set[str] = field(default_factory=set)  # #defined in code surely compiled
    chains: int = 0
    current: int = -1  # the recorded arm the walk is in (-1: top level)

    def run(self, directives: Sequence[PPDirective], top: bool | None, record: bool) -> None:
        stack: list[_Frame] = []
        for d in directives:
            state = stack[-1].state if stack else top
            name = d.name
            if name in OPENS:
                self.open(d, state, stack, record)
                if stack[-1].arm >= 0:
                    self.current = stack[-1].arm
            elif name in ARMS and stack:
                self.next_arm(d, stack[-1], record)
            elif name == "endif" and stack:
                frame = stack.pop()
                if record and frame.arm >= 0:
                    self.arms[frame.arm].end = d.start
                    self.current = frame.enclosing
            elif state is not False:
                self.other(d, state)
        if record:
            for frame in stack:  # an unterminated #if: its arm runs to the end
                if frame.arm >= 0 and self.arms[frame.arm].end < 0:
                    self.arms[frame.arm].end = 1 << 62

    def open(self, d: PPDirective, state: bool | None, stack: list[_Frame], record: bool) -> None:
        words = condition_words(d)
        frame = _Frame(state, None, self.chains, -1, self.current if record else -1)
        self.chains += 1
        cond = False if state is False else self.condition(words, frame.macros)
        frame.prior = cond
        frame.state = _and(state, cond)
        if record:
            frame.arm = len(self.arms)
            macros = tuple(frame.macros.items())
            self.arms.append(_WalkArm(d, frame.chain, frame.enclosing, macros, frame.state))
        stack.append(frame)

    def next_arm(self, d: PPDirective, frame: _Frame, record: bool) -> None:
        words = condition_words(d)
        if record and frame.arm >= 0:
            self.arms[frame.arm].end = d.start
        if frame.parent is False or frame.prior is True:
            cond: bool | None = False
        else:
            cond = self.condition(words, frame.macros)
        frame.state = _and(frame.parent, _and(_not(frame.prior), cond))
        frame.prior = _or(frame.prior, cond)
        if record:
            frame.arm = len(self.arms)
            macros = tuple(frame.macros.items())
            self.arms.append(_WalkArm(d, frame.chain, frame.enclosing, macros, frame.state))
            self.current = frame.arm

    def condition(self, words: Sequence[str], macros: dict[str, str]) -> bool | None:
        for name in tested_names(words):
            macros.setdefault(name, self.env.macro(name).origin)
        value = evaluate(words, self.env)
        return None if value is None else value != 0

    def other(self, d: PPDirective, state: bool | None) -> None:
        if d.name == "define" and d.words and _NAME.match(d.words[0]):
            name = d.words[0]
            self.defines.add(name)
            if state is None:
                self.env[name] = UNKNOWN
                return
            where = f"{self.path}:{d.line}" if d.line else self.path
            self.env[name] = Macro(True, d.words[1:], d.function_like, f"#define at {where}")
            self.live_defines.add(name)
        elif d.name == "undef" and d.words and _NAME.match(d.words[0]):
            name = d.words[0]
            where = f"{self.path}:{d.line}" if d.line else self.path
            self.env[name] = UNKNOWN if state is None else Macro(False, origin=f"#undef at {where}")
        elif d.name in ("include", "include_next", "import") and d.words:
            self.include_header(d, state)
        elif d.name == "pragma" and d.words[:1] == ("once",) and self.active:
            self.once.add(self.active[-1])

    def include_header(self, d: PPDirective, state: bool | None) -> None:
        spelling, angle = include_target(d.words)
        if not spelling:
            return
        if not self.active:
            self.includes.append((spelling, angle))
        if self.headers is None:
            return
        key = self.headers.lookup(spelling, angle, self.active[-1] if self.active else self.path)
        if key is None:
            return
        self.reached.add(key)
        if key in self.once or key in self.active or len(self.active) > 40:
            return
        directives = self.headers.files[key]
        self.active.append(key)
        saved = self.path
        self.path = key
        try:
            self.run(directives, state, record=False)
        finally:
            self.path = saved
            self.active.pop()


def macro_flags(args: Sequence[str]) -> tuple[str, ...]:
    """The -D/-U flags of a compile command's arguments, `-D NAME` (two arguments, as
    compile_commands.json keeps them) joined as -DNAME."""
    out: list[str] = []
    pending = ""
    for arg in args:
        if pending:
            out.append(pending + arg)
            pending = ""
        elif arg in ("-D", "-U"):
            pending = arg
        elif arg.startswith(("-D", "-U")):
            out.append(arg)
    return tuple(out)


def include_target(words: Sequence[str]) -> tuple[str, bool]:
    """The header an #include names and whether in angle brackets ("" if computed)."""
    if not words:
        return "", False
    first = words[0]
    if len(first) >= 2 and first[0] == '"' and first[-1] == '"':
        return first[1:-1], False
    if first == "<":
        inner = []
        for w in words[1:]:
            if w == ">":
                return "".join(inner), True
            inner.append(w)
        return "", True
    if len(first) >= 2 and first[0] == "<" and first[-1] == ">":
        return first[1:-1], True
    return "", False


def conditionals(
    directives: Sequence[PPDirective],
    build: Build,
    headers: ProjectHeaders | None = None,
    path: str = "",
) -> Conditionals:
    """Every #if arm of the file with its verdict under the HIP build (see the module)."""
    includes = headers is not None and any(d.name == "include" for d in directives)
    if not includes and not any(d.name in OPENS for d in directives):
        return Conditionals()
    own = {d.words[0] for d in directives if d.name == "define" and d.words}
    if headers is not None:
        own |= headers.defines
    worlds = build.worlds()
    if not _varies(directives, build, worlds, headers):
        worlds = worlds[:1]
    walks = []
    for _, base in worlds:
        env = Env(base)
        env.project = own  # the project's macros: undefined until a compiled #define
        walk = _Walk(env, headers, path)
        walk.run(directives, True, record=True)
        walks.append(walk)
    return _combine(walks, [w[0] for w in worlds])


def _varies(
    directives: Sequence[PPDirective],
    build: Build,
    worlds: list[tuple[str, Env]],
    headers: ProjectHeaders | None,
) -> bool:
    """Whether the walks of the other worlds can differ from the first's: the file (or a
    project file it may include) names a macro whose value differs between them."""
    if len(worlds) == 1:
        return False
    differing = _differing(build)
    if any(w in differing for d in directives for w in d.words):
        return True
    return headers is not None and not differing.isdisjoint(headers.words)


@lru_cache(maxsize=64)
def _differing(build: Build) -> frozenset[str]:
    """The macros whose value differs between the build's worlds."""
    worlds = build.worlds()
    first = worlds[0][1]
    return frozenset(
        name for _, env in worlds[1:] for name, m in env.items() if first.get(name) != m
    )


def _combine(walks: list[_Walk], passes: list[str]) -> Conditionals:
    first = walks[0]
    arms: list[Arm] = []
    for k, warm in enumerate(first.arms):
        by_pass: dict[str, set[bool | None]] = {}
        for walk, pass_name in zip(walks, passes, strict=True):
            by_pass.setdefault(pass_name, set()).add(walk.arms[k].state)
        states = [s.pop() if len(s) == 1 else None for s in by_pass.values()]
        if True in states:
            verdict = Verdict.LIVE
        elif all(s is False for s in states):
            verdict = Verdict.DEAD
        else:
            verdict = Verdict.UNDECIDED
        end = warm.end if warm.end >= 0 else 1 << 62
        body = (warm.directive.end, end)
        macros = _origins([w.arms[k].macros for w in walks], passes)
        arms.append(Arm(warm.directive, verdict, body, macros, warm.chain, warm.enclosing))
    dead = _merge([a.body for a in arms if a.verdict is Verdict.DEAD])
    undecided = _merge([a.body for a in arms if a.verdict is Verdict.UNDECIDED])
    defines = set().union(*(w.defines for w in walks))
    reached = set().union(*(w.reached for w in walks))
    own = set().union(*(w.live_defines for w in walks))
    for key in reached:
        own |= walks[0].headers.hip_names.get(key, frozenset()) if walks[0].headers else set()
    return Conditionals(
        tuple(arms),
        dead,
        undecided,
        tuple(first.includes),
        tuple(sorted(defines)),
        frozenset(reached),
        frozenset(own),
    )


def _origins(
    per_walk: list[tuple[tuple[str, str], ...]], passes: list[str]
) -> tuple[tuple[str, str], ...]:
    """Each tested macro with what is known of it; where the passes differ, per pass."""
    out: dict[str, dict[str, str]] = {}
    for macros, pass_name in zip(per_walk, passes, strict=True):
        for name, origin in macros:
            out.setdefault(name, {}).setdefault(pass_name, origin)
    merged = []
    for name, by_pass in out.items():
        origins = set(by_pass.values())
        if len(origins) == 1:
            merged.append((name, origins.pop()))
        else:
            merged.append((name, "; ".join(f"{p} pass: {o}" for p, o in by_pass.items())))
    return tuple(merged)


def _merge(ranges: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


# --- directives straight from a file's bytes (the project's headers) --------------------------

_BLOCK_COMMENT = re.compile(rb"/\*.*?\*/", re.DOTALL)
_LINE_COMMENT = re.compile(r'("(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\')|//.*')
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*([A-Za-z_]\w*)((?:\\\r?\n|[^\n])*)", re.MULTILINE)
_FUNCTION_LIKE = re.compile(r"\s*[A-Za-z_]\w*\(")


def _blank(match: re.Match[bytes]) -> bytes:
    return bytes(b if b == 0x0A else 0x20 for b in match.group(0))


def _no_line_comment(rest: str) -> str:
    if "//" not in rest:
        return rest
    return _LINE_COMMENT.sub(lambda m: m.group(1) or "", rest)


def scan_directives(source: bytes) -> tuple[PPDirective, ...]:
    """The directives the model reads, from a file's bytes without the lexer (comments
    blanked, continuation lines joined): for the project's headers, read by the runner."""
    if b"#" not in source:
        return ()
    # a block comment can hide a '#' line; a '/*' inside a string literal is rare enough
    text = _BLOCK_COMMENT.sub(_blank, source) if b"/*" in source else source
    out = []
    line = 1
    last = 0
    for m in _DIRECTIVE.finditer(text):
        name = m.group(1).decode("ascii")
        if name not in _SCANNED:
            continue
        line += text.count(b"\n", last, m.start())
        last = m.start()
        rest = m.group(2)
        if b"\\" in rest:
            rest = re.sub(rb"\\\r?\n", b" ", rest)
        rest = _no_line_comment(rest.decode("latin-1"))
        end = m.end() + 1 if text[m.end() : m.end() + 1] == b"\n" else m.end()
        function_like = name == "define" and _FUNCTION_LIKE.match(rest) is not None
        out.append(PPDirective(name, tuple(words_of(rest)), m.start(), end, line, function_like))
    return tuple(out)


_SCANNED = frozenset(OPENS + ARMS + ("endif", "define", "undef", "include", "pragma"))
