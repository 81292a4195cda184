"""Files written the way every approx tool writes them: beside the target,
then renamed into place, so a failure never leaves a half-written file or
loses the previous one."""

import os
import tempfile


def write_atomically(path: str, data) -> None:
    """Writes `data` (str or bytes) to `path` through a temporary file and
    a rename."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o7777  # an existing file keeps its mode
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".approx-",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb" if isinstance(data, (bytes, bytearray)) else "w") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
