"""MuJoCo 4.0's DC motor (``<dcmotor>``, and ``<general>`` with dcmotor dynamics, gain and
bias) against ``mujoco==4.0.0``: the compiled parameters from the datasheet attributes
(``nominal``, ``motorconst``, ``resistance``, ``inductance``, ``thermal``, ``saturation``,
``cogging``, ``lugre``), and ``forward``/``step`` with each integrator (``implicit``
included) on a two-joint arm with four motors: with and without a current state, warming,
cogging, LuGre friction and a saturated current, and two ``<general>`` mixing DC-motor
pieces with others (``feature_oracle.check``). The controller's inputs given together
(``input="pos vel ff voltage"``, several controls for one motor) and the passive motor
(``input="none"``, no control) are in ``MULTI``; inputs MuJoCo refuses are refused by name."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from feature_oracle import INTEGRATORS, check, compiled_fields_agree

import rbdl_edu as rbd
from rbdl_edu.io import ModelError

#: a three-link arm (shoulder, elbow, wrist), shared by the models below
BODIES = """  <worldbody>
    <body name="upper"><joint name="shoulder" axis="0 1 0" damping="0.01"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
      <body name="fore" pos=".3 0 0"><joint name="elbow" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 .2 0 0" size=".02"/>
        <body name="wrist" pos=".2 0 0"><joint name="wrist" axis="0 0 1"/>
          <geom type="box" size=".06 .04 .02"/></body></body></body>
  </worldbody>
"""

ARM = """<mujoco model="dc motor arm"><option timestep="0.002"/>
""" + BODIES + """  <tendon><fixed name="t"><joint joint="elbow" coef="1"/><joint joint="wrist" coef="-0.5"/></fixed></tendon>
  <actuator>
    <dcmotor name="full" joint="shoulder" resistance="2" motorconst="0.05 0.06" inductance="0.01 0"
             cogging="0.01 6 0.3" thermal="3 0 30 0.004 25 20" lugre="100 0.5 0.02 0.03 0.1"
             saturation="0 2 0" ctrlrange="-12 12"/>
    <dcmotor name="nominal" joint="elbow" nominal="12 0.5 300" gear="3" cogging="0.02 4 0"/>
    <dcmotor name="inductive" tendon="t" resistance="1.5" motorconst="0.04" inductance="0 0.004"
             saturation="0.05 0 30" thermal="2 5 0 0.003 20 25"/>
    <general name="general" joint="wrist" dyntype="dcmotor" gaintype="dcmotor" biastype="dcmotor"
             gainprm="1 0.02" dynprm="0 0 0 0 0 5 0.002" biasprm="0 0 0 0.004 0.006 0.2" actearly="true"/>
    <general name="mixed" joint="wrist" dyntype="dcmotor" gaintype="fixed" biastype="dcmotor" gainprm="0.01"
             dynprm="0 0 1 2 20" biasprm="0.003 2 0" actearly="true" actdim="1"/>
    <general name="gain only" joint="elbow" gaintype="dcmotor" gainprm="2 0.05" dynprm="0"/>
    <dcmotor name="servo" joint="shoulder" resistance="1" motorconst=".05" input="pos" inductance=".005"
             controller="2 1.5 .1 20 .3 24" ctrlrange="-2 2" thermal="2 5 0 .003 20 25"/>
    <dcmotor name="speed" joint="wrist" resistance="1.2" motorconst=".04" input="vel" controller="0 0 .3 0 0 10"
             lugre="5 .002 .004 .006 .2"/>
    <dcmotor name="torque" joint="elbow" resistance="1.5" motorconst=".06" input="ff" controller="0 0 0 5 0 0"/>
  </actuator>
  <sensor><actuatorfrc actuator="full"/><actuatorfrc actuator="inductive"/></sensor>
