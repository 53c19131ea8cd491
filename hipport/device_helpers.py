"""Device functions hipport writes into a translated file where the target HIP lacks a CUDA
one (which releases lack it is data: mappings/gate_facts.tsv, kind `system-atomic`).

Each helper is C++ text with CUDA's exact semantics, guarded by its own macro so that a file
and the headers it includes may each carry it (the first definition wins, the others are
skipped) and a second translation finds nothing to add. Kept apart from the rule that
inserts them (hipport/rules/system_atomics.py) so that a header generator (the shim) can
emit the same text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DeviceHelper:
    cuda: str  # the CUDA function it stands in for
    name: str  # the helper's own name, which calls use
    guard: str  # the macro its definition defines (and tests)
    text: str  # the guarded definition, ending with a blank line


def _cas_loop(cuda: str, doc: str, new_value: str) -> DeviceHelper:
    name = f"hipport_{cuda}"
    guard = f"HIPPORT_{cuda.upper()}_DEFINED"
    text = (
        f"#ifndef {guard}\n"
        f"#define {guard}\n"
        f"// hipport: {cuda}, which HIP lacks, as a system-scope compare-and-swap loop with\n"
        f"// CUDA's semantics: {doc}\n"
        f"__device__ inline unsigned int {name}(unsigned int *address, unsigned int val) {{\n"
        f"  unsigned int old = *address, assumed;\n"
        f"  do {{\n"
        f"    assumed = old;\n"
        f"    old = atomicCAS_system(address, assumed, {new_value});\n"
        f"  }} while (old != assumed);\n"
        f"  return old;\n"
        f"}}\n"
        f"#endif\n"
        f"\n"
    )
    return DeviceHelper(cuda, name, guard, text)


# CUDA's definitions: sm_60_atomic_functions.h (CUDA 13.0), and the CUDA C++ Programming
# Guide's atomicInc/atomicDec: both return the old value.
HELPERS: dict[str, DeviceHelper] = {
    h.cuda: h
    for h in (
        _cas_loop(
            "atomicInc_system",
            "stores ((old >= val) ? 0 : (old + 1)) at address, returns old",
            "(assumed >= val) ? 0u : assumed + 1u",
        ),
        _cas_loop(
            "atomicDec_system",
            "stores (((old == 0) | (old > val)) ? val : (old - 1)) at address, returns old",
            "((assumed == 0u) | (assumed > val)) ? val : assumed - 1u",
        ),
    )
}
