"""References into a ``<replicate>`` resolved as MuJoCo 4.0 resolves them (issue 24).

A tendon may run between two bodies of one replicate (each copy gets its own tendon), and a
name is looked up in the kind its attribute refers to: a tendon, an actuator, a site and a
body may all be called ``b``. Each model is compared with ``mujoco==4.0.0``: every compiled
field, every field of a few steps, and ``qpos`` along a longer run.
"""
from __future__ import annotations

import os

import mujoco
import numpy as np
from test_mujoco_loads import run_both

import rbdl_edu as rbd

STEPS = 30 if os.environ.get("RBDL_EDU_FAST") else 100

# two free bodies in each copy, a limited tendon between them wrapped around a sphere outside,
# its side site above
ACROSS = """<mujoco><option timestep="0.005"/><worldbody><geom type="plane" size="2 2 .1"/>
  <site name="ceiling" pos="0.01 0.02 2.4"/>
  <body pos="0 0 1.5"><freejoint/><site name="hook" pos="0 0 .3"/><site name="bulb" pos="0 0 .5"/>
    <geom name="bulb" size=".3" density="100" contype="0" conaffinity="0"/></body>
  <replicate count="3" euler="0 0 120">
    <body pos="-.6 0 1.5"><freejoint/><site name="a"/><geom size=".03"/></body>
    <body pos="1.2 0 1.5"><freejoint/><site name="b"/><geom size=".1"/></body></replicate></worldbody>
  <tendon><spatial springlength="0 0.5" stiffness="10000"><site site="ceiling"/><site site="hook"/></spatial>
    <spatial range="0 0.5"><site site="a"/><geom geom="bulb" sidesite="bulb"/><site site="b"/></spatial>
  </tendon></mujoco>"""

# a tendon, an actuator, a body and a site all called b
SAME_NAME = """<mujoco><worldbody><site name="a" size=".02"/>
  <replicate offset="0 .1 0" count="3">
    <body name="b" pos="1 0 1"><joint axis="0 -1 0" range="0 90"/>
      <geom type="capsule" size=".02" fromto="0 0 0 0 0 -1"/><site name="b" pos="0 0 -1"/></body>
  </replicate></worldbody>
  <tendon><spatial name="b"><site site="a"/><site site="b"/></spatial></tendon>
  <actuator><position name="b" tendon="b" ctrlrange="0 3" kp="100" dampratio="1"/></actuator>
  <sensor><tendonpos name="t" tendon="b"/><framepos name="s" objtype="site" objname="b"/>
    <framepos name="x" objtype="xbody" objname="b" reftype="site" refname="a"/></sensor></mujoco>"""


def run_long(model, m, ctrl=0.0):
    """``qpos`` of both after ``STEPS`` steps from rest; the largest difference."""
    d, data = mujoco.MjData(m), rbd.Data(model)
    d.ctrl[:] = data.ctrl[:] = ctrl
    for _ in range(STEPS):
        mujoco.mj_step(m, d)
        rbd.step(model, data)
    return np.abs(np.asarray(data.qpos) - d.qpos).max()


def test_tendon_across_two_bodies_of_one_replicate():
    model, m = run_both(ACROSS)
    assert model.ntendon == 4 and m.ntendon == 4
    # each copy's tendon: a, the wrapped sphere with its side site outside, b of the same copy
    sites = [m.site(int(i)).name if t == mujoco.mjtWrap.mjWRAP_SITE else m.geom(int(i)).name
             for t, i in zip(m.wrap_type, m.wrap_objid)]
    assert sites[2:5] == ["a0", "bulb", "b0"] and sites[-3:] == ["a2", "bulb", "b2"]
    assert run_long(model, m) < 1e-9


def test_one_name_in_several_kinds():
    model, m = run_both(SAME_NAME)
    names = ("b0", "b1", "b2")
    assert model.tendon_names == names and model.actuator_names == names
    assert [m.tendon(i).name for i in range(m.ntendon)] == list(names)
    assert [m.actuator(i).name for i in range(m.nu)] == list(names)
    assert model.sensor_names == ("t0", "s0", "x0", "t1", "s1", "x1", "t2", "s2", "x2")
    assert run_long(model, m, ctrl=1.5) < 1e-9
