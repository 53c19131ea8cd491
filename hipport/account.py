"""The account hipport runs for: its home directory, and a private directory of its own in
the system temp directory when there is no usable home. The cache (hipport.cache) and the
cache key (hipport.cache_key) both live under it; this module imports neither."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path


def home() -> Path:
    """The account's home: HOME when absolute, else the password database's, else a
    private directory of this account in the system temp directory."""
    home_env = os.environ.get("HOME", "")
    if os.path.isabs(home_env):
        return Path(home_env)
    try:
        import pwd

        account = pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError, OSError):
        account = ""
    if os.path.isabs(account) and os.path.isdir(account):
        _note(
            f"HOME is {'empty' if not home_env else 'not absolute'}: the cache is under {account}"
        )
        return Path(account)
    private = private_fallback()
    _note(f"no usable home directory: the cache is under {private}")
    return private


def private_fallback() -> Path:
    """`hipport-UID` in the system temp directory, made 0700, used only when it is a
    directory (not a link) of this account that no one else may enter or write; when
    another account made it first (planting entries there), a fresh private directory."""
    import tempfile

    private = Path(tempfile.gettempdir()) / f"hipport-{os.getuid()}"
    try:
        private.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError:
        return Path(tempfile.mkdtemp(prefix=f"hipport-{os.getuid()}-"))
    try:
        st = os.lstat(private)
    except OSError:
        st = None
    if (
        st is None
        or not stat.S_ISDIR(st.st_mode)
        or st.st_uid != os.getuid()
        or stat.S_IMODE(st.st_mode) & 0o077
    ):
        _note(f"{private} is not this account's private directory: not used")
        return Path(tempfile.mkdtemp(prefix=f"hipport-{os.getuid()}-"))
    return private


_NOTED: set[str] = set()


def _note(message: str) -> None:
    if message not in _NOTED:
        _NOTED.add(message)
        print(f"hipport: note: {message}", file=sys.stderr)
