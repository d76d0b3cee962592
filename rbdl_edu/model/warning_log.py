"""``data.warning``: what went wrong during a simulation, kept in bounded memory.

MuJoCo keeps, per kind of warning (``mjWARN_BADQPOS``, ``mjWARN_INERTIA``, …), a count and
the last piece of information (``mjData.warning[k].number``, ``.lastinfo``), so that a
simulation that resets a million times still uses a few bytes. :class:`WarningLog` does the
same with named kinds, and keeps the *first* record of each kind too (the one that says when
things started to go wrong).

>>> log = WarningLog()
>>> bool(log), log["qpos"].number
(False, 0)
>>> for t in (0.1, 0.2, 0.3):
...     log.record("qpos", ("time", t))
>>> log["qpos"].number, log["qpos"].first, log["qpos"].last, log.number
(3, ('time', 0.1), ('time', 0.3), 3)
>>> log
WarningLog(qpos: 3 times, first ('time', 0.1), last ('time', 0.3))
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class WarningStat:
    """One kind of warning: how many times it happened, its first and its last record
    (``None`` while ``number`` is 0)."""
    number: int = 0
    first: Any = None
    last: Any = None


class WarningLog:
    """Warnings by kind: ``log["qpos"]`` is a :class:`WarningStat` (a kind never recorded reads
    as ``number == 0``); ``bool(log)`` says whether anything was recorded, ``log.number`` how
    many times in all; iteration gives the kinds recorded, in the order they first happened."""

    def __init__(self):
        self._stats: dict[str, WarningStat] = {}

    def record(self, kind, entry):
        stat = self._stats.setdefault(kind, WarningStat(first=entry))
        stat.number += 1
        stat.last = entry

    def merge(self, other):
        """Add ``other``'s records, which happened after this log's."""
        for kind, s in other._stats.items():
            stat = self._stats.setdefault(kind, WarningStat(first=s.first))
            stat.number += s.number
            stat.last = s.last

    def __getitem__(self, kind):
        return self._stats.get(kind, WarningStat())

    def __iter__(self):
        return iter(self._stats)

    def __bool__(self):
        return bool(self._stats)

    @property
    def number(self):
        return sum(s.number for s in self._stats.values())

    def __repr__(self):
        said = "; ".join(f"{k}: {s.number} time{'s' * (s.number > 1)}, first {s.first}, last {s.last}"
                         for k, s in self._stats.items())
        return f"WarningLog({said})"
