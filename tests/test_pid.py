"""MuJoCo 4.0's PID servo (``<pid>``, and ``<general gaintype="pid">``) against
``mujoco==4.0.0``: one actuator with up to three controls (``input``: position and velocity
setpoints, a feedforward), its slew-limited setpoint and its integral as states.

* the compiled model: ``nu`` (controls) and ``nactuator``, each actuator's block of controls
  (``actuator_ctrladr``/``ctrlnum``) and their ranges (``posrange``/``ctrlrange``,
  ``velrange``, ``ffrange``, ``inheritrange``), the parameters and states, for a table of
  elements; and the same refusal where MuJoCo refuses;
* ``forward`` and ``step`` with each integrator (``feature_oracle.check``) on an arm whose PIDs
  pull on hinges, a slider and a tendon (saturating slew, integral at its ``imax``, an
  ``actearly`` integral clamped by ``actrange``, a forcerange), and on two angles that wrap
  (a site with a rotational gear about a reference site; setpoints beyond +-pi);
* ``data.actuator(name).ctrl``, a bad control named by its actuator, the export round trip,
  the printed model (``mj_printModel``'s rows of each control).
"""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from feature_oracle import ALL_INTEGRATORS, check, refused_as_mujoco

import rbdl_edu as rbd
from rbdl_edu.io import to_mjcf

ONE = """<mujoco><worldbody><body><joint name="j" range="-1 2"/><geom size=".1" pos="0 0 .3"/></body></worldbody>
  <actuator>{}</actuator></mujoco>"""

FIELDS = ("actuator_dyntype", "actuator_gaintype", "actuator_biastype", "actuator_gainprm", "actuator_biasprm",
          "actuator_dynprm", "actuator_ctrlspec", "actuator_ctrlnum", "actuator_ctrladr", "actuator_ctrllimited",
          "actuator_ctrlrange", "actuator_actnum", "actuator_actadr", "actuator_actearly", "actuator_actlimited",
          "actuator_forcelimited", "actuator_forcerange")

COMPILED = [
    '<pid joint="j"/>',
    '<pid joint="j" kp="5" kv="2"/>',
    '<pid joint="j" kp="5" dampratio="1"/>',
    '<pid joint="j" kp="5" ki="3"/>',
    '<pid joint="j" kp="5" ki="3" imax="0.5" slewmax="2"/>',
    '<pid joint="j" kp="5" slewmax="2"/>',
    '<pid joint="j" kp="5" imax="2"/>',
    '<pid joint="j" input="pos"/>', '<pid joint="j" input="vel"/>', '<pid joint="j" input="ff"/>',
    '<pid joint="j" ctrlrange="-1 1" velrange="-2 2" ffrange="-3 3" input="pos vel ff"/>',
    '<pid joint="j" posrange="-1 1" ctrlrange="-2 2"/>',
    '<pid joint="j" velrange="1 -1"/>',
    '<pid joint="j" inheritrange="1"/>', '<pid joint="j" inheritrange="1" input="vel"/>',
    '<pid joint="j" forcerange="-1 1"/>',
    '<general joint="j" gaintype="pid" biastype="affine" dyntype="pid" gainprm="2" dynprm="0.5 3" '
    'biasprm="0 -3 -1" actearly="true" actlimited="true" actrange="-1 1"/>',
    '<general joint="j" gaintype="pid" biastype="affine" gainprm="0" input="pos ff" biasprm="0 -3 -1" '
    'ffrange="-1 1" ctrlrange="-4 4"/>',
    '<motor joint="j"/><pid joint="j" input="pos ff" ki="1" slewmax="3"/><position joint="j"/>',
]


