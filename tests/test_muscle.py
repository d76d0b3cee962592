"""MuJoCo's muscle (``<muscle>``, and ``<general>`` with muscle dynamics, gain and bias)
against ``mujoco==4.0.0``: the compiled parameters, the force–length–velocity and passive
curves over their whole range, the activation dynamics with and without ``tausmooth``,
and ``forward``/``step`` with each integrator on a two-joint arm with four muscles on
joints and tendons (``feature_oracle.check``). A muscle without ``lengthrange`` gets one as
``<compiler><lengthrange>`` says (``mode``, ``useexisting``, ``uselimit``, else by
simulation: ``test_lengthrange.py``), as MuJoCo; one whose simulation does not settle (a
free hinge) is refused as MuJoCo refuses it."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from feature_oracle import INTEGRATORS, check

import rbdl_edu as rbd
from rbdl_edu.io import ModelError
from rbdl_edu.smooth.muscle import muscle_bias, muscle_dynamics, muscle_gain

ARM = """<mujoco model="muscle arm"><option timestep="0.005"/>
  <worldbody>
    <site name="s0" pos="-0.1 0 0.05"/><site name="x0" pos="0 0 -0.1"/>
    <body name="upper" pos="0 0 0"><joint name="shoulder" axis="0 1 0" range="-100 100" limited="true"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size=".03"/>
      <site name="s1" pos="0.15 0 0.03"/><site name="x1" pos="0.1 0 -0.03"/>
      <body name="fore" pos="0.3 0 0"><joint name="elbow" axis="0 1 0" damping="0.02"/>
        <geom type="capsule" fromto="0 0 0 0.25 0 0" size=".025"/>
        <site name="s2" pos="0.08 0 0.02"/><site name="x2" pos="0.06 0 -0.02"/></body></body>
  </worldbody>
  <tendon>
    <spatial name="flexor"><site site="s0"/><site site="s1"/><site site="s2"/></spatial>
    <spatial name="extensor"><site site="x0"/><site site="x1"/><site site="x2"/></spatial>
  </tendon>
  <actuator>
    <muscle name="biceps" tendon="flexor" lengthrange="0.2 0.45"/>
    <muscle name="triceps" tendon="extensor" lengthrange="0.15 0.4" force="30" tausmooth="0.2"
            timeconst="0.02 0.05" range="0.6 1.2" vmax="2" fpmax="1.5" fvmax="1.4" lmin="0.4" lmax="1.8"/>
    <muscle name="direct" joint="elbow" lengthrange="-1.5 1.5" scale="50" ctrllimited="true" ctrlrange="-0.5 1.5"/>
    <general name="general" joint="shoulder" dyntype="muscle" gaintype="muscle" biastype="muscle"
             lengthrange="-1 1" dynprm="0.03 0.06" gainprm="0.7 1.1 10 200 0.5 1.6 1.5 1.3 1.2"
             biasprm="0.7 1.1 10 200 0.5 1.6 1.5 1.3 1.2" gear="2"/>
  </actuator>
  <sensor><actuatorfrc actuator="biceps"/><actuatorfrc actuator="triceps"/><tendonpos tendon="flexor"/></sensor>
</mujoco>"""

PRM = ("actuator_dynprm", "actuator_gainprm", "actuator_biasprm", "actuator_lengthrange", "actuator_acc0",
       "actuator_ctrllimited", "actuator_ctrlrange", "actuator_actlimited", "actuator_dyntype",
       "actuator_gaintype", "actuator_biastype", "actuator_actadr")


def test_compiled_muscle_matches_mujoco():
    m, model = mujoco.MjModel.from_xml_string(ARM), rbd.load_model(ARM)
    for name in PRM:
        np.testing.assert_allclose(np.asarray(getattr(model, name), float), np.asarray(getattr(m, name), float),
                                   rtol=1e-12, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_muscle_arm_forward_and_step_match_mujoco(integrator):
    """Excitations over [-0.5, 1.5] (clamped to [0, 1] by the dynamics): activation rises
    and falls, lengths sweep the curves' pieces."""
    check(ARM, integrator, nstate=4, nskip=25, qvel=2.0, ctrl=lambda rng, m: rng.uniform(-0.5, 1.5, m.nu))


