"""Whether polling pays: the rest of the machine must leave a processor
to each polling side (the client waiting for an answer, ``bddl serve``
waiting for the next request).

The load average cannot tell: it counts the two polling threads
themselves, and it lags by a minute. One other process holding one of
two processors left it below its limit while polling made a group step
cost 1.3–1.7× the reference's call instead of 0.9× (docs/python.md).
What the other processes use is read instead, on Linux, from the
machine's and the two processes' processor time (``/proc``): the
machine's busy time since the last look, less this process's and the
server's.
"""

import os
from typing import Callable, Optional, Tuple

# How much of a processor the rest of the machine may hold beyond all
# processors but the two polling sides' before polling stops.
SLACK = 0.5

# The shortest look: a tenth of a second of each processor (the ticks are
# hundredths of a second).
MIN_TICKS_PER_CPU = 10


def machine_ticks(stat: bytes) -> Optional[Tuple[int, int]]:
    """(busy, total) clock ticks of all processors from ``/proc/stat``'s
    first line; time stolen by the hypervisor counts as busy (the
    processor was not ours to poll on), waiting for input as idle."""
    first = stat.split(b"\n", 1)[0].split()
    if len(first) < 5 or first[0] != b"cpu":
        return None
    try:
        v = [int(x) for x in first[1:9]]  # user nice system idle iowait irq softirq steal
    except ValueError:
        return None
    idle = v[3] + v[4]
    return sum(v) - idle, sum(v)


def process_ticks(stat: bytes) -> Optional[int]:
    """User and system clock ticks of a process (``/proc/PID/stat``'s
    fields 14 and 15; the name before them, in parentheses, may hold
    spaces and parentheses)."""
    rest = stat[stat.rfind(b")") + 1:].split()
    if len(rest) < 13:
        return None
    try:
        return int(rest[11]) + int(rest[12])
    except ValueError:
        return None


def _read(path: str) -> Optional[bytes]:
    try:
        with open(path, "rb") as f:
            return f.read(1 << 14)
    except OSError:
        return None


class Contention:
    """Samples the machine's and the two processes' processor time;
    :meth:`busy` compares the sample it takes with the last one that
    spans at least a tenth of a second. ``available`` is False where
    ``/proc`` cannot be read."""

    def __init__(self, peer: Optional[int], read: Callable[[str], Optional[bytes]] = _read,
                 cpus: Optional[int] = None) -> None:
        self.peer = peer
        self.read = read
        self.cpus = cpus or os.cpu_count() or 1
        self.last = self.sample()
        self.available = self.last is not None

    def sample(self) -> Optional[Tuple[int, int, int, Optional[int]]]:
        """(machine busy, machine total, this process, the peer or None)."""
        m = self.read("/proc/stat")
        own = self.read("/proc/self/stat")
        mt = machine_ticks(m) if m is not None else None
        ot = process_ticks(own) if own is not None else None
        if mt is None or ot is None:
            return None
        pt = None
        if self.peer is not None:
            p = self.read("/proc/%d/stat" % self.peer)
            pt = process_ticks(p) if p is not None else None
        return mt[0], mt[1], ot, pt

    def busy(self) -> Optional[bool]:
        """Whether, since the last look, the other processes held more
        than all processors but the two polling sides' (plus SLACK); None
        where it cannot be read (not Linux: available turns False), or
        too soon to tell (the look goes on to the next call)."""
        now = self.sample()
        last = self.last
        if now is None or last is None:
            self.last, self.available = now, now is not None
            return None
        if now[1] - last[1] < MIN_TICKS_PER_CPU * self.cpus:
            return None
        self.last = now
        ours = now[2] - last[2]
        if now[3] is not None and last[3] is not None:
            ours += now[3] - last[3]  # a peer not read counts as the others'
        others = (now[0] - last[0] - ours) / (now[1] - last[1]) * self.cpus
        return others > self.cpus - 2 + SLACK