@pytest.mark.parametrize("actuators", COMPILED)
def test_compiled_pid_matches_mujoco(actuators):
    xml = ONE.format(actuators)
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    assert (model.nu, model.nactuator, model.na) == (m.nu, m.nactuator, m.na)
    for name in FIELDS:
        ours, theirs = np.asarray(getattr(model, name), float), np.asarray(getattr(m, name), float)
        np.testing.assert_allclose(ours, theirs.reshape(ours.shape), rtol=1e-12, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("actuator, message", [
    ('<pid joint="j" input="vel pos"/>', "canonical order"),
    ('<pid joint="j" input="pos voltage"/>', "pid inputs are a subset of"),
    ('<pid joint="j" input="none"/>', "pid inputs are a subset of"),
    ('<pid joint="j" input="vel" ki="1"/>', "require the pos input"),
    ('<pid joint="j" ki="1" actearly="true"/>', "actearly"),
    ('<pid joint="j" dampratio="1" kv="1"/>', "kv or dampratio"),
    ('<pid joint="j" kv="-1"/>', "kv cannot be negative"),
    ('<pid joint="j" slewmax="-1"/>', "slewmax cannot be negative"),
    ('<pid joint="j" posrange="-1 1" inheritrange="1"/>', "inheritrange"),
    ('<general joint="j" gaintype="pid" biastype="affine" biasprm="0 -3 -1"/>', "requires dyntype 'pid'"),
    ('<general joint="j" gaintype="pid" biastype="none" gainprm="0"/>', "requires biastype 'affine'"),
    ('<general joint="j" dyntype="pid" gainprm="2"/>', "requires gaintype 'pid'"),
    ('<general joint="j" gaintype="pid" biastype="affine" dyntype="pid" gainprm="2" actdim="2"/>', "actdim"),
    ('<general joint="j" gaintype="pid" biastype="affine" dyntype="pid" gainprm="0" dynprm="0 0"/>', "actdim 0"),
])
def test_what_mujoco_refuses_is_refused_by_name(actuator, message):
    refused_as_mujoco(ONE.format(actuator), message)


ARM = """<mujoco model="pid arm"><option timestep="0.002"/>
  <worldbody>
    <body name="upper"><joint name="shoulder" axis="0 1 0" damping="0.01" range="-2 2"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
      <body name="fore" pos=".3 0 0"><joint name="elbow" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 .2 0 0" size=".02"/>
        <body name="wrist" pos=".2 0 0"><joint name="wrist" axis="0 0 1"/>
          <geom type="box" size=".06 .04 .02"/>
          <body name="slider" pos=".05 0 0"><joint name="slide" type="slide" axis="1 0 0"/>
            <geom type="sphere" size=".02"/></body></body></body></body>
  </worldbody>
  <tendon><fixed name="t"><joint joint="elbow" coef="1"/><joint joint="wrist" coef="-0.5"/></fixed></tendon>
  <actuator>
    <pid name="plain" joint="shoulder" kp="3" kv=".2"/>
    <pid name="full" joint="elbow" kp="2" dampratio=".7" ki="4" imax=".0002" slewmax="3" input="pos vel ff"
         posrange="-1 1" velrange="-2 2" ffrange="-.5 .5" forcerange="-1 1"/>
    <pid name="tendon" tendon="t" kp="1" kv=".05" ki="2" input="pos ff"/>
    <pid name="slew" joint="slide" kp="10" kv="1" slewmax="0.5" gear="2"/>
    <general name="early" joint="wrist" gaintype="pid" biastype="affine" dyntype="pid" gainprm="1.5"
             dynprm="0.02 4" biasprm="0 -.5 -.05" actearly="true" actlimited="true" actrange="-.003 .003"/>
    <pid name="vel" joint="wrist" kv=".1" input="vel"/>
  </actuator>
  <sensor><actuatorfrc actuator="full"/><actuatorpos actuator="tendon"/></sensor>
</mujoco>"""

WRAP = """<mujoco model="pid on angles"><option timestep="0.002"/>
  <worldbody>
    <body name="a"><joint name="ball" type="ball" damping=".01"/><geom type="capsule" fromto="0 0 0 .2 0 0" size=".03"/>
      <site name="ref"/>
      <body name="b" pos=".2 0 0"><joint name="h" axis="0 0 1"/><geom type="box" size=".05 .03 .02"/>
        <site name="s" pos=".02 0 0"/></body></body>
  </worldbody>
  <actuator>
    <pid joint="h" kp=".3" kv=".01" ki=".5" slewmax="20"/>
    <pid site="s" refsite="ref" gear="0 0 0 0 0 1" kp=".2" kv=".01" ki="1" slewmax="30"/>
  </actuator>
</mujoco>"""


def test_every_model_field_matches_mujoco():
    """The arm, the angles and the multi-input DC motors: every array with MuJoCo's name
    (``acc0`` and the damping a ``dampratio`` gives included), sizes and names."""
    from mujoco_oracle import compare_fields
    from test_dcmotor import MULTI
    for xml in (ARM, WRAP, MULTI):
        compare_fields(rbd.load_model(xml), mujoco.MjModel.from_xml_string(xml))


@pytest.mark.parametrize("integrator", list(ALL_INTEGRATORS))
def test_pid_arm_forward_and_step_match_mujoco(integrator):
    """Setpoints over +-1.5 (the elbow's clamped by its ranges): the slew limits saturate,
    the integrals run into ``imax`` and ``actrange`` (which holds the slew state too), the
    elbow's force into its range."""
    m, d, model, data = check(ARM, integrator, nstate=3, nskip=15, qvel=1.0)
    assert (model.nu, model.nactuator) == (12, 6)
    # (the last state compared did what the docstring says, so the comparison covered it)
    full, early = (int(model.actuator_actadr[model.id("actuator", n)]) for n in ("full", "early"))
    assert abs(data.act[full + 1]) >= 0.0002 and data.act_dot[full + 1] == 0     # the integral held at imax
    assert abs(data.act_dot[full]) == pytest.approx(3.0)                                        # the setpoint's slew limit
    assert abs(data.act[early]) == 0.003                                          # actrange
    assert abs(data.actuator_force[model.id("actuator", "full")]) == 1.0          # forcerange


@pytest.mark.parametrize("integrator", list(ALL_INTEGRATORS))
def test_pid_on_wrapping_angles_matches_mujoco(integrator):
    """Setpoints in +-4 rad: on the site's rotation (period 2 pi) the servo and its integral
    take the error the short way round; the hinge's (no period) the long way."""
    check(WRAP, integrator, nstate=3, nskip=15, qvel=1.0, ctrl=lambda rng, m: rng.uniform(-4, 4, m.nu))


def test_actuator_record_ctrl_is_the_block_of_controls():
    """``data.actuator(name).ctrl`` is the actuator's block of controls, as MuJoCo's bindings."""
    m, model = mujoco.MjModel.from_xml_string(ARM), rbd.load_model(ARM)
    d, data = mujoco.MjData(m), rbd.Data(model)
    d.ctrl[:] = data.ctrl[:] = np.arange(model.nu, dtype=float)
    for name in ("plain", "full", "tendon", "vel"):
        np.testing.assert_array_equal(np.atleast_1d(data.actuator(name).ctrl), np.atleast_1d(d.actuator(name).ctrl))
    data.actuator("full").ctrl = [7.0, 8.0, 9.0]
    assert list(data.ctrl[2:5]) == [7.0, 8.0, 9.0]


def test_bad_control_names_its_actuator():
    model = rbd.load_model(ARM)
    data = rbd.Data(model)
    data.ctrl[model.actuator_ctrladr[model.id("actuator", "tendon")] + 1] = 1e11     # its feedforward
    with pytest.raises(ValueError, match="bad control for actuator.s. tendon:"):
        rbd.forward(model, data)


def test_export_round_trip_keeps_the_pid():
    """``to_mjcf`` writes each PID as ``<general gaintype="pid">`` with its inputs and ranges;
    MuJoCo and rbdl_edu load it back to the same actuators."""
    model = rbd.load_model(ARM)
    text = to_mjcf(model)
    again, m = rbd.load_model(text), mujoco.MjModel.from_xml_string(text)
    for name in FIELDS:
        np.testing.assert_array_equal(np.asarray(getattr(again, name), float), np.asarray(getattr(model, name), float),
                                      err_msg=name)
        np.testing.assert_allclose(np.asarray(getattr(m, name), float).reshape(np.shape(getattr(model, name))),
                                   np.asarray(getattr(model, name), float), rtol=1e-12, atol=1e-12, err_msg=name)


def test_compiled_step_with_pids_equals_numpy():
    """``compiled.jit(model, pure_step)`` traces the PIDs' controls and states as the NumPy
    step computes them (the JAX extra; without it this test is skipped, as test_jax.py)."""
    pytest.importorskip("jax")
    from rbdl_edu import compiled
    from rbdl_edu.simulation.step import pure_step
    model = rbd.load_model(ARM.replace('<option timestep="0.002"/>',
                                       '<option timestep="0.002"><flag constraint="disable"/></option>'))
    rng = np.random.default_rng(1)
    state = (model.qpos0 + 0.1, rng.normal(size=model.nv), 0.01 * rng.normal(size=model.na),
             rng.uniform(-1, 1, model.nu))
    for ours, numpy in zip(compiled.jit(model, pure_step)(*state), pure_step(model, *state)):
        np.testing.assert_allclose(np.asarray(ours), numpy, rtol=1e-12, atol=1e-12)


def test_printed_actuator_lists_each_controls_range_as_mujoco(tmp_path):
    from rbdl_edu.model.printing import object_text
    m = mujoco.MjModel.from_xml_string(ARM)
    mujoco.mj_printModel(m, str(tmp_path / "mujoco.txt"))
    theirs = (tmp_path / "mujoco.txt").read_text().split("ACTUATOR 1:")[1].split("\n\n")[0]
    ours = object_text(rbd.load_model(ARM), "actuator", 1)
    def rows(text):
        return [ln.split() for ln in text.splitlines() if ln.split()[:1] in (["actuator_ctrllimited"],
                                                                           ["actuator_ctrlrange"])]
    assert len(rows(ours)) == 6 and rows(ours) == rows(theirs)       # three controls: pos, vel, ff


def test_spec_from_model_compiles_back_to_the_same_controls():
    """``ModelSpec.from_model`` keeps what made each block of controls (a PID's ``ctrlrange``,
    ``velrange``, ``ffrange``; a DC motor's inputs), so the spec compiles back to the model's."""
    from rbdl_edu.model.spec import ModelSpec
    model = rbd.load_model(ARM)
    again = ModelSpec.from_model(model).compile()
    for name in FIELDS + ("actuator_gear", "actuator_trnid"):
        np.testing.assert_array_equal(np.asarray(getattr(again, name), float), np.asarray(getattr(model, name), float),
                                      err_msg=name)


DEFAULTS = """<mujoco><default>{}</default><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>
  <actuator>{}</actuator></mujoco>"""


@pytest.mark.parametrize("default, actuators", [
    ('<pid kp="5" ki="1" slewmax="2" input="pos vel ff" velrange="-1 1" gear="3"/>', '<pid joint="j"/>'),
    ('<pid kp="5" ki="1" imax=".3"/>', '<pid joint="j" ki="0"/>'),
    ('<pid dampratio="1"/>', '<pid joint="j" kv="2"/>'),
    ('<pid kv="1"/>', '<pid joint="j" dampratio=".5"/>'),
    ('<position kp="5" kv="1"/>', '<pid joint="j"/>'),
    ('<pid kp="7" ki="1" gear="3"/>', '<position joint="j"/><pid joint="j"/>'),
    ('<pid kp="3"/><default class="a"><pid kv="2"/></default>', '<pid joint="j" class="a"/>')])
def test_defaults_match_mujoco(default, actuators):
    """A class's ``<pid>`` gains are the PIDs' alone (a ``<position kp>`` default does not
    reach a PID, nor a PID's a servo), the element's ``kv`` or ``dampratio`` replaces the
    class's; ranges and gears are shared by every kind, as MuJoCo 4.0."""
    xml = DEFAULTS.format(default, actuators)
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    for name in FIELDS + ("actuator_gear",):
        ours, theirs = np.asarray(getattr(model, name), float), np.asarray(getattr(m, name), float)
        np.testing.assert_allclose(ours, theirs.reshape(ours.shape), rtol=1e-12, atol=1e-12, err_msg=name)


def test_keyframes_hold_every_control_and_state():
    """A keyframe's ``ctrl`` has one number per control (``nu``), its ``act`` one per state
    (``na``: a PID's slew and integral, a DC motor's several), as MuJoCo 4.0; a shorter one
    is completed with zeros."""
    xml = """<mujoco><worldbody><body><joint name="j"/><geom size=".1" pos=".2 0 0"/></body></worldbody>
      <actuator><motor joint="j"/><pid joint="j" kp="3" ki="1" slewmax="5" input="pos vel ff"/>
        <dcmotor joint="j" resistance="1" motorconst=".05" input="pos vel" controller="2 1.5 .1 20"
                 inductance=".005"/></actuator>
      <keyframe><key ctrl="1 2 3 4 5 6" act="0.1 0.2 0.3 0.4 0.5"/><key ctrl="1"/></keyframe></mujoco>"""
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    assert (model.nu, model.na) == (m.nu, m.na) == (6, 5)
    np.testing.assert_array_equal(model.key_ctrl, m.key_ctrl)
    np.testing.assert_array_equal(model.key_act, m.key_act)
