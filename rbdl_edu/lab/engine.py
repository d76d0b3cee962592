"""What the lab needs from a simulator, and the loop that runs the mouse (book, chapter 11).

The controller, the sensor log and the environment are written against a small interface,
which :mod:`rbdl_edu` itself provides (``import rbdl_edu as rbd`` *is* an engine):

=================================  ===========================================================
engine                             ``load_model(path)``, ``Data(model)``, ``forward(model, data)``,
                                   ``step(model, data)``, ``reset(model, data, key=None)``
model                              ``opt.timestep``, ``nu``, ``nsensor``, ``nsensordata``,
                                   ``id(kind, name)``, ``actuator_ctrlrange (nu, 2)``,
                                   ``actuator_ctrllimited (nu,)``, ``sensor_names``,
                                   ``sensor_adr``, ``sensor_dim`` ``(nsensor,)``
data                               ``time``, ``qpos``, ``qvel``, ``ctrl``, ``sensordata``,
                                   ``sensor(name).data`` (a copy)
=================================  ===========================================================

The mouse walks on contacts: :func:`simulates_contacts` finds out whether an engine has
them by asking it (a ball pressed into a floor must be pushed back), and
:func:`require_contacts` refuses to walk the mouse on an engine that would let it sink
through the ground (rbdl_edu with ``<flag contact="disable"/>``, say).

**Three engines.** The lab ships three, named by :data:`ENGINES`: ``"rbdl_edu"`` (this
package), ``"rbdl_edu-accelerated"`` (the same, every model it loads accelerated: the smooth
half of each step compiled with JAX, :mod:`rbdl_edu.simulation.accelerated`; the numbers are
rbdl_edu's to round-off) and ``"mujoco"`` (MuJoCo 4.0 behind the same interface,
:mod:`rbdl_edu.lab.mujoco_engine`); the last two are imported only when asked for. :func:`get_engine` turns a name into the engine; everything
in the lab that takes an ``engine`` takes a name too. Any other object with the interface
passes through unchanged.

>>> import rbdl_edu as rbd
>>> simulates_contacts(rbd)
True
>>> get_engine("rbdl_edu") is rbd and get_engine(None) is rbd
True
>>> get_engine("mujoco").__name__
'mujoco'
"""
from __future__ import annotations

import dataclasses
import functools
import os
import time as _time

import rbdl_edu
from rbdl_edu.simulation.step import step_after_forward as _step_after_forward

#: the engines the lab ships, by name
ENGINES = ("rbdl_edu", "rbdl_edu-accelerated", "mujoco")

_PROBE = """<mujoco><option timestep="0.002"/><worldbody><geom type="plane" size="1 1 0.1"/>
  <body pos="0 0 0.09"><freejoint/><geom size="0.1" mass="1"/></body></worldbody></mujoco>"""


def get_engine(engine=None):
    """The engine named ``engine`` (one of :data:`ENGINES`; ``None``: ``"rbdl_edu"``), or
    ``engine`` itself if it is an object with the interface (it has ``load_model``, ``Data``,
    ``forward``, ``step`` and ``reset``).

    >>> get_engine("bullet")
    Traceback (most recent call last):
    ...
    ValueError: unknown engine 'bullet': the lab's engines are 'rbdl_edu', 'rbdl_edu-accelerated' and 'mujoco' (or pass an object with load_model, Data, forward, step, reset)
    """
    if engine is None or engine == "rbdl_edu":
        return rbdl_edu
    if engine == "rbdl_edu-accelerated":
        return _accelerated()
    if engine == "mujoco":
        from rbdl_edu.lab.mujoco_engine import MUJOCO    # MuJoCo: an optional dependency
        return MUJOCO
    missing = [f for f in ("load_model", "Data", "forward", "step", "reset") if not hasattr(engine, f)]
    if isinstance(engine, str) or missing:
        raise ValueError(f"unknown engine {engine!r}: the lab's engines are 'rbdl_edu', 'rbdl_edu-accelerated' "
                         "and 'mujoco' (or pass an object with load_model, Data, forward, step, reset)")
    return engine


class AcceleratedEngine:
    """rbdl_edu with every model it loads accelerated
    (:func:`rbdl_edu.simulation.accelerated.accelerate`); the rest is rbdl_edu's own. A file
    loaded again (unchanged) gives the same model, compiled once: environments made one after
    another do not compile it again."""
    __name__ = "rbdl_edu-accelerated"
    Data, forward, step, reset = (staticmethod(f) for f in (rbdl_edu.Data, rbdl_edu.forward, rbdl_edu.step,
                                                            rbdl_edu.reset))

    def __init__(self, accelerate):
        self.accelerate, self.loaded = accelerate, {}

    def load_model(self, path_or_xml_text, **kwargs):
        source = os.fspath(path_or_xml_text)
        key = (source, os.stat(source).st_mtime_ns if os.path.isfile(source) else None, repr(sorted(kwargs.items())))
        if key not in self.loaded:
            self.loaded[key] = self.accelerate(rbdl_edu.load_model(path_or_xml_text, **kwargs))
        return self.loaded[key]


@functools.lru_cache(maxsize=None)
def _accelerated():
    """The one :class:`AcceleratedEngine` (so that :func:`simulates_contacts` asks it once)."""
    from rbdl_edu.simulation.accelerated import accelerate    # JAX: an optional dependency
    return AcceleratedEngine(accelerate)


