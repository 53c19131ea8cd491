"""The operators HIP's vector types (`HIP_vector_type<T, n>`: float3, int2, uchar4, ...)
declare as non-template functions, read from a HIP release's amd_hip_vector_types.h.

A program that defines its own free operator for two CUDA vector operands (NVIDIA's
helper_math.h does, for every vector type) clashes with such an operator: both are
non-template functions that match the operands exactly, so every use is ambiguous under
HIP. HIP's template operators lose to the program's non-template one and do not clash.

    python tools/vector_operators.py --refresh   # rewrite tools/hip_vector_operators.tsv

reads HIP 5.2's header (Debian's /usr/include/hip) and HIP 6.3's (../shared/hip-6.3), and
writes one row per release and operator: the extraction tools/build_facts.py turns into
mappings/vector_operators.tsv. tests/test_facts.py checks it against the installed headers.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXTRACTED = HERE / "hip_vector_operators.tsv"
COLUMNS = ["rocm", "operator", "hip_declaration", "header_line"]
HEADER = Path("hip") / "amd_detail" / "amd_hip_vector_types.h"
# the releases whose headers are on the development machines, with where they are
HEADERS = {
    "5.2": (Path("/usr/include") / HEADER, "Debian's HIP 5.2.21153"),
    "6.3": (ROOT.parent / "shared" / "hip-6.3" / "include" / HEADER, "../shared/hip-6.3 (6.3.0)"),
}
STRUCT = "struct HIP_vector_type : public HIP_vector_base<T, rank> {"
# operators that are not arithmetic on two vectors (assignment, increments, subscripts)
_NOT_ARITHMETIC = frozenset({"=", "++", "--", "[]", "()", "&"})
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_OPERATOR = re.compile(r"\boperator\s*([^\w\s(]+)\s*\((.*)\)", re.DOTALL)


def operators_from_header(text: str) -> list[tuple[str, str, int]]:
    """(operator as a free function spells it, HIP's declaration, line) of every
    non-template operator of HIP_vector_type whose operands are all vectors: a member
    `operator+=(const HIP_vector_type&)` is the free `+=` of two vectors, a friend
    `operator*(HIP_vector_type, const HIP_vector_type&)` the free `*`."""
    start = text.index(STRUCT) + len(STRUCT)
    # `std::is_integral<U>{}` in a template head is a value, not a body (same length)
    text = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text).replace("{}", "()")
    out = []
    depth, head, head_at = 0, [], start
    i = start
    while i < len(text):
        c = text[i]
        if depth == 0 and c in "{;}":
            decl = "".join(head)
            if c == "}" and not decl.strip():
                break  # the struct's own closing brace
            found = _declared_operator(decl)
            if found is not None:
                line = text.count("\n", 0, head_at + decl.index("operator")) + 1
                out.append((*found, line))
            head, head_at = [], i + 1
            if c == "{":
                depth = 1
        elif depth > 0:
            depth += {"{": 1, "}": -1}.get(c, 0)
            if depth == 0:
                head, head_at = [], i + 1
        else:
            head.append(c)
        i += 1
    return out


def _declared_operator(decl: str) -> tuple[str, str] | None:
    code = " ".join(_COMMENT.sub(" ", decl).split())
    m = _OPERATOR.search(code)
    if m is None or re.search(r"\btemplate\b", code) or m.group(1) in _NOT_ARITHMETIC:
        return None
    params = [p for p in m.group(2).split(",") if p.strip()]
    if not params or not all("HIP_vector_type" in p for p in params):
        return None
    friend = re.search(r"\bfriend\b", code) is not None
    if len(params) + (0 if friend else 1) != 2:
        return None  # a unary operator or a member of another shape
    declaration = re.sub(r"\b(?:__HOST_DEVICE__|inline|constexpr|noexcept)\s*", "", code)
    return m.group(1), declaration.replace("( ", "(").strip()


def extract() -> list[dict[str, str]]:
    rows = []
    for rocm, (path, what) in HEADERS.items():
        text = path.read_text(encoding="utf-8")
        for op, declaration, line in operators_from_header(text):
            rows.append(
                {
                    "rocm": rocm,
                    "operator": op,
                    "hip_declaration": declaration,
                    "header_line": f"{HEADER.as_posix()}:{line} ({what})",
                }
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args != ["--refresh"]:
        print(__doc__)
        return 2
    rows = extract()
    lines = ["\t".join(COLUMNS)] + ["\t".join(r[c] for c in COLUMNS) for r in rows]
    EXTRACTED.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{EXTRACTED.name}: {len(rows)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
