"""Run a command under the seccomp filters a systemd unit asks for, without systemd.

    python unit_sandbox.py UNIT_FILE COMMAND...

systemd 252 turns `SystemCallFilter=`, `SystemCallErrorNumber=`, `MemoryDenyWriteExecute=` and
`RestrictAddressFamilies=` into seccomp filters loaded just before ExecStart runs. This builds
the same filters with libseccomp (the library systemd uses) and then executes COMMAND, so a
test can check that the daemon does all it does under them:

- the system call allow-list: the groups named (expanded by `systemd-analyze syscall-filter`),
  minus those after `~`; any other call fails with the unit's errno;
- MemoryDenyWriteExecute=yes, as systemd's `seccomp_memory_deny_write_execute()`: mmap() with
  PROT_WRITE and PROT_EXEC together, mprotect()/pkey_mprotect() adding PROT_EXEC, and shmat()
  with SHM_EXEC fail with EPERM;
- RestrictAddressFamilies=: socket() of any other family fails with EAFNOSUPPORT;
- LimitRTPRIO=: the resource limit set, as systemd sets it before ExecStart (where this
  process may raise it).

Filters are loaded one after the other, the system call allow-list last, as systemd does;
the kernel applies them all.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import os
import resource
import socket
import subprocess
import sys
from pathlib import Path

ALLOW = 0x7FFF0000
CMP_MASKED_EQ = 7
PROT_WRITE, PROT_EXEC = 0x2, 0x4
SHM_EXEC = 0o100000


def errno_action(number: int) -> int:
    return 0x00050000 | (number & 0xFFFF)


class ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64),
                ("datum_b", ctypes.c_uint64)]


def _lib() -> ctypes.CDLL:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    lib = ctypes.CDLL(name, use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                           ctypes.c_uint, ctypes.POINTER(ArgCmp)]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    return lib


def unit_settings(text: str) -> dict[str, list[str]]:
    """Each key of the unit's [Service] section with every value it is given, in order."""
    settings: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


@functools.cache
def expand_group(name: str) -> tuple[str, ...]:
    """What `systemd-analyze syscall-filter` lists in one group: calls and nested groups."""
    out = subprocess.run(["systemd-analyze", "syscall-filter", name], capture_output=True,
                         text=True, check=True).stdout
    return tuple(ln.strip() for ln in out.splitlines()[1:]
                 if ln.strip() and not ln.strip().startswith("#"))


def expand(names: list[str] | tuple[str, ...]) -> set[str]:
    """System call names of groups (`@system-service`, nested groups too) and names."""
    calls: set[str] = set()
    for name in names:
        calls |= expand(expand_group(name)) if name.startswith("@") else {name}
    return calls


def _load(lib: ctypes.CDLL, default: int, rules: list[tuple[int, str, list[ArgCmp]]]) -> None:
    ctx = lib.seccomp_init(default)
    if not ctx:
        raise OSError("seccomp_init failed")
    try:
        for action, name, args in rules:
            number = lib.seccomp_syscall_resolve_name(name.encode())
            if number < 0:
                continue  # not a system call on this architecture
            array = (ArgCmp * max(len(args), 1))(*args)
            rc = lib.seccomp_rule_add_array(ctx, action, number, len(args), array)
            if rc < 0:
                raise OSError(-rc, f"seccomp rule for {name}")
        rc = lib.seccomp_load(ctx)
        if rc < 0:
            raise OSError(-rc, "seccomp_load")
    finally:
        lib.seccomp_release(ctx)


def apply(unit_text: str) -> None:
    """Load the unit's filters into this process (and so into what it executes)."""
    lib = _lib()
    s = unit_settings(unit_text)
    for value in s.get("LimitRTPRIO", [])[-1:]:  # the realtime priority the loop may take
        try:
            resource.setrlimit(resource.RLIMIT_RTPRIO, (int(value), int(value)))
        except (ValueError, OSError):  # raising it needs CAP_SYS_RESOURCE, which systemd has
            pass
    if s.get("MemoryDenyWriteExecute", ["no"])[-1] == "yes":
        deny = errno_action(errno.EPERM)
        wx = PROT_WRITE | PROT_EXEC
        _load(lib, ALLOW, [
            (deny, "mmap", [ArgCmp(2, CMP_MASKED_EQ, wx, wx)]),
            (deny, "mmap2", [ArgCmp(2, CMP_MASKED_EQ, wx, wx)]),
            (deny, "mprotect", [ArgCmp(2, CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC)]),
            (deny, "pkey_mprotect", [ArgCmp(2, CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC)]),
            (deny, "shmat", [ArgCmp(2, CMP_MASKED_EQ, SHM_EXEC, SHM_EXEC)]),
        ])
    families = s.get("RestrictAddressFamilies", [])
    if families:
        keep = {getattr(socket, f) for f in families[-1].split()}
        deny = errno_action(errno.EAFNOSUPPORT)
        # Every family number not kept (as systemd's allow-list form does).
        _load(lib, ALLOW, [(deny, "socket", [ArgCmp(0, 4, family, 0)])
                           for family in range(0, 46) if family not in keep])
    # Last, as systemd does: the allow-list does not allow loading another filter.
    filters = s.get("SystemCallFilter", [])
    if filters:
        error = s.get("SystemCallErrorNumber", ["EPERM"])[-1]
        allowed: set[str] = set()
        for value in filters:
            words = value.split()
            if words and words[0].startswith("~"):
                allowed -= expand([words[0][1:], *words[1:]])
            else:
                allowed |= expand(words)
        _load(lib, errno_action(getattr(errno, error)), [(ALLOW, n, []) for n in sorted(allowed)])


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: unit_sandbox.py UNIT_FILE COMMAND...", file=sys.stderr)
        return 2
    apply(Path(argv[0]).read_text(encoding="utf-8"))
    os.execvp(argv[1], argv[1:])
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
