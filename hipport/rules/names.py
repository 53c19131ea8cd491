"""Name sets that several rules share: names the tables map but that are left alone and
CUDA's header include guards (rename, unknown); the warp intrinsics that take a lane mask
(hazards HIP102, HIP103). Not a rule: no RULE here."""

from __future__ import annotations

# Names left alone although the tables map them (none today). __CUDACC__ is NOT one: the
# brief assumed HIP's clang defines it, but clang -x hip (15, HIP 5.2 headers; host and
# device) defines only __HIP__/__HIPCC__ (and __HIP_DEVICE_COMPILE__), so the table's
# __CUDACC__ -> __HIPCC__ is what keeps `#ifdef __CUDACC__` arms alive under hipcc.
PRESERVE: frozenset[str] = frozenset()

# CUDA's header include guards, which real code tests (helpers defined only when the
# runtime was included), and the guards of the HIP headers that replace them. These
# belong in mappings/ (see the report); kept here until the tables carry them.
INCLUDE_GUARDS = {
    "__CUDA_RUNTIME_H__": "HIP_INCLUDE_HIP_HIP_RUNTIME_H",
    "__CUDA_RUNTIME_API_H__": "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H",
    "__DRIVER_TYPES_H__": "HIP_INCLUDE_HIP_DRIVER_TYPES_H",
}
# Not mapped on purpose: cuda.h's guard `__cuda_cuda_h__`. Code under it declares driver
# API overloads (CUresult, CUdevice, ...) that become the runtime's types under HIP
# (both are hipError_t, int, ...); left undefined, the duplicate overloads drop out.

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
