"""Functions hipport writes into a translated file where the target HIP lacks a CUDA one
(which releases lack it is data: mappings/gate_facts.tsv, kind `system-atomic`;
mappings/device_prop_attributes.tsv for the device-attribute reader).

Each helper is C++ text with CUDA's exact semantics, guarded by its own macro so that a file
and the headers it includes may each carry it (the first definition wins, the others are
skipped) and a second translation finds nothing to add. Kept apart from the rules that
insert them (hipport/rules/system_atomics.py, device_attributes.py) so that a header
generator (the shim) can emit the same text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DeviceHelper:
    cuda: str  # the CUDA function (or struct) it stands in for
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


# A cudaDeviceProp field the target's hipDeviceProp_t lacks, read as the device attribute its
# runtime answers (rules.device_attributes; mappings/device_prop_attributes.tsv says which).
# On failure it gives 0, as a zero-initialised struct would.
DEVICE_ATTRIBUTE = DeviceHelper(
    "cudaDeviceProp",
    "hipport_device_attribute",
    "HIPPORT_DEVICE_ATTRIBUTE_DEFINED",
    "#ifndef HIPPORT_DEVICE_ATTRIBUTE_DEFINED\n"
    "#define HIPPORT_DEVICE_ATTRIBUTE_DEFINED\n"
    "// hipport: a cudaDeviceProp field this HIP's hipDeviceProp_t lacks, read as the device\n"
    "// attribute its runtime answers (0 if the query fails)\n"
    "static inline int hipport_device_attribute(hipDeviceAttribute_t attribute, int device) {\n"
    "  int value = 0;\n"
    "  if (hipDeviceGetAttribute(&value, attribute, device) != hipSuccess) value = 0;\n"
    "  return value;\n"
    "}\n"
    "#endif\n"
    "\n",
)
