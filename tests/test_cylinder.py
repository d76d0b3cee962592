"""MuJoCo's ``<cylinder>`` actuator (a pneumatic or hydraulic cylinder) against
``mujoco==4.0.0``: the compiled fields (a first-order filter on the control, the pressure;
a fixed gain, the piston's area, from ``area`` or ``diameter``; an affine bias), class
defaults, and ``forward``/``step`` with each integrator on a model with cylinders on a
slide joint, a hinge and a tendon (``feature_oracle.check``)."""
from __future__ import annotations

import numpy as np
import pytest
from feature_oracle import INTEGRATORS, check, compiled_fields_agree, refused_as_mujoco


PISTONS = """<mujoco model="cylinders"><option timestep="0.004"/>
  <default><default class="small"><cylinder diameter="0.05" timeconst="0.2"/></default></default>
  <worldbody>
    <site name="a" pos="0 0 0.3"/>
    <body name="ram"><joint name="ram" type="slide" axis="0 0 1" damping="0.5"/>
      <geom type="box" size=".1 .1 .05" mass="2"/><site name="b" pos="0.1 0 0"/>
      <body name="arm" pos="0 0 0.1"><joint name="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size=".02"/></body></body>
  </worldbody>
  <tendon><spatial name="rope"><site site="a"/><site site="b"/></spatial></tendon>
  <actuator>
    <cylinder name="lift" joint="ram" area="0.01" timeconst="0.05" bias="5 -20 -2" ctrlrange="0 2000"/>
    <cylinder name="tilt" joint="hinge" class="small" gear="0.1" bias="0 -1 -0.1"/>
    <cylinder name="pull" tendon="rope" diameter="0.1" area="3"/>
    <cylinder name="plain" joint="hinge"/>
  </actuator>
  <sensor><actuatorfrc actuator="lift"/><actuatorfrc actuator="pull"/></sensor>
</mujoco>"""

PRM = ("actuator_dyntype", "actuator_gaintype", "actuator_biastype", "actuator_dynprm", "actuator_gainprm",
       "actuator_biasprm", "actuator_gear", "actuator_ctrllimited", "actuator_ctrlrange", "actuator_actlimited",
       "actuator_actadr", "actuator_actnum", "actuator_acc0", "actuator_length0")


def test_compiled_cylinders_match_mujoco():
    model, m = compiled_fields_agree(PISTONS, PRM)
    assert model.na == m.na == 4
    # the area from the diameter wins over a given area (as MuJoCo): pi d^2 / 4
    assert model.actuator_gainprm[2, 0] == pytest.approx(np.pi / 4 * 0.1 ** 2, rel=1e-15)


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_cylinders_forward_and_step_match_mujoco(integrator):
    """Pressures over [-500, 2500] (the lift's clamped to [0, 2000]) filtered into the
    activations; lengths and velocities in the bias."""
    check(PISTONS, integrator, nstate=3, nskip=20, qvel=1.0, ctrl=lambda rng, m: rng.uniform(-500, 2500, m.nu))


def test_the_cylinders_push():
    """Not a vacuous comparison: the activations follow the controls and the forces are felt."""
    m, d, model, data = check(PISTONS, "Euler", nstate=1, nskip=30, qvel=1.0,
                              ctrl=lambda rng, m: rng.uniform(-500, 2500, m.nu))
    assert np.all(np.abs(data.actuator_force) > 1e-2) and np.all(np.abs(data.act_dot) > 1.0)


@pytest.mark.parametrize("attributes, message", [
    ('joint="j" actrange="0 1"', "unknown attribute 'actrange'"),
    ('body="b"', "unknown attribute 'body'"),
    ('joint="j" bias="1 2"', "bias"),
])
def test_cylinders_mujoco_rejects_are_refused(attributes, message):
    xml = f"""<mujoco><worldbody><body name="b"><joint name="j"/><geom size=".1" pos=".2 0 0"/></body>
      </worldbody><actuator><cylinder {attributes}/></actuator></mujoco>"""
    refused_as_mujoco(xml, message)
