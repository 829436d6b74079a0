"""Who runs an episode: this host, this process, and when it started — so that a later
command on the same host can tell at once that the owner is gone (killed, crashed) instead of
waiting for its lease to run out. A pid alone is not enough: pids are reused.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path


def _start_ticks(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux /proc), or None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after the last ')'.
    fields = stat[stat.rindex(")") + 2 :].split()
    return fields[19] if len(fields) > 19 else None


def owner_id(role: str = "cli") -> str:
    """role@host:pid:start — stored as an episode's lease owner. The role says whether
    another process will pick its episodes up if it dies (`serve`) or not (`cli`)."""
    pid = os.getpid()
    return f"{role}@{socket.gethostname()}:{pid}:{_start_ticks(pid) or 0}"


def owner_role(owner: str) -> str:
    return owner.partition("@")[0] if "@" in owner else ""


def owner_gone(owner: str) -> bool:
    """True when `owner` is a process on this host that no longer runs. An owner on another
    host, or one this host cannot judge, is never called gone: leases decide there."""
    host, _, rest = owner.rpartition("@")[2].partition(":")
    pid_text, _, started = rest.partition(":")
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    now = _start_ticks(pid)
    if now is None:
        if Path("/proc/self/stat").exists():
            return True  # /proc works here and the process is not in it
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return False
    return started not in ("", "0") and now != started  # the pid now belongs to another


def describe(owner: str) -> str:
    host, _, rest = owner.rpartition("@")[2].partition(":")
    pid = rest.partition(":")[0]
    return f"process {pid} on {host}"
