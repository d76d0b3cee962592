"""MuJoCo behind the lab's engine interface (:mod:`rbdl_edu.lab.engine`): the lab's second
engine, ``MouseEnv(engine="mujoco")``, ``run("mujoco", ...)`` (book, chapter 11).

Learn and check on rbdl_edu, where every step can be read; train on MuJoCo, which runs the
same controller a few hundred times faster (``benchmarks/bench_lab.py``); then evaluate on
rbdl_edu again. The two agree to round-off on the mouse's trot (``tests/test_lab_engines.py``).

This module imports ``mujoco`` (an optional dependency: the ``test`` extra, ``mujoco==4.0.0``),
so :func:`rbdl_edu.lab.engine.get_engine` imports it only when ``"mujoco"`` is asked for.
The adapter adds what the interface asks and MuJoCo's bindings lack:
names as tuples (``model.sensor_names``, ``model.geom_names``), ``model.id(kind, name)``
raising ``KeyError``, and ``data.sensor(name).data`` a **copy** (MuJoCo's
``d.sensor(name).data`` is a live view).
Everything else passes through to ``MjModel``/``MjData``.

>>> engine = MUJOCO
>>> model = engine.load_model("<mujoco><worldbody><body><joint name='j'/><geom size='.1'/>"
...                           "</body></worldbody><sensor><jointpos name='q' joint='j'/></sensor></mujoco>")
>>> data = engine.Data(model); data.qpos[:] = 0.3; engine.forward(model, data)
>>> model.sensor_names, data.sensor("q").data
(('q',), array([0.3]))
"""
from __future__ import annotations

from types import SimpleNamespace

import mujoco
import numpy as np

_OBJ = {"body": mujoco.mjtObj.mjOBJ_BODY, "joint": mujoco.mjtObj.mjOBJ_JOINT,
        "geom": mujoco.mjtObj.mjOBJ_GEOM, "site": mujoco.mjtObj.mjOBJ_SITE,
        "actuator": mujoco.mjtObj.mjOBJ_ACTUATOR, "sensor": mujoco.mjtObj.mjOBJ_SENSOR,
        "keyframe": mujoco.mjtObj.mjOBJ_KEY}


class MujocoModel:
    """An ``MjModel`` (``.m``) with the interface's names and ``id``."""

    def __init__(self, m):
        self.m = m
        for kind, n in (("actuator", m.nactuator), ("sensor", m.nsensor), ("body", m.nbody),
                        ("geom", m.ngeom), ("site", m.nsite), ("keyframe", m.nkey)):
            names = tuple(mujoco.mj_id2name(m, _OBJ[kind], i) or "" for i in range(n))
            setattr(self, {"keyframe": "key"}.get(kind, kind) + "_names", names)

    def __getattr__(self, name):
        if name == "m":                      # not set yet (a copy being made): no recursion
            raise AttributeError(name)
        return getattr(self.m, name)

    def id(self, kind, name):
        i = mujoco.mj_name2id(self.m, _OBJ[kind], name)
        if i < 0:
            raise KeyError(f"no {kind} named {name!r}")
        return i


class MujocoData:
    """An ``MjData`` (``.d``); ``sensor(name).data`` is a copy."""

    def __init__(self, model):
        object.__setattr__(self, "model", model)
        object.__setattr__(self, "d", mujoco.MjData(model.m))

    def __getattr__(self, name):
        if name == "d":
            raise AttributeError(name)
        return getattr(self.d, name)

    def __setattr__(self, name, value):
        setattr(self.d, name, value)

    def sensor(self, name):
        s = self.model.id("sensor", name)
        adr, dim = self.model.sensor_adr[s], self.model.sensor_dim[s]
        return SimpleNamespace(id=s, name=name, data=np.array(self.d.sensordata[adr:adr + dim]))


class MujocoEngine:
    """``load_model``, ``Data``, ``forward``, ``step``, ``reset`` over MuJoCo."""
    __name__ = "mujoco"

    def load_model(self, source):
        text = str(source)
        m = (mujoco.MjModel.from_xml_string(text) if text.lstrip().startswith("<")
             else mujoco.MjModel.from_xml_path(text))
        return MujocoModel(m)

    def Data(self, model):                                   # noqa: N802 (the interface's name)
        return MujocoData(model)

    def forward(self, model, data):
        mujoco.mj_forward(model.m, data.d)

    def step(self, model, data):
        mujoco.mj_step(model.m, data.d)

    def reset(self, model, data, key=None):
        if key is None:
            mujoco.mj_resetData(model.m, data.d)
        else:
            k = model.id("keyframe", key) if isinstance(key, str) else int(key)
            mujoco.mj_resetDataKeyframe(model.m, data.d, k)


#: the engine (one is enough: it holds no state)
MUJOCO = MujocoEngine()
