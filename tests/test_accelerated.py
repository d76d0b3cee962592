"""The smooth half compiled inside the NumPy step (:mod:`rbdl_edu.simulation.accelerated`).

* ``forward`` on an accelerated model fills every ``Data`` field the NumPy pipeline fills, equal
  to round-off, at random states with contacts, on the lab's mouse, gymnasium's ant and a
  model with every smooth stage (tendons, fluid, filter dynamics, sensors of every stage),
  pushed (``xfrc_applied``) or not;
* stepping both for a while (the mouse's feet touching down and lifting off) stays equal to
  round-off, with implicitfast and RK4 (Euler: the module's doctest);
* what makes contacts change the smooth half is refused by name (sleep, adhesion), and what
  it cannot take as input (mocap bodies, a symbolic model).

JAX is an optional extra; ``make test`` installs it, so CI runs this module.
"""
from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest

pytest.importorskip("jax", reason="JAX is the optional extra rbdl_edu[jax]; the NumPy path is tested without it")

from test_jax import STEP_XML, rel  # noqa: E402
from test_mjcf import GYM  # noqa: E402

import rbdl_edu as rbd  # noqa: E402
from rbdl_edu.lab import Gait, TrotController, scene_path  # noqa: E402
from rbdl_edu.simulation.accelerated import accelerate  # noqa: E402
from rbdl_edu.simulation.integrators import factor_in_smooth_half, factor_qH, implicitfast_matrices  # noqa: E402

#: a mocap body beside a free box on a floor (refused: mocap poses are part of the body frames)
MOCAP_XML = """<mujoco><worldbody><geom type="plane" size="2 2 .1"/>
<body name="hand" mocap="true" pos=".25 0 .1"><geom type="sphere" size=".05"/></body>
<body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body></worldbody></mujoco>"""


def gym(name):
    return rbd.load_model(next(p for p in GYM if p.name == name))


def with_integrator(model, integrator):
    return model.replace(opt=dataclasses.replace(model.opt, integrator=integrator))


@functools.cache
def mouse(integrator="implicitfast"):
    return with_integrator(rbd.load_model(str(scene_path("flat"))), integrator)


MODELS = {        # (each built once: its smooth half compiles once for the module)
    "mouse": mouse,
    "ant": functools.cache(lambda: gym("ant.xml")),
    "every-stage": functools.cache(lambda: rbd.load_model(STEP_XML.format(integrator="implicitfast").replace(
        '<flag constraint="disable"/>', ""))),
}


def random_state(model, data, rng):
    data.qpos = rbd.random_qpos(model, rng)
    data.qvel = rng.normal(size=model.nv)
    data.act = rng.uniform(0.0, 1.0, size=model.na)
    data.ctrl = rng.uniform(-1.0, 1.0, size=model.nu)


def same_fields(a, b, tol=1e-10):
    """Every float array field of two Datas, compared (relative to the field's size)."""
    bad = {}
    for name, x in a.__dict__.items():
        if isinstance(x, np.ndarray) and x.dtype.kind in "fi":
            y = b.__dict__[name]
            if np.shape(y) != x.shape or rel(y, x) > tol:
                bad[name] = rel(y, x) if np.shape(y) == x.shape else (x.shape, np.shape(y))
    assert a.ncon == b.ncon
    return bad


@pytest.mark.parametrize("name, pushed", [("mouse", False), ("ant", False), ("every-stage", False),
                                          ("every-stage", True)])
def test_forward_fills_every_field_as_numpy(name, pushed):
    model = MODELS[name]()
    fast = accelerate(model)
    rng = np.random.default_rng(3)
    for _ in range(3):
        a, b = rbd.Data(model), rbd.Data(fast)
        random_state(model, a, rng)
        for field in ("qpos", "qvel", "act", "ctrl"):
            setattr(b, field, getattr(a, field))
        if pushed:
            a.xfrc_applied = b.xfrc_applied = rng.normal(size=a.xfrc_applied.shape)
        rbd.forward(model, a)
        rbd.forward(fast, b)
        # qH: implicitfast's factor of M - hD, which the compiled half computes ahead of the
        # integrator (NumPy's forward leaves it to the integrator): compared with its own below
        assert {k: v for k, v in same_fields(a, b).items() if k != "qH"} == {}
        if factor_in_smooth_half(model):
            assert rel(b.qH, factor_qH(model, implicitfast_matrices(model, a)[0])) < 1e-10


@pytest.mark.parametrize("integrator", ["implicitfast", "RK4"])
def test_steps_stay_equal(integrator):
    """The mouse trotting on the floor (contacts made and broken), 40 steps (Euler: the doctest
    of :mod:`rbdl_edu.simulation.accelerated`). Contacts amplify round-off step by step, so the
    bound grows with the horizon: 1e-10 here."""
    model = mouse(integrator)
    fast = accelerate(model)
    a, b = rbd.Data(model), rbd.Data(fast)
    rbd.reset(model, a, "stand")
    rbd.reset(fast, b, "stand")
    trot_a, trot_b = TrotController(model, Gait()), TrotController(fast, Gait())
    contacts = set()
    for _ in range(40):
        trot_a(a)
        trot_b(b)
        rbd.step(model, a)
        rbd.step(fast, b)
        contacts.add(a.ncon)
        assert a.ncon == b.ncon
    assert len(contacts) > 1                         # feet touched down and lifted off
    assert rel(b.qpos, a.qpos) < 1e-10 and rel(b.qvel, a.qvel) < 1e-10
    assert rel(b.sensordata, a.sensordata) < 1e-10


def test_refusals_name_the_feature():
    sleepy = rbd.load_model("""<mujoco><option><flag sleep="enable"/></option><worldbody>
        <body><freejoint/><geom size=".1"/></body></worldbody></mujoco>""")
    with pytest.raises(ValueError, match="sleep"):
        accelerate(sleepy)
    sticky = rbd.load_model("""<mujoco><worldbody><body name="b"><freejoint/><geom size=".1"/></body>
        </worldbody><actuator><adhesion body="b" gain="1" ctrlrange="0 1"/></actuator></mujoco>""")
    with pytest.raises(ValueError, match="adhesion"):
        accelerate(sticky)
    with pytest.raises(ValueError, match="mocap"):
        accelerate(rbd.load_model(MOCAP_XML))
    symbolic = rbd.models.pendulum(symbolic=True)
    with pytest.raises(ValueError, match="symbolic"):
        accelerate(symbolic)


def test_the_reference_model_stays_numpy():
    """Accelerating returns a copy: the model itself steps in NumPy as before."""
    model = rbd.models.double_pendulum()
    fast = accelerate(model)
    assert fast is not model
    assert "_compiled_smooth" not in model.__dict__ and "_compiled_smooth" in fast.__dict__
