"""Files written the way every approx tool writes them: beside the target,
then renamed into place, so a failure never leaves a half-written file or
loses the previous one."""

import os
import tempfile


def write_atomically(path: str, text: str) -> None:
    """Writes `text` to `path` through a temporary file and a rename."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".approx-",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
