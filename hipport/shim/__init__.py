"""`hipport shim`: a generated compatibility layer that builds unchanged CUDA sources as HIP.

model.py   what the project uses (headers, names, namespaces), resolved per ROCm release
render.py  the forwarding headers and the mapping header, as bytes
cmake.py   hipport-shim.cmake: a function that builds a target's .cu sources as HIP
write.py   writing a shim directory atomically, and comparing one with what would be written
"""

from __future__ import annotations

from hipport.shim.model import ShimModel, build_model
from hipport.shim.render import MAPPING_HEADER, render
from hipport.shim.write import stale_files, write_shim

__all__ = ["MAPPING_HEADER", "ShimModel", "build_model", "render", "stale_files", "write_shim"]
