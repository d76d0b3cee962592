r"""The smooth half of the pipeline compiled with JAX, inside the NumPy step (``pip install
rbdl_edu[jax]``; book, chapter 8).

Most of a step's fields do not depend on contacts: poses, com frames, tendons, the mass
matrix and its factor, transmissions, ``cvel``, the bias and passive forces, actuation,
:math:`f_{smooth}` and :math:`a_u` (:func:`~rbdl_edu.simulation.forward.smooth`). In Python
they cost a few microseconds per NumPy call and a dozen calls per body; compiled, the whole
half is one call. :func:`accelerate` returns a copy of the model whose
:func:`~rbdl_edu.simulation.forward.stages` run that half as one compiled function of the
state, then the other half — contacts, constraint rows, the solver, sensors — in NumPy as
always (:func:`~rbdl_edu.simulation.forward.constrained`). Nothing is a second copy: the
compiled function is :func:`~rbdl_edu.simulation.forward.smooth` itself, traced by
:func:`rbdl_edu.compiled.jit`, and it writes the same ``Data`` fields. The numbers equal the
NumPy pipeline's to round-off (XLA may order a sum differently: ~1e-15 relative).

>>> import rbdl_edu as rbd
>>> model = rbd.models.double_pendulum()
>>> fast = accelerate(model)
>>> a, b = rbd.Data(model), rbd.Data(fast)
>>> a.qpos[:] = b.qpos[:] = [0.3, -0.2]
>>> rbd.step(model, a, 10); rbd.step(fast, b, 10)
>>> bool(np.allclose(a.qvel, b.qvel, rtol=1e-12, atol=1e-14))
True

What it refuses (a :class:`ValueError` naming the feature), because there the two halves
are not independent: sleeping (``<flag sleep="enable"/>``: contacts wake trees), adhesion
actuators and body transmissions, geom and pair ``adhesion`` (their force follows the
contacts); and where the compiled
half cannot take the input: mocap bodies (their poses are part of the model's body frames),
``<orientation>`` servos (computed with NumPy only) and symbolic models.
The first step compiles (seconds for a robot; once per model).
"""
from __future__ import annotations

import math

import numpy as np

from rbdl_edu import compiled
from rbdl_edu.arrays import is_jax
from rbdl_edu.cache import per_model
from rbdl_edu.model.data import Data
from rbdl_edu.model.enums import TRN_BODY
from rbdl_edu.model.model import check_not_mujoco
from rbdl_edu.simulation.forward import COMPILED, smooth
from rbdl_edu.simulation.integrators import factor_in_smooth_half, implicitfast_factor

#: the state the smooth half reads (``xfrc_applied`` only when a body is pushed: a second
#: compiled function, made at the first push)
INPUTS = ("qpos", "qvel", "act", "ctrl", "qfrc_applied")


def accelerate(model):
    """A copy of ``model`` whose steps run :func:`~rbdl_edu.simulation.forward.smooth`
    compiled (one call per stage pass; RK4 makes four). Use it as the model: ``rbd.Data``,
    ``rbd.step``, ``rbd.forward``. ``model`` itself stays the NumPy reference."""
    check_not_mujoco(model)
    refuse(model)
    fast = model.replace()
    fast.__dict__[COMPILED] = smooth_half(model)
    return fast


@per_model
def smooth_half(model):
    """One :class:`SmoothHalf` per model (accelerating a model twice compiles once)."""
    return SmoothHalf(model)


def refuse(model):
    """A ValueError naming what makes contacts change the smooth half."""
    if model.is_symbolic:
        raise ValueError("accelerate: the model has symbolic parameters; JAX compiles numbers")
    if model.opt.enabled("sleep"):
        raise ValueError("accelerate: <flag sleep=\"enable\"/> — contacts wake sleeping trees inside the "
                         "smooth stages; simulate this model with the NumPy pipeline")
    if model.nmocap:
        raise ValueError("accelerate: mocap bodies — their poses (data.mocap_pos, mocap_quat) enter the "
                         "model's body frames, which the compiled half holds as constants; simulate this "
                         "model with the NumPy pipeline")
    if np.any(np.asarray(model.actuator_trntype) == TRN_BODY):
        raise ValueError("accelerate: a body transmission (adhesion) takes its moment arm from the contacts; "
                         "simulate this model with the NumPy pipeline")
    if model.nout != model.nactuator:
        raise ValueError("accelerate: an <orientation> (SO(3)) servo — its three outputs are computed with "
                         "NumPy only; simulate this model with the NumPy pipeline")
    if model.flg_adhesion:
        raise ValueError("accelerate: geom or pair adhesion — its passive pull (qfrc_adhesion) follows the "
                         "contacts; simulate this model with the NumPy pipeline")


def state_names(pushed):
    """The state fields the compiled half takes, in order (``xfrc_applied`` if ``pushed``)."""
    return INPUTS + (("xfrc_applied",) if pushed else ())


class SmoothHalf:
    """The compiled :func:`~rbdl_edu.simulation.forward.smooth` of one model, called with a
    ``Data``: it writes every field the smooth half computes (as NumPy arrays)."""

    def __init__(self, model):
        self.model = model
        self.functions = {}         # pushed (xfrc_applied given) -> (compiled, constants, layout)

    def __call__(self, data):
        pushed = bool(data.xfrc_applied.any())
        if pushed not in self.functions:
            self.functions[pushed] = self.compile(pushed)
        f, constants, layout = self.functions[pushed]
        names = state_names(pushed)
        # the state goes in as one vector too (one argument for JAX to check, not five)
        flat, rest = f(np.concatenate([data.__dict__[name].reshape(-1) for name in names], dtype=float))
        # the float fields come out as one vector (one copy out of XLA's buffer, not one per
        # field) and are handed out as views of it, each its own field's piece
        flat, fields = np.array(flat), data.__dict__
        for name, piece, shape in layout:
            fields[name] = flat[piece] if shape is None else flat[piece].reshape(shape)
        for name, x in rest.items():
            data.__dict__[name] = np.array(x)
        data.__dict__.update(constants)

    def compile(self, pushed):
        """``(state as one vector) -> (float fields joined into one vector, other fields)``
        compiled for this model; ``constants``: the fields the half sets to numbers that do not
        depend on the state, ``layout``: each float field's ``(name, slice, shape)`` in the
        vector, ``shape`` None for a vector (both filled in by the trace)."""
        constants, layout = {}, []

        def fields(model, state):
            data = Data(model)
            fresh, start = dict(data.__dict__), 0
            for name in state_names(pushed):
                shape = np.shape(fresh[name])
                setattr(data, name, state[start:start + math.prod(shape)].reshape(shape))
                start += math.prod(shape)
            smooth(model, data)
            if factor_in_smooth_half(model):     # implicitfast's M - hD depends on the state alone
                implicitfast_factor(model, data)
            out, start = {}, 0
            for name, x in data.__dict__.items():
                if name in INPUTS or name == "xfrc_applied" or x is fresh.get(name):
                    continue
                if is_jax(x):
                    out[name] = x
                else:                            # a number the trace fixed (e.g. no fluid force)
                    constants[name] = x
            layout.clear()
            for name, x in out.items():
                if x.dtype == np.float64:
                    layout.append((name, slice(start, start + x.size), x.shape if x.ndim != 1 else None))
                    start += x.size
            flat = [out.pop(name).reshape(-1) for name, _, _ in layout]
            return compiled.jnp.concatenate(flat) if flat else compiled.jnp.zeros(0), out
        fields.__name__ = "smooth_pushed" if pushed else "smooth"
        return compiled.jit(self.model, fields), constants, layout
