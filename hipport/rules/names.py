"""Name sets that several rules share: names the tables map but that are left alone
(rename, unknown); the warp intrinsics that take a lane mask
(hazards HIP102, HIP103). Not a rule: no RULE here."""

from __future__ import annotations

# Names left alone although the tables map them (none today). __CUDACC__ is NOT one: the
# brief assumed HIP's clang defines it, but clang -x hip (15, HIP 5.2 headers; host and
# device) defines only __HIP__/__HIPCC__ (and __HIP_DEVICE_COMPILE__), so the table's
# __CUDACC__ -> __HIPCC__ is what keeps `#ifdef __CUDACC__` arms alive under hipcc.
PRESERVE: frozenset[str] = frozenset()

# CUDA headers' include guards and the HIP tests that replace them are data:
# mappings/include_guards.tsv (Mappings.include_guards).

# Intrinsics whose first argument is a lane mask.
MASKED_SYNC = frozenset(
    {
        "__shfl_sync",
        "__shfl_up_sync",
        "__shfl_down_sync",
        "__shfl_xor_sync",
        "__ballot_sync",
        "__any_sync",
        "__all_sync",
        "__match_any_sync",
        "__match_all_sync",
        "__syncwarp",
        "__reduce_add_sync",
        "__reduce_min_sync",
        "__reduce_max_sync",
        "__reduce_and_sync",
        "__reduce_or_sync",
        "__reduce_xor_sync",
    }
)
