"""Reading what a process wrote to a real pseudo-terminal (tests of what users see there)."""

from __future__ import annotations

import os
import select
import subprocess


def read_terminal(leader: int, proc: subprocess.Popen) -> bytes:
    """Everything the process wrote to the terminal whose leader end is `leader`, until it
    closes it (or 120 s of silence: then it is killed); waits for it and closes `leader`."""
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        if not ready:
            proc.kill()
            break
        try:
            data = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks)