</mujoco>"""

PRM = ("actuator_dynprm", "actuator_gainprm", "actuator_biasprm", "actuator_forcerange", "actuator_forcelimited",
       "actuator_ctrlrange", "actuator_dyntype", "actuator_gaintype", "actuator_biastype", "actuator_actadr",
       "actuator_actnum", "actuator_actearly", "actuator_actlimited", "actuator_ctrlspec")


def test_compiled_dcmotor_matches_mujoco():
    model, m = compiled_fields_agree(ARM, PRM)
    assert model.na == m.na == 13


@pytest.mark.parametrize("integrator", [*INTEGRATORS, "implicit"])
def test_dcmotor_arm_forward_and_step_match_mujoco(integrator):
    """Voltages over [-18, 18] (the first motor's clamped to +-12): the current saturates,
    the winding warms, the bristles stick and slip; the on-board controller follows a
    position setpoint (slew-limited, with its integral), a velocity and a torque."""
    if integrator == "implicit":
        INTEGRATORS["implicit"] = mujoco.mjtIntegrator.mjINT_IMPLICIT
    try:
        check(ARM, integrator, nstate=3, nskip=15, qvel=1.0, ctrl=lambda rng, m: rng.uniform(-18, 18, m.nu))
    finally:
        INTEGRATORS.pop("implicit", None) if integrator == "implicit" else None


@pytest.mark.parametrize("attributes, what", [
    ('motorconst="0.05" input="voltage pos"', "canonical order"), ('motorconst="0.05" input="pos pressure"', "input"),
    ('motorconst="0.05" input="none" controller="1 0 0 0 0 0"', "controller"),
    ('motorconst="0.05" controller="1 0 0 0 0 0"', "controller"),
    ('motorconst="0.05" input="vel" controller="1 1 0 0 0 0"', "integral gain requires the pos input"), ('motorconst="0.05" forcerange="-1 1"', "forcerange"), ('motorconst="0 0"', "motorconst")])
def test_unsupported_dcmotor_is_refused_by_name(attributes, what):
    xml = f"""<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>
      <actuator><dcmotor joint="j" resistance="2" {attributes or 'motorconst="0.05"'}/></actuator></mujoco>"""
    with pytest.raises(ModelError, match=what):
        rbd.load_model(xml)


DEFAULTS = """<mujoco><default>{}</default><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>
  <actuator>{}</actuator></mujoco>"""


@pytest.mark.parametrize("default, actuator", [
    ('<dcmotor resistance="2" motorconst=".05" inductance=".01"/>', '<dcmotor joint="j" thermal="1 1"/>'),
    ('<motor forcerange="-.01 .01"/>', '<dcmotor joint="j" resistance="2" motorconst=".05"/>'),
    ('<motor forcerange="-.01 .01"/>', '<dcmotor joint="j" resistance="2" motorconst=".05" saturation="0 0 30"/>'),
    ('<dcmotor resistance="2" motorconst=".05" saturation="0 1"/>', '<dcmotor joint="j" nominal="12 .5 300"/>'),
    ('<dcmotor resistance="2" motorconst=".05" saturation="0 1"/>', '<dcmotor joint="j" nominal="12 .5 300" saturation=".2"/>'),
    ('<general gainprm="5 0 3" dynprm="0.3" biasprm="1 2 3"/>', '<dcmotor joint="j" resistance="2" motorconst=".05"/>')])
def test_defaults_match_mujoco(default, actuator):
    """A default class's DC motor, and a force range a class gives any actuator: MuJoCo's
    default holds the limit its own saturation and motor constant give, which an element
    that gives no saturation of its own keeps."""
    compiled_fields_agree(DEFAULTS.format(default, actuator), PRM)


MULTI = """<mujoco model="dc motor inputs"><option timestep="0.002"/>
""" + BODIES + """  <actuator>
    <dcmotor name="all" joint="shoulder" resistance="1" motorconst=".05" input="pos vel ff voltage" inductance=".005"
             controller="2 1.5 .1 20 .3 24" ctrlrange="-2 2" thermal="2 5 0 .003 20 25"/>
    <dcmotor name="posvel" joint="elbow" resistance="1.5" motorconst=".06" input="pos vel" controller="1 0 .05 0 0 12"/>
    <dcmotor name="velvolt" joint="wrist" resistance="1.2" motorconst=".04" input="vel voltage"
             controller="0 0 .3 0 0 10" lugre="5 .002 .004 .006 .2"/>
    <dcmotor name="passive" joint="wrist" resistance="1.2" motorconst=".04" input="none" inductance=".003"
             cogging=".01 4 0"/>
    <dcmotor name="ffslew" joint="elbow" resistance="2" motorconst=".05" input="ff voltage" controller="0 0 0 5 0 0"/>
  </actuator>
</mujoco>"""


def test_multi_input_dcmotor_compiles_as_mujoco():
    """One control per input, in the order pos vel ff voltage (10 for 5 motors, none for the
    passive one), each with the motor's ``ctrlrange``."""
    m, model = mujoco.MjModel.from_xml_string(MULTI), rbd.load_model(MULTI)
    assert (model.nu, model.nactuator) == (m.nu, m.nactuator) == (10, 5)
    for name in PRM + ("actuator_ctrladr", "actuator_ctrlnum", "actuator_ctrllimited"):
        np.testing.assert_array_equal(np.asarray(getattr(model, name), float), np.asarray(getattr(m, name), float),
                                      err_msg=name)


@pytest.mark.parametrize("integrator", [*INTEGRATORS, "implicit"])
def test_multi_input_dcmotor_forward_and_step_match_mujoco(integrator):
    """The controller's setpoints, feedforward and a raw voltage at once (slew-limited and
    integrating), a velocity servo with a voltage added after its ``Vmax`` clamp, and a
    passive motor driven only by the joint's motion."""
    if integrator == "implicit":
        INTEGRATORS["implicit"] = mujoco.mjtIntegrator.mjINT_IMPLICIT
    try:
        check(MULTI, integrator, nstate=3, nskip=15, qvel=1.0, ctrl=lambda rng, m: rng.uniform(-3, 3, m.nu))
    finally:
        INTEGRATORS.pop("implicit", None) if integrator == "implicit" else None
