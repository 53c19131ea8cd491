"""Whether to draw a progress line: asked for, or on a terminal outside CI."""

from __future__ import annotations

import os
import sys


def progress_wanted(flag: bool | None) -> bool:
    if flag is not None:
        return flag
    return sys.stderr.isatty() and not os.environ.get("CI")