@functools.lru_cache(maxsize=None)
def simulates_contacts(engine):
    r"""True if ``engine``'s ``forward`` pushes a ball out of a floor it sinks 1 cm into (its
    vertical acceleration is then above :math:`-g/2`; without contacts it is :math:`-g`).

    >>> import rbdl_edu as rbd
    >>> isinstance(simulates_contacts(rbd), bool)
    True
    """
    engine = get_engine(engine)
    model = engine.load_model(_PROBE)
    data = engine.Data(model)
    engine.forward(model, data)
    return bool(data.qacc[2] > -9.81 / 2)


def require_contacts(engine):
    """Raise ``NotImplementedError`` if ``engine`` does not simulate contacts (the mouse would
    fall through the ground)."""
    engine = get_engine(engine)
    if not simulates_contacts(engine):
        name = getattr(engine, "__name__", type(engine).__name__)
        raise NotImplementedError(
            f"{name} does not simulate contacts, so the mouse would fall through the ground; "
            "pass another engine with the same interface (see rbdl_edu.lab.engine), e.g. 'mujoco'")


def forwarded_state(engine, data):
    """What the position and velocity stages of a ``forward`` read of ``data`` (time, ``qpos``,
    ``qvel``, ``act``, the mocap poses), as one tuple to compare, on rbdl_edu (``None`` on
    another engine): the same after a ``forward`` and before the next step, the stages that
    forward left in ``data`` are current (:func:`step_after_forward`)."""
    if engine is not rbdl_edu:
        return None
    return (id(data), data.time, data.qpos.tobytes(), data.qvel.tobytes(), data.act.tobytes(), data.mocap_pos.tobytes(),
            data.mocap_quat.tobytes())


def between_observations(engine, model):
    """The model an environment steps between two observations: on rbdl_edu ``model`` with its
    sensors off (``<flag sensor="disable"/>``: their stages, the accelerometer's
    ``rne_post_constraint`` among them, are about a tenth of a mouse step), since the
    environment reads ``sensordata`` only after the ``forward`` that ends each of its steps; the
    sensors feed nothing back, so the motion is the same to the last bit. On another engine
    ``model`` itself (MuJoCo's sensors cost little; an accelerated model would compile its
    smooth half a second time).

    >>> import rbdl_edu as rbd
    >>> model = rbd.load_model("models/pendulum.xml")
    >>> between_observations(rbd, model).opt.disabled("sensor"), between_observations("mujoco", model) is model
    (True, True)
    """
    if engine is not rbdl_edu or model.opt.disabled("sensor"):
        return model
    return model.replace(opt=dataclasses.replace(model.opt, disableflags=model.opt.disableflags | {"sensor"}))


def step_after_forward(engine, model, data):
    """``engine.step(model, data)`` right after ``engine.forward(model, data)`` at the same state
    (:func:`forwarded_state`), only the controls changed since: on rbdl_edu without its
    position and velocity stages again (:func:`rbdl_edu.simulation.step.step_after_forward`,
    the same numbers), on another engine its ``step``."""
    if engine is rbdl_edu:
        _step_after_forward(model, data)
    else:
        engine.step(model, data)


def run(engine, model, data, controller, seconds, log=None, every=1, progress=False):
    """Step the mouse for ``seconds`` of simulated time, calling ``controller(data)`` before
    each step and ``log.record(data)`` after every ``every``-th one (the sensors a step
    computes belong to the state it starts from: they are logged at that time).

    Parameters
    ----------
    engine, model, data
        See the table above; ``engine`` may be a name (:data:`ENGINES`), ``model`` and
        ``data`` must be that engine's.
    controller : callable or None
        Writes ``data.ctrl`` (a :class:`~rbdl_edu.lab.mouse.TrotController`); ``None`` keeps
        the controls as they are.
    seconds : float
    log : SensorLog, optional
    every : int
        Record one step in ``every``.
    progress : bool
        Print a progress line (simulated and wall-clock seconds) as the run goes.

    Returns
    -------
    float: simulated seconds per wall-clock second of the run.

    ``run`` checks nothing about contacts (it also runs a pendulum): on an engine without
    them the mouse falls through the floor. :class:`~rbdl_edu.lab.env.MouseEnv` refuses such
    an engine (:func:`require_contacts`).

    >>> import rbdl_edu as rbd
    >>> model = rbd.load_model("<mujoco><worldbody><body><joint/><geom size='.1'/></body></worldbody></mujoco>")
    >>> data = rbd.Data(model)
    >>> speed = run(rbd, model, data, None, 0.01)
    >>> round(data.time, 6)
    0.01
    """
    engine = get_engine(engine)
    n = round(seconds / model.opt.timestep)
    start, shown = _time.perf_counter(), 0.0
    for k in range(n):
        if controller is not None:
            controller(data)
        engine.step(model, data)
        if log is not None and (k + 1) % every == 0:
            # a step computes the sensors at the state it starts from, then moves the time on
            log.record(data, time=data.time - model.opt.timestep)
        wall = _time.perf_counter() - start
        if progress and (wall - shown > 1.0 or k == n - 1):
            shown = wall
            print(f"\r{(k + 1) * model.opt.timestep:7.2f} / {seconds:g} s simulated, "
                  f"{wall:6.1f} s wall", end="\n" if k == n - 1 else "", flush=True)
    wall = _time.perf_counter() - start
    return n * model.opt.timestep / wall if wall > 0 else float("inf")