def test_curves_match_mujoco_over_their_range():
    prm = np.array([0.6, 1.2, 30, 200, 0.4, 1.8, 2.0, 1.5, 1.4])
    lr, acc0 = np.array([0.15, 0.4]), 3.0
    L0 = (lr[1] - lr[0]) / (prm[1] - prm[0])
    for length in np.linspace(lr[0] - 0.4 * L0, lr[1] + 1.2 * L0, 57):      # every piece of FL and FP
        for velocity in np.linspace(-3, 3, 13) * L0 * prm[6]:                  # every piece of FV
            assert muscle_gain(length, velocity, lr, acc0, prm) == pytest.approx(
                mujoco.mju_muscleGain(length, velocity, lr, acc0, prm), abs=1e-12)
        assert muscle_bias(length, lr, acc0, prm) == pytest.approx(mujoco.mju_muscleBias(length, lr, acc0, prm),
                                                                   abs=1e-12)
    scaled = prm.copy(); scaled[2] = -1                                         # force from scale / acc0
    assert muscle_gain(0.3, 0.0, lr, acc0, scaled) == pytest.approx(mujoco.mju_muscleGain(0.3, 0.0, lr, acc0, scaled))


@pytest.mark.parametrize("tausmooth", [0.0, 0.3])
def test_activation_dynamics_match_mujoco(tausmooth):
    dynprm = np.array([0.01, 0.04, tausmooth])
    for ctrl in np.linspace(-0.5, 1.5, 21):
        for act in np.linspace(-0.2, 1.2, 15):
            assert muscle_dynamics(ctrl, act, dynprm) == pytest.approx(mujoco.mju_muscleDynamics(ctrl, act, dynprm),
                                                                       rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("attributes, message", [
    ('joint="j"', "did not converge"),                    # the hinge has no limit: no range to find
    ('joint="j" lengthrange="1 0"', "did not converge"),
    ('joint="j" lengthrange="0 1" tausmooth="-1"', "tausmooth cannot be negative"),
    ('site="s" lengthrange="0 1"', "unknown attribute 'site'"),
])
def test_muscles_mujoco_would_compute_or_reject_are_refused(attributes, message):
    xml = f"""<mujoco><compiler><lengthrange timestep="0.05" inttotal="1" interval="0.5"/></compiler>
      <worldbody><body><joint name="j"/><geom size=".1" pos=".2 0 0"/><site name="s"/></body>
      </worldbody><actuator><muscle {attributes}/></actuator></mujoco>"""
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(ModelError, match=message):
        rbd.load_model(xml)


def test_the_arm_exercises_the_muscles():
    """Not a vacuous comparison: along the trajectory the muscles pull, activations move
    both ways and the passive force is felt."""
    m, d, model, data = check(ARM, "Euler", nstate=1, nskip=40, qvel=2.0,
                              ctrl=lambda rng, m: rng.uniform(-0.5, 1.5, m.nu))
    assert np.all(np.abs(data.actuator_force) > 1e-3) and np.ptp(data.act_dot) > 1.0


LIMITS = """<mujoco><compiler angle="degree">{compiler}</compiler><worldbody>
  <site name="a" pos="0 0 0.2"/>
  <body><joint name="j" range="-60 45"/><geom size=".1" pos=".2 0 0"/><site name="b" pos="0.2 0 0"/>
    <body pos="0.3 0 0"><joint name="free" axis="0 1 0"/><geom size=".05"/></body></body></worldbody>
  <tendon><spatial name="t" range="0.1 0.5"><site site="a"/><site site="b"/></spatial></tendon>
  <actuator><muscle joint="j"/><muscle tendon="t"/><muscle joint="j" lengthrange="-0.5 0.5"/>
    <motor joint="j"/>{extra}</actuator></mujoco>"""


@pytest.mark.parametrize("compiler, extra", [
    ('<lengthrange uselimit="true"/>', ""),
    ('<lengthrange uselimit="true" useexisting="false"/>', ""),
    ('<lengthrange mode="all" uselimit="true"/>', '<motor tendon="t" lengthrange="0.2 0.3"/>'),
    ('<lengthrange mode="none"/>', '<muscle joint="free"/>'),
    ('<lengthrange mode="muscleuser" uselimit="true" accel="10"/>', ""),
])
def test_length_ranges_from_the_compiler_settings_match_mujoco(compiler, extra):
    xml = LIMITS.format(compiler=compiler, extra=extra)
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    np.testing.assert_allclose(model.actuator_lengthrange, m.actuator_lengthrange, rtol=0, atol=1e-12)


@pytest.mark.parametrize("compiler, extra", [
    ('<lengthrange mode="all" uselimit="true" inttotal="1" interval="0.5" timestep="0.05"/>', '<motor joint="free"/>'),
    ('<lengthrange uselimit="true" inttotal="1" interval="0.5" timestep="0.05"/>', '<muscle joint="free"/>'),
])
def test_length_ranges_that_do_not_settle_are_refused_as_mujoco(compiler, extra):
    """A free hinge: the simulation (rbdl_edu.simulation.lengthrange) never settles."""
    xml = LIMITS.format(compiler=compiler, extra=extra)
    with pytest.raises(ValueError, match="did not converge"):
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(ModelError, match="did not converge"):
        rbd.load_model(xml)
