"""Prototype for PROFILE.md fix 1: token offsets straight from the CXToken array.

    python bench/prototypes/fast_tokens.py CORPUS_DIR [N_FILES]

Parses N files (default 200) the way hipport.lexer does, then converts the tokens both with
`lexer._tokens` and with `fast_tokens` below, checks the two lists are equal and prints the
CPU time of each. `fast_tokens` reads kind / raw location / length from CXToken.int_data
(libclang's layout: int_data[0] kind, [1] raw SourceLocation, [2] length) instead of five
ctypes calls per token. Not used by hipport; for whoever applies the fix in hipport/lexer.py.
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from ctypes import POINTER, byref, c_uint, cast

from hipport import lexer
from hipport.lexer import _ARGS, _KINDS, _OPTIONS, _VIRTUAL_NAME, Token, _index, cindex, line_starts


def parse(source):
    return cindex.TranslationUnit.from_source(
        _VIRTUAL_NAME,
        list(_ARGS),
        unsaved_files=[(_VIRTUAL_NAME, source)],
        options=_OPTIONS,
        index=_index(),
    )


def fast_tokens(tu, source):
    lib = cindex.conf.lib
    file = tu.get_file(_VIRTUAL_NAME)
    begin = lib.clang_getLocationForOffset(tu, file, 0)
    end = lib.clang_getLocationForOffset(tu, file, len(source))
    extent = lib.clang_getRange(begin, end)
    memory = POINTER(cindex.Token)()
    count = c_uint()
    lib.clang_tokenize(tu, extent, byref(memory), byref(count))
    n = count.value
    if n == 0:
        return []
    try:
        raw = memoryview(cast(memory, POINTER(c_uint * (6 * n))).contents).cast("B").cast("I")
        kinds, locs, lens = raw[0::6].tolist(), raw[1::6].tolist(), raw[2::6].tolist()
        # base: the raw encoding of offset 0 of the main file, from the first token
        f = cindex.c_object_p()
        off = c_uint()
        lib.clang_getInstantiationLocation(
            lib.clang_getTokenLocation(tu, memory[0]), byref(f), None, None, byref(off)
        )
        base = locs[0] - off.value
        starts = line_starts(source)
        out = []
        ascii_ok = source.isascii()
        K = _KINDS
        li = 0
        nl = len(starts)
        for k, loc, ln in zip(kinds, locs, lens, strict=True):
            s = loc - base
            e = s + ln
            while li + 1 < nl and starts[li + 1] <= s:
                li += 1
            raw_t = source[s:e]
            out.append(
                Token(
                    K[k],
                    raw_t.decode("ascii") if ascii_ok else lexer.decode(raw_t),
                    s,
                    e,
                    li + 1,
                    s - starts[li] + 1,
                )
            )
        return out
    finally:
        lib.clang_disposeTokens(tu, memory, count)


root = sys.argv[1]
files = []
for b, _dirs, fs in os.walk(root):
    files += [os.path.join(b, f) for f in fs if f.endswith((".cu", ".cuh", ".cpp", ".h"))]
files.sort()
files = files[: int(sys.argv[2]) if len(sys.argv) > 2 else 200]
datas = [open(p, "rb").read() for p in files]
tp = tc = tf = 0
mism = 0
for d in datas:
    t0 = time.process_time()
    tu = parse(d)
    t1 = time.process_time()
    a = lexer._tokens(tu, d)
    t2 = time.process_time()
    b = fast_tokens(tu, d)
    t3 = time.process_time()
    tp += t1 - t0
    tc += t2 - t1
    tf += t3 - t2
    if a != b:
        mism += 1
print(
    f"files {len(datas)} parse {tp:.2f}s  current {tc:.2f}s"
    f"  fast {tf:.2f}s  mismatches {mism}"
)
