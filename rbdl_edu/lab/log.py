"""Sensor logs: readings over time as arrays, by sensor name, saved to CSV or NPZ files that
load back exactly (book, chapter 11).

``data.sensordata`` holds every sensor's numbers one after the other, in the order of the
model file, sensor ``s`` at ``model.sensor_adr[s]`` with ``model.sensor_dim[s]`` numbers. A
log finds each sensor's numbers from those two fields, so nobody counts positions by hand,
and it stores a **copy** of them at every :meth:`SensorLog.record`: a stored reading never
changes when the simulation moves on (a slice of ``sensordata`` would; a log of slices
holds the last reading many times).

A CSV file has a header line ``time,<columns>``: a sensor with one number is one column
named after it, a sensor with ``d`` numbers is ``d`` columns ``name[0]`` ... ``name[d-1]``;
numbers are written with 17 significant digits, so they read back bit for bit. An NPZ file
holds ``time``, ``values`` (one row per record), ``names`` and ``dims``.

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><body><joint name="j" axis="0 1 0"/>
...   <geom size=".1" pos="0 0 -1"/><site name="s" pos="0 0 -1"/></body></worldbody>
...   <sensor><jointpos name="angle" joint="j"/><framepos name="tip" objtype="site" objname="s"/>
...   </sensor></mujoco>''')
>>> data = rbd.Data(model); data.qpos[:] = 0.5
>>> log = SensorLog(model)
>>> for _ in range(3):
...     rbd.step(model, data); log.record(data)
>>> log["angle"].shape, log["tip"].shape, len(log)
((3,), (3, 3), 3)
>>> bool(log["angle"][0] > log["angle"][2])          # it fell: three different readings
True
"""
from __future__ import annotations

import os
import re

import numpy as np


class SensorLog:
    """Readings of some of a model's sensors, one record per :meth:`record` call.

    Parameters
    ----------
    model
        Any engine's model with ``sensor_names``, ``sensor_adr``, ``sensor_dim``.
    names : list of str, optional
        The sensors to log (default: all, in the model's order). Unnamed sensors are called
        ``sensor<id>``.

    ``log[name]`` is a copy of that sensor's readings: ``(n,)`` for a sensor with one number,
    ``(n, dim)`` otherwise; ``log.time`` ``(n,)``; ``log.values`` ``(n, columns)``.
    """

    def __init__(self, model, names=None):
        every = [n or f"sensor{s}" for s, n in enumerate(model.sensor_names)]
        names = list(every) if names is None else list(names)
        for n in names:
            if n not in every:
                raise KeyError(f"no sensor named {n!r}; the model's sensors are {every}")
        ids = [every.index(n) for n in names]
        self.names = tuple(names)
        self.dims = tuple(int(model.sensor_dim[s]) for s in ids)
        adr = [int(model.sensor_adr[s]) for s in ids]
        # where each logged number sits in sensordata
        self._index = np.concatenate([np.arange(a, a + d) for a, d in zip(adr, self.dims)]).astype(int) \
            if ids else np.zeros(0, dtype=int)
        self._time, self._rows = [], []

    def record(self, data, time=None):
        """Store a copy of the logged sensors' numbers and the time (``data.time`` unless
        given)."""
        self._rows.append(np.array(np.asarray(data.sensordata)[self._index], dtype=float))
        self._time.append(float(data.time if time is None else time))

    def __len__(self):
        return len(self._rows)

    @property
    def time(self):
        """Times of the records ``(n,)`` (a copy)."""
        return np.array(self._time, dtype=float)

    @property
    def values(self):
        """Every logged number ``(n, columns)``, columns as in :meth:`columns` (a copy)."""
        return np.array(self._rows, dtype=float).reshape(len(self._rows), len(self._index))

    def __getitem__(self, name):
        if name not in self.names:
            raise KeyError(f"sensor {name!r} is not in this log; it has {list(self.names)}")
        k = self.names.index(name)
        start = sum(self.dims[:k])
        out = self.values[:, start:start + self.dims[k]]
        return out[:, 0] if self.dims[k] == 1 else out

    def arrays(self):
        """``{name: readings}`` for every logged sensor (copies), and ``"time"``."""
        return {"time": self.time, **{n: self[n] for n in self.names}}

    def columns(self):
        """Column names of the files: ``name`` or ``name[i]``.

        >>> import rbdl_edu as rbd
        >>> model = rbd.load_model('''<mujoco><worldbody><site name="s"/></worldbody><sensor>
        ...   <framepos name="p" objtype="site" objname="s"/><clock name="t"/></sensor></mujoco>''')
        >>> SensorLog(model).columns()
        ['p[0]', 'p[1]', 'p[2]', 't']
        """
        return [n if d == 1 else f"{n}[{i}]" for n, d in zip(self.names, self.dims) for i in range(d)]

    # -- files ---------------------------------------------------------------------------------
    def to_csv(self, path):
        """Write ``time`` and every column to a CSV file (17 significant digits)."""
        header = ",".join(["time"] + self.columns())
        table = np.column_stack([self.time, self.values]) if len(self) else np.zeros((0, 1 + len(self._index)))
        np.savetxt(os.fspath(path), table, fmt="%.17g", delimiter=",", header=header, comments="")

    def to_npz(self, path):
        """Write ``time``, ``values``, ``names`` and ``dims`` to an NPZ file."""
        np.savez(os.fspath(path), time=self.time, values=self.values,
                 names=np.array(self.names, dtype=str), dims=np.array(self.dims, dtype=int))

    @classmethod
    def from_csv(cls, path):
        """A log read back from :meth:`to_csv`'s file."""
        with open(os.fspath(path)) as f:
            lines = f.read().splitlines()
        header, rows = (lines[0].strip().split(","), lines[1:]) if lines else ([], [])
        if not header or header[0] != "time":
            raise ValueError(f"{path}: the first column must be 'time', the header is {header[:3]}...")
        names, dims = [], []
        for col in header[1:]:
            m = re.fullmatch(r"(.*)\[(\d+)\]", col)
            name, i = (m.group(1), int(m.group(2))) if m else (col, 0)
            if names and names[-1] == name and m and i == dims[-1]:
                dims[-1] += 1
            elif i == 0:
                names.append(name)
                dims.append(1)
            else:
                raise ValueError(f"{path}: column {col!r} does not follow {names[-1] if names else 'time'!r}")
        table = (np.loadtxt(rows, delimiter=",", ndmin=2) if any(r.strip() for r in rows)
                 else np.zeros((0, len(header))))
        return cls._from_arrays(names, dims, table[:, 0], table[:, 1:])

    @classmethod
    def from_npz(cls, path):
        """A log read back from :meth:`to_npz`'s file."""
        with np.load(os.fspath(path), allow_pickle=False) as f:
            return cls._from_arrays([str(n) for n in f["names"]], [int(d) for d in f["dims"]],
                                    f["time"], f["values"])

    @classmethod
    def _from_arrays(cls, names, dims, time, values):
        log = cls.__new__(cls)
        log.names, log.dims = tuple(names), tuple(dims)
        if values.shape != (len(time), sum(dims)):
            raise ValueError(f"values {values.shape} do not fit {len(time)} records of {sum(dims)} numbers")
        log._index = np.arange(sum(dims))
        log._time = [float(t) for t in time]
        log._rows = [np.array(row, dtype=float) for row in values]
        return log
