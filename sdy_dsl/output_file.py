"""Writing `-o FILE`: all or nothing.

The text goes to an unnamed file in the target's directory (O_TMPFILE), which
only becomes visible when it is complete: linked under a temporary name and
renamed over the target with the termination signals held back, so
a failure at any point (a full disk, an exception, SIGTERM / SIGINT / SIGHUP,
even SIGKILL while writing) leaves the previous file as it was and no
temporary behind. A new file gets the mode `open()` would give it (0666 less
the umask); a replaced one keeps its mode. Where the file system has no
O_TMPFILE, a named temporary is used with the signals held back while it
exists.
"""
from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import signal
import tempfile
from pathlib import Path

_HELD = {signal.SIGTERM, signal.SIGINT, signal.SIGHUP}


@contextlib.contextmanager
def _signals_held():
    """Termination signals wait until the block is done, then take their usual
    course. (Handlers, not a signal mask: a process-directed signal may go to
    any thread, and jaxlib's threads do not block it.)"""
    pending: list[int] = []

    def note(signum, _frame):
        pending.append(signum)
    old = {}
    try:
        for sig in _HELD:
            old[sig] = signal.signal(sig, note)
    except ValueError:  # not the main thread: no handler can be set
        for sig, handler in old.items():
            signal.signal(sig, handler)
        yield
        return
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        if pending:
            os.kill(os.getpid(), pending[0])


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mode_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _unnamed(directory: Path) -> int | None:
    flag = getattr(os, "O_TMPFILE", None)
    if flag is None:
        return None
    try:
        return os.open(directory, flag | os.O_WRONLY, 0o600)
    except OSError:
        return None  # e.g. a file system without O_TMPFILE


_AT_FDCWD, _AT_SYMLINK_FOLLOW = -100, 0x400


def _link_under_a_fresh_name(fd: int, directory: Path) -> str:
    """Give the unnamed file a (temporary) name: linkat(2) through /proc, following
    the descriptor's magic link (os.link does not follow it)."""
    linkat = ctypes.CDLL(None, use_errno=True).linkat
    for _ in range(100):
        tmp = os.path.join(directory, f".sdy-dsl-{os.getpid()}-{os.urandom(6).hex()}.tmp")
        if linkat(_AT_FDCWD, f"/proc/self/fd/{fd}".encode(), _AT_FDCWD, os.fsencode(tmp), _AT_SYMLINK_FOLLOW) == 0:
            return tmp
        err = ctypes.get_errno()
        if err != errno.EEXIST:
            raise OSError(err, os.strerror(err), tmp)
    raise FileExistsError(f"no free temporary name in {directory}")


def write_file_atomically(path: str, text: str) -> None:
    """Replace PATH (through a symlink: the file it names) by TEXT, or raise OSError and change nothing."""
    target = Path(os.path.realpath(path))
    data = text.encode()
    if target.exists() and not target.is_file():
        # A device or pipe (e.g. /dev/null): write through it; renaming over it would replace it.
        with open(target, "wb") as f:
            f.write(data)
        return
    mode = _mode_for(target)
    fd = _unnamed(target.parent)
    if fd is not None:
        try:
            _write_all(fd, data)
            os.fchmod(fd, mode)
            with _signals_held():
                tmp = _link_under_a_fresh_name(fd, target.parent)
                try:
                    os.replace(tmp, target)
                except BaseException:
                    os.unlink(tmp)
                    raise
        finally:
            os.close(fd)
        return
    with _signals_held():
        fd, tmp = tempfile.mkstemp(prefix=".sdy-dsl-", suffix=".tmp", dir=target.parent)
        try:
            try:
                _write_all(fd, data)
                os.fchmod(fd, mode)
            finally:
                os.close(fd)
            os.replace(tmp, target)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
