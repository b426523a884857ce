"""Output files: checked before any work starts, written atomically, never clobbered.

Every command that writes a file checks the path first (``check_output_file``,
``check_output_dir``), so a typo costs one line, not a finished simulation.  Files are
written to a temporary name in the same folder and renamed into place, so a reader
never sees half a file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from unokit.errors import UnoError


class OutputError(UnoError):
    """An output path that cannot be written (no such folder, a folder, no permission)."""


def check_output_file(path: str | Path | None, flag: str) -> Path | None:
    """Refuse, before any work, a file path that cannot be written; None passes."""
    if path is None:
        return None
    p = Path(path)
    if p.is_dir():
        raise OutputError(f"{flag} {path}: that is a folder; give a file name")
    parent = p.parent
    if not parent.is_dir():
        raise OutputError(f"{flag} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise OutputError(f"{flag} {path}: not allowed to write there")
    return p


def check_output_dir(path: str | Path | None, flag: str) -> Path | None:
    """Refuse a folder path that is a file or cannot be created; create it now."""
    if path is None:
        return None
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise OutputError(f"{flag} {path}: that is a file, not a folder")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"{flag} {path}: cannot create the folder ({e.strerror or e})") from None
    if not os.access(p, os.W_OK):
        raise OutputError(f"{flag} {path}: not allowed to write there")
    return p


def write_text_atomic(path: str | Path, text: str, *, overwrite: bool = True) -> None:
    """Write ``text`` to a temporary file next to ``path``, then rename it into place.

    With ``overwrite=False`` an existing ``path`` is left alone: FileExistsError.
    """
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        if overwrite:
            os.replace(tmp, p)
        else:
            try:
                os.link(tmp, p)  # fails if p exists: nothing is overwritten
            except FileExistsError:
                raise
            except OSError:  # no hard links here: check, then rename
                if p.exists():
                    raise FileExistsError(17, "File exists", str(p)) from None
                os.replace(tmp, p)
                return
            os.unlink(tmp)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def free_path(path: str | Path) -> Path:
    """``path`` if nothing is there, else the first free ``stem-2.ext``, ``stem-3.ext``..."""
    p = Path(path)
    if not p.exists():
        return p
    k = 2
    while True:
        q = p.with_name(f"{p.stem}-{k}{p.suffix}")
        if not q.exists():
            return q
        k += 1
