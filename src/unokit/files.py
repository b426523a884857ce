"""Output files: checked before any work starts, written atomically, never clobbered.

Every command that writes a file checks the path first (``check_output_file``,
``check_output_dir``), so a typo costs one line, not a finished simulation: the check
creates and removes a file there, so it holds for root too (a read-only file system,
``/proc``).  Files are written to a temporary name in the same folder and renamed into
place, so a reader never sees half a file.  A new file gets the mode the umask allows
(``0o666 & ~umask``, as ``open`` would give it); an overwritten file keeps its mode.
"""

from __future__ import annotations

import os
import stat
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
    _probe(parent, f"{flag} {path}")
    return p


def _probe(folder: Path, what: str) -> None:
    """Create and remove a file in ``folder``: what ``os.access`` cannot tell root."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".unokit-check.", dir=folder)
    except OSError as e:
        why = e.strerror or type(e).__name__
        raise OutputError(f"{what}: cannot write a file there ({why})") from None
    os.close(fd)
    os.unlink(tmp)


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
    _probe(p, f"{flag} {path}")
    return p


def umask() -> int:
    """The process's umask (read without changing it where Linux tells it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: set and restore (not thread-safe, but brief)
    os.umask(mask)
    return mask


def _mode_for(p: Path) -> int:
    """An existing file's own mode, else what ``open`` would give a new one."""
    try:
        return stat.S_IMODE(os.stat(p).st_mode)
    except OSError:
        return 0o666 & ~umask()


def write_text_atomic(path: str | Path, text: str, *, overwrite: bool = True) -> None:
    """Write ``text`` to a temporary file next to ``path``, then rename it into place.

    With ``overwrite=False`` an existing ``path`` is left alone: FileExistsError.
    """
    write_bytes_atomic(path, text.encode("utf-8"), overwrite=overwrite)


def write_bytes_atomic(path: str | Path, data: bytes, *, overwrite: bool = True) -> None:
    """``write_text_atomic`` for bytes (a PNG, say).

    A symbolic link is written through (its target is replaced, the link stays), and
    what is not a regular file (``/dev/stdout``, a pipe) is written to as it is:
    renaming over it would replace a device with a file (found by review).
    """
    p = Path(path)
    if p.is_symlink() or (p.exists() and not p.is_file()):
        real = Path(os.path.realpath(p))
        if real.exists() and not real.is_file():
            if not overwrite:
                raise FileExistsError(17, "File exists", str(p))
            with open(real, "wb") as f:
                f.write(data)
            return
        p = real
    mode = _mode_for(p)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            os.fchmod(f.fileno(), mode)  # mkstemp made it 0600
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
