"""The device helpers translate writes into a file (hipport.device_helpers): one for every
system-scope atomic the data says HIP lacks, and each computes CUDA's value.

The semantics are checked on the host (no GPU here): the helper's own text, twice (its guard
keeps the second copy out), compiled by the C++ compiler with `__device__` empty and
atomicCAS_system as its one-thread meaning (store `val` if `*address == compare`, return the
old value), against CUDA's formulas from the CUDA C++ Programming Guide, over the edge values
(0, 1, val - 1, val, val + 1, UINT_MAX)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.device_helpers import HELPERS
from hipport.mappings import load_mappings

DRIVER = r"""
#include <climits>
#include <cstdio>
#define __device__
static unsigned int atomicCAS_system(unsigned int *address, unsigned int compare,
                                     unsigned int val) {
  unsigned int old = *address;
  if (old == compare) *address = val;
  return old;
}
@HELPERS@
static unsigned int cuda_inc(unsigned int old, unsigned int val) {
  return (old >= val) ? 0 : (old + 1);
}
static unsigned int cuda_dec(unsigned int old, unsigned int val) {
  return ((old == 0) | (old > val)) ? val : (old - 1);
}
int main() {
  const unsigned int vals[] = {0u, 1u, 2u, 63u, 64u, 0x7fffffffu, 0x80000000u,
                               UINT_MAX - 1, UINT_MAX};
  int bad = 0, checked = 0;
  for (unsigned int val : vals) {
    const unsigned int olds[] = {0u, 1u, val - 1, val, val + 1, UINT_MAX};
    for (unsigned int old : olds) {
      unsigned int a = old, d = old;
      unsigned int ra = hipport_atomicInc_system(&a, val);
      unsigned int rd = hipport_atomicDec_system(&d, val);
      if (ra != old || a != cuda_inc(old, val)) { printf("inc %u %u -> %u\n", old, val, a); bad++; }
      if (rd != old || d != cuda_dec(old, val)) { printf("dec %u %u -> %u\n", old, val, d); bad++; }
      checked += 2;
    }
  }
  printf("%d checked, %d wrong\n", checked, bad);
  return bad != 0;
}
"""


def test_every_system_atomic_fact_has_its_helper() -> None:
    facts = load_mappings().gate.system_atomics
    assert set(facts) == {"atomicInc_system", "atomicDec_system"}
    assert set(facts) == set(HELPERS)
    for name, helper in HELPERS.items():
        assert helper.name == f"hipport_{name}" and helper.guard in helper.text
        assert helper.text.startswith(f"#ifndef {helper.guard}\n#define {helper.guard}\n")


def test_the_helpers_compute_cudas_values(tmp_path: Path) -> None:
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    text = "".join(h.text for h in HELPERS.values())
    program = tmp_path / "helpers.cpp"
    program.write_text(DRIVER.replace("@HELPERS@", text + text))  # twice: the guards
    exe = tmp_path / "helpers"
    built = subprocess.run(
        [compiler, "-std=c++17", "-Wall", "-Werror", "-o", str(exe), str(program)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    ran = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stdout
    assert ran.stdout.strip().endswith("108 checked, 0 wrong")
