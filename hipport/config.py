"""Configuration: `[tool.hipport]` in pyproject.toml, or `.hipport.toml`, found by walking up
from the given paths. Keys are the command-line options' names (`rocm`, `launch-syntax`,
`exclude`, ...); the command line wins over the file.

    [tool.hipport]
    rocm = "6.1"
    exclude = ["third_party/**"]
    disable-mappings = ["cudaMallocManaged"]   # leave these CUDA names alone
    defines = ["MYPROJ_USE_HIP", "WARP=64"]    # the project's macros in its HIP build (-D)
    [tool.hipport.renames]                     # the project's own wrappers
    CUDA_CHECK = "HIP_CHECK"
    [tool.hipport.severity]                    # rule code or name -> error|warning|note|off
    HIP004 = "warning"
    [tool.hipport.per-path-ignore]             # glob -> rule codes or CUDA names not applied there
    "legacy/**" = ["HIP004", "CUDA_CHECK"]
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CONFIG_FILES = (".hipport.toml", "pyproject.toml")

# Third-party code a project carries (vendored trees, OpenGL loaders and extension headers,
# single-file libraries): its findings are counted in one summary line, not reported, unless
# the configuration says `vendored = [...]` (its own list; [] reports everything).
DEFAULT_VENDORED = (
    "third_party/",
    "thirdparty/",
    "third-party/",
    "3rdparty/",
    "external/",
    "extern/",
    "vendor/",
    "deps/",
    "glad/",
    "GL/",
    "GLES2/",
    "GLES3/",
    "KHR/",
    "glew.h",
    "glxew.h",
    "wglew.h",
    "glext.h",
    "glxext.h",
    "wglext.h",
    "freeglut*.h",
    "glut.h",
    "stb_*.h",
)
_DEFINE = re.compile(r"[A-Za-z_]\w*(=.*)?\Z", re.DOTALL)

KNOWN_KEYS = {
    "rocm",
    "cuda",
    "experimental",
    "roc",
    "amd-ext",
    "launch-syntax",
    "translate-strings",
    "semantic",
    "cuda-path",
    "compile-commands",
    "include",
    "exclude",
    "extensions",
    "jobs",
    "cache",
    "fail-on",
    "renames",
    "disable-mappings",
    "severity",
    "per-path-ignore",
    "rename-suffix",
    "max-file-size",
    "time-limit",
    "baseline",
    "defines",
    # ruff's names: which rules (a code, a prefix such as HIP1 or a name), more excludes, and
    # per-file-ignores (the same table as per-path-ignore: both may be given)
    "select",
    "ignore",
    "extend-select",
    "extend-exclude",
    "per-file-ignores",
    "vendored",
}


class ConfigError(ValueError):
    pass


@dataclass
class Config:
    root: Path  # the project root: the directory holding the config file (or the start)
    source: Path | None = None  # the file the settings came from
    values: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    @property
    def renames(self) -> dict[str, str]:
        return dict(self.values.get("renames", {}))

    @property
    def disabled_mappings(self) -> frozenset[str]:
        return frozenset(self.values.get("disable-mappings", ()))

    @property
    def defines(self) -> tuple[str, ...]:
        """`defines` as -D flags: "NAME" -> "-DNAME", "NAME=VALUE" -> "-DNAME=VALUE"."""
        return tuple("-D" + d for d in self.values.get("defines", ()))

    @property
    def severity(self) -> dict[str, str]:
        return dict(self.values.get("severity", {}))

    @property
    def per_path_ignore(self) -> dict[str, list[str]]:
        """per-path-ignore and ruff's name for it, per-file-ignores, merged."""
        merged: dict[str, list[str]] = {}
        for key in ("per-path-ignore", "per-file-ignores"):
            for pattern, entries in self.values.get(key, {}).items():
                merged.setdefault(pattern, []).extend(entries)
        return merged

    @property
    def vendored(self) -> tuple[str, ...]:
        """Globs of third-party code (DEFAULT_VENDORED unless configured)."""
        return tuple(self.values.get("vendored", DEFAULT_VENDORED))

    @property
    def excluded(self) -> list[str]:
        """exclude and extend-exclude (ruff's key for adding to the excludes)."""
        return [*self.values.get("exclude", ()), *self.values.get("extend-exclude", ())]

    def selected(self, cli_select: tuple[str, ...]) -> tuple[str, ...]:
        """The rules selected: --select, else `select`; plus `extend-select` ((): all)."""
        chosen = tuple(cli_select) or tuple(self.values.get("select", ()))
        extra = tuple(self.values.get("extend-select", ()))
        return (*chosen, *extra) if chosen else extra

    def ignored(self, cli_ignore: tuple[str, ...]) -> tuple[str, ...]:
        """`ignore` and --ignore together (both are taken out)."""
        return (*self.values.get("ignore", ()), *cli_ignore)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    if path.name == "pyproject.toml":
        return data.get("tool", {}).get("hipport")
    return data.get("tool", {}).get("hipport", data)


_TOML_TYPES = (
    (bool, "a boolean"),
    (int, "an integer"),
    (float, "a float"),
    (str, "a string"),
    (list, "an array"),
    (dict, "a table"),
)


def _given(value: Any) -> str:
    """`, not an integer (3)`: what the file gave, in TOML's words."""
    kind = next((name for t, name in _TOML_TYPES if isinstance(value, t)), "a date or time")
    if isinstance(value, list) and not all(isinstance(v, str) for v in value):
        kind = "an array with a non-string item"
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    return f", not {kind} ({shown})"


