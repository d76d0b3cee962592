"""A user contact filter (``data.contact_filter``) against MuJoCo 4.0.0's ``mjcb_contactfilter``.

The same Python function is given to both engines: it replaces the ``contype``/``conaffinity``
bitmask of *dynamic* geom pairs (the body-level rules still run first), and never sees an
explicit ``<pair>``. After 100 steps the contacts and the state agree.
"""
from __future__ import annotations

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.collision import ContactFilterError

# a: a ball on the floor; b: a ball dropped onto a (the filter lets it fall through a);
# c: a ball whose every dynamic pair the filter rejects, held up by an explicit <pair> with the
# floor; e: a ball with a second geom "e_low" with neither contype nor conaffinity: MuJoCo's
# midphase tree leaves it out, so it reaches the filter (which keeps it) only with the midphase off.
XML = """<mujoco><option timestep="0.005"><flag midphase="MIDPHASE"/></option><worldbody>
  <geom name="floor" type="plane" size="3 3 .1"/>
  <body name="a" pos="0 0 .1"><freejoint/><geom name="a" size=".1"/></body>
  <body name="b" pos="0 0 .32"><freejoint/><geom name="b" size=".1"/></body>
  <body name="c" pos="1 0 .1"><freejoint/><geom name="c" size=".1"/></body>
  <body name="e" pos="-1 0 .3"><freejoint/><geom name="e" size=".1"/>
    <geom name="e_low" size=".05" pos="0 0 -.2" contype="0" conaffinity="0"/></body>
</worldbody><contact><pair geom1="floor" geom2="c"/></contact></mujoco>"""
A, B, C = 1, 2, 3


def reject(m, d, g1, g2):
    """True (reject) for the pair a-b and any pair with c; every other pair is kept."""
    return {g1, g2} == {A, B} or C in (g1, g2)


def geom_pairs(contacts):
    return sorted({(int(c.geom1), int(c.geom2)) for c in contacts})


def run_mujoco(steps, contact_filter, midphase="enable"):
    m = mujoco.MjModel.from_xml_string(XML.replace("MIDPHASE", midphase))
    d = mujoco.MjData(m)
    mujoco.set_mjcb_contactfilter(contact_filter)
    try:
        for _ in range(steps):
            mujoco.mj_step(m, d)
        mujoco.mj_forward(m, d)
    finally:
        mujoco.set_mjcb_contactfilter(None)       # (MuJoCo's hook is process-wide)
    return d


def run_ours(steps, contact_filter, midphase="enable"):
    model = rbd.load_model(XML.replace("MIDPHASE", midphase))
    data = rbd.Data(model)
    data.contact_filter = contact_filter
    for _ in range(steps):
        rbd.step(model, data)
    rbd.forward(model, data)
    return data


@pytest.mark.parametrize("midphase", ["enable", "disable"])
def test_filter_matches_mujoco_after_100_steps(midphase):
    d, data = run_mujoco(100, reject, midphase), run_ours(100, reject, midphase)
    assert data.ncon == d.ncon
    assert geom_pairs(data.contact) == geom_pairs(d.contact)
    np.testing.assert_allclose(data.qpos, d.qpos, rtol=0, atol=1e-8)
    names = geom_pairs(data.contact)
    assert (A, B) not in names                     # a-b rejected: b fell through a ...
    assert data.body("b").xpos[2] < 0.15           # ... down to the floor
    assert (0, C) in names                         # the explicit pair never asks the filter
    # e_low (contype 0): no bitmask now, but only the all-to-all path (no midphase) asks about it
    assert ((0, 5) in names) == (midphase == "disable")


def test_without_filter_bitmask_is_back():
    d, data = run_mujoco(100, None), run_ours(100, None)
    assert geom_pairs(data.contact) == geom_pairs(d.contact)
    assert (A, B) in geom_pairs(data.contact) and (0, 5) not in geom_pairs(data.contact)
    np.testing.assert_allclose(data.qpos, d.qpos, rtol=0, atol=1e-8)


def test_filter_sees_dynamic_pairs_only():
    seen = []
    model = rbd.load_model(XML.replace("MIDPHASE", "enable"))
    data = rbd.Data(model)
    data.contact_filter = lambda m, d, g1, g2: seen.append((g1, g2)) or False
    rbd.forward(model, data)
    assert seen and (0, C) not in seen and (C, 0) not in seen     # the <pair> floor-c: not asked


def test_filter_that_raises_is_named():
    def broken(m, d, g1, g2):
        raise KeyError("no such geom")
    model = rbd.load_model(XML.replace("MIDPHASE", "enable"))
    data = rbd.Data(model)
    data.contact_filter = broken
    with pytest.raises(ContactFilterError, match="KeyError.*for geoms"):
        rbd.step(model, data)
    m = mujoco.MjModel.from_xml_string(XML.replace("MIDPHASE", "enable"))
    mujoco.set_mjcb_contactfilter(broken)
    try:
        with pytest.raises(KeyError):                    # MuJoCo's bindings pass it on as well
            mujoco.mj_forward(m, mujoco.MjData(m))
    finally:
        mujoco.set_mjcb_contactfilter(None)
    data.contact_filter = "not a function"
    with pytest.raises(TypeError, match="contact_filter must be a function"):
        rbd.forward(model, data)


def test_filter_under_jax_refused():
    jnp = pytest.importorskip("jax.numpy", reason="JAX is an optional extra (rbdl_edu[jax]), as in test_jax.py")
    model = rbd.load_model(XML.replace("MIDPHASE", "enable"))
    data = rbd.Data(model)
    data.contact_filter = reject
    data.__dict__["qpos"] = jnp.asarray(data.qpos)      # (a traced state holds JAX arrays)
    with pytest.raises(NotImplementedError, match="JAX"):
        rbd.collision.collide(model, data)