def _validate(values: dict[str, Any], source: Path) -> dict[str, Any]:
    unknown = sorted(set(values) - KNOWN_KEYS)
    if unknown:
        named = ", ".join(map(_with_suggestion, unknown))
        raise ConfigError(f"{source}: unknown key(s) in [tool.hipport]: {named}")
    for key in ("experimental", "roc", "amd-ext", "translate-strings", "semantic", "cache"):
        if key in values and not isinstance(values[key], bool):
            raise ConfigError(f"{source}: '{key}' must be true or false{_given(values[key])}")
    limit = values.get("time-limit")
    if limit is not None and (
        isinstance(limit, bool) or not isinstance(limit, int | float) or limit <= 0
    ):
        raise ConfigError(f"{source}: time-limit must be a number of seconds > 0, not {limit!r}")
    for key in ("jobs", "max-file-size"):
        if key in values and (
            isinstance(values[key], bool) or not isinstance(values[key], int) or values[key] < 0
        ):
            raise ConfigError(f"{source}: '{key}' must be a whole number{_given(values[key])}")
    for key in (
        "rocm",
        "cuda",
        "launch-syntax",
        "cuda-path",
        "compile-commands",
        "fail-on",
        "baseline",
    ):
        if key in values and not isinstance(values[key], str):
            raise ConfigError(f"{source}: '{key}' must be a string{_given(values[key])}")
    for key in ("rocm", "cuda"):
        if key in values:
            from hipport.target import Version

            try:
                Version.parse(values[key])
            except ValueError:
                raise ConfigError(
                    f"{source}: '{key}' must be a release such as \"6.2\", not {values[key]!r}"
                ) from None
    if values.get("launch-syntax", "cuda") not in ("cuda", "hip"):
        raise ConfigError(f'{source}: \'launch-syntax\' must be "cuda" or "hip"')
    if values.get("fail-on", "never") not in ("error", "warning", "note", "never"):
        raise ConfigError(f"{source}: 'fail-on' must be error, warning, note or never")
    for old, new in dict(values.get("rename-suffix") or {}).items():
        if not (isinstance(new, str) and old.startswith(".") and new.startswith(".")):
            raise ConfigError(f'{source}: \'rename-suffix\' maps suffixes, e.g. ".cu" = ".hip"')
    for key in ("renames", "severity", "per-path-ignore", "per-file-ignores", "rename-suffix"):
        if key in values and not isinstance(values[key], dict):
            raise ConfigError(f"{source}: '{key}' must be a table{_given(values[key])}")
    for key in (
        "include",
        "exclude",
        "disable-mappings",
        "extensions",
        "select",
        "ignore",
        "extend-select",
        "extend-exclude",
        "defines",
        "vendored",
    ):
        if key in values and not (
            isinstance(values[key], list) and all(isinstance(v, str) for v in values[key])
        ):
            raise ConfigError(f"{source}: '{key}' must be a list of strings{_given(values[key])}")
    for define in values.get("defines", []):
        if not _DEFINE.match(define):
            raise ConfigError(
                f"{source}: defines are NAME or NAME=VALUE (as -D takes them), not {define!r}"
            )
    for name, new in values.get("renames", {}).items():
        if not (isinstance(new, str) and new.isidentifier() and name.isidentifier()):
            raise ConfigError(
                f"{source}: renames map identifiers to identifiers ({name!r} = {new!r})"
            )
    for key in ("per-path-ignore", "per-file-ignores"):
        for pattern, entries in values.get(key, {}).items():
            if not (isinstance(entries, list) and all(isinstance(e, str) for e in entries)):
                raise ConfigError(
                    f"{source}: {key} {pattern!r} must be a list of rule codes or CUDA "
                    f"names{_given(entries)}"
                )
    for code, level in values.get("severity", {}).items():
        if level not in ("error", "warning", "note", "off"):
            raise ConfigError(
                f"{source}: severity of {code} must be error, warning, note or off, not {level!r}"
            )
    return values


def _with_suggestion(key: str) -> str:
    """`exlude (did you mean exclude?)`: the nearest known keys, also for snake_case."""
    import difflib

    close = difflib.get_close_matches(key.replace("_", "-"), sorted(KNOWN_KEYS), n=2, cutoff=0.6)
    return f"{key} (did you mean {' or '.join(close)}?)" if close else key


def find_config(start: Path, read: bool = True) -> tuple[Path, Path | None, dict[str, Any]]:
    """Walk up from `start`; the first .hipport.toml or pyproject.toml with [tool.hipport]
    wins. Returns (root, config file or None, values). With none found, the root is the
    nearest directory holding .git, else `start`."""
    start = Path(os.path.realpath(start))  # not resolve(): it raises on a symlink loop
    directory = start if start.is_dir() else start.parent
    git_root = None
    for candidate in (directory, *directory.parents):
        for name in CONFIG_FILES if read else ():
            path = candidate / name
            if path.is_file():
                values = _read(path)
                if values is not None:
                    return candidate, path, _validate(values, path)
        if git_root is None and (candidate / ".git").exists():
            git_root = candidate
            break
    return git_root or directory, None, {}


def load_config(
    paths: list[Path] | None = None, config_file: Path | None = None, isolated: bool = False
) -> Config:
    """The configuration governing `paths` (the first path's; default: the current directory).
    `config_file` (--config) is read instead of searching, its directory the project root;
    `isolated` (--isolated) reads none (the root: the nearest directory with .git)."""
    start = Path(paths[0]) if paths else Path.cwd()
    if config_file is not None:
        path = Path(os.path.abspath(config_file))
        if not path.is_file():
            raise ConfigError(f"--config {config_file}: no such file")
        values = _read(path)
        if values is None:
            raise ConfigError(f"--config {config_file}: has no [tool.hipport] table")
        return Config(root=path.parent, source=path, values=_validate(values, path))
    if isolated:
        root, _, _ = find_config(start, read=False)
        return Config(root=root)
    root, source, values = find_config(start)
    return Config(root=root, source=source, values=values)
