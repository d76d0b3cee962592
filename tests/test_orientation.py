"""MuJoCo 4.0's SO(3) servo (``<orientation>``, and ``<general gaintype="so3" biastype="so3">``)
against ``mujoco==4.0.0``: one actuator with 3 or 4 controls and three force outputs.

* the compiled model: ``nout``, ``actuator_outadr``/``outnum``, the per-output arrays
  (``gear``, ``acc0``, ``length0``, ``lengthrange``), the controls (``input``: expmap,
  quat), gains, the damping a ``dampratio`` gives, the states of an integrator, the defaults
  of a class, for a table of elements; the same refusal where MuJoCo refuses;
* ``forward`` and ``step`` with each integrator (``feature_oracle.check``) on a ball joint, a
  site on a chain relative to a reference site on it (shared dofs), a quaternion target, a
  norm-bounded torque, an integrated rotation vector (``actearly``, ``actrange``) whose angle
  passes pi and is re-anchored, beside single-output actuators and with actuator sensors;
  the moment rows; an actuator group switched off;
* the records (``data.actuator(name).force``, ``model.actuator(name).gear``) as MuJoCo's
  bindings, the export round trip, the printed model, the refusals (``accelerate``, the
  length-range search).
"""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from feature_oracle import ALL_INTEGRATORS, check, refused_as_mujoco

import rbdl_edu as rbd
from rbdl_edu.io import ModelError, to_mjcf

ONE = """<mujoco><default><default class="c"><orientation kp="4" dampratio=".5" input="quat"/></default></default>
  <worldbody><site name="r" quat="1 .2 0 0"/>
  <body name="a" pos="0 0 .1"><joint name="b" type="ball"/><geom size=".1" pos=".2 0 0"/>
    <site name="s" quat="1 0 .3 0"/>
    <body pos=".3 0 0"><joint name="h" axis="0 1 0"/><geom size=".05" pos=".1 .05 0"/><site name="t"/></body></body>
  </worldbody><actuator>{}</actuator></mujoco>"""

FIELDS = ("actuator_trntype", "actuator_trnid", "actuator_dyntype", "actuator_gaintype", "actuator_biastype",
          "actuator_gainprm", "actuator_biasprm", "actuator_dynprm", "actuator_ctrlspec", "actuator_ctrlnum",
          "actuator_ctrladr", "actuator_ctrllimited", "actuator_ctrlrange", "actuator_outadr", "actuator_outnum",
          "actuator_actnum", "actuator_actadr", "actuator_actearly", "actuator_actlimited", "actuator_actrange",
          "actuator_forcelimited", "actuator_forcerange", "actuator_gear", "actuator_acc0", "actuator_length0",
          "actuator_lengthrange", "actuator_group")

COMPILED = [
    '<orientation joint="b"/>',
    '<orientation joint="b" kp="2" kv=".1"/>',
    '<orientation joint="b" kp="2" dampratio="1"/>',
    '<orientation joint="b" input="quat" ctrlrange="-1 1"/>',
    '<orientation joint="b" input="expmap" forcerange="0 .5" group="2"/>',
    '<orientation joint="b" input="pos"/>', '<orientation joint="b" input="vel"/>',
    '<orientation site="s" refsite="r" kp="3" dampratio=".7"/>',
    '<orientation site="t" refsite="s" kp="3" dampratio=".7"/>',
    '<orientation class="c" joint="b"/>', '<orientation class="c" joint="b" kv="1"/>',
    '<orientation class="c" site="t" refsite="r" kp="2"/>',
    '<motor joint="h"/><orientation joint="b" kp="2"/><position joint="h" kp="3" dampratio="1"/>',
    '<general joint="b" gaintype="so3" biastype="so3" gainprm="2" biasprm="0 -2 -.1" gear="2 3" lengthrange="0 1"/>',
    '<general joint="b" gaintype="so3" biastype="so3" gainprm="2" biasprm="0 -2 -.1" input="quat"/>',
    '<general joint="b" gaintype="so3" biastype="so3" gainprm="2" biasprm="0 -2 -.1" dyntype="integrator" '
    'actrange="-1 1" actearly="true"/><motor joint="h"/>',
]


@pytest.mark.parametrize("actuators", COMPILED)
def test_compiled_orientation_matches_mujoco(actuators):
    xml = ONE.format(actuators)
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    assert (model.nu, model.nactuator, model.na, model.nout) == (m.nu, m.nactuator, m.na, m.nout)
    for name in FIELDS:
        ours, theirs = np.asarray(getattr(model, name), float), np.asarray(getattr(m, name), float)
        np.testing.assert_allclose(ours, theirs.reshape(ours.shape), rtol=1e-12, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("default, gains", [('<position kp="5" kv="2" ctrlrange="-1 1"/>', (1, 5)),
                                             ('<orientation kp="7" kv="2" ctrlrange="-1 1"/>', (7, 1))])
def test_a_position_default_does_not_set_the_servo_gains(default, gains):
    """MuJoCo 4.0: ``<position kp>`` in a default reaches positions, not the SO(3) servo, and an
    ``<orientation kp>`` default not the positions; the shared attributes reach both."""
    xml = f"""<mujoco><default>{default}</default>
      <worldbody><body><joint name="b" type="ball"/><geom size=".1"/><body pos=".3 0 0"><joint name="h"/>
      <geom size=".1"/></body></body></worldbody>
      <actuator><orientation joint="b"/><position joint="h"/></actuator></mujoco>"""
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    assert tuple(model.actuator_gainprm[:, 0]) == gains and model.actuator_ctrllimited.all()
    for name in ("actuator_gainprm", "actuator_biasprm", "actuator_ctrllimited", "actuator_ctrlrange"):
        np.testing.assert_array_equal(getattr(model, name), getattr(m, name), err_msg=name)


@pytest.mark.parametrize("actuator, message", [
    ('<orientation site="s" kp="2"/>', "requires refsite"),
    ('<orientation joint="h"/>', "requires a ball joint"),
    ('<orientation joint="b" forcerange="-1 1"/>', "lower bound must be 0"),
    ('<orientation joint="b" kv="1" dampratio="1"/>', "kv or dampratio"),
    ('<orientation joint="b" input="pos vel"/>', "expmap or quat"),
    ('<orientation joint="b" input="none"/>', "expmap or quat"),
    ('<orientation joint="b" gear="2"/>', "gear"),
    ('<general joint="b" gaintype="so3" biastype="affine" gainprm="2" biasprm="0 -2"/>', "both be 'so3'"),
    ('<general joint="b" gaintype="so3" biastype="so3" gainprm="2" biasprm="0 -3"/>', "gainprm.0. == -biasprm.1."),
    ('<general joint="b" gaintype="so3" biastype="so3" gainprm="2" biasprm="0 -2" dyntype="filter"/>',
     "dyntype 'none' or 'integrator'"),
    ('<general joint="b" gaintype="so3" biastype="so3" gainprm="2" biasprm="0 -2" dyntype="integrator" '
     'actdim="1"/>', "actdim 3"),
    ('<general joint="b" gaintype="so3" biastype="so3" gainprm="2" biasprm="0 -2" dyntype="integrator" '
     'input="quat"/>', "quat input requires dyntype 'none'"),
    ('<general jointinparent="b" gaintype="so3" biastype="so3" gainprm="2" biasprm="0 -2"/>', "site or ball joint"),
])
def test_what_mujoco_refuses_is_refused_by_name(actuator, message):
    refused_as_mujoco(ONE.format(actuator), message)


SERVOS = """<mujoco model="orientation servos"><option timestep="0.002"/>
  <worldbody><site name="ref" quat="1 .2 0 0"/>
    <body name="a" pos="0 0 .1"><joint name="ball" type="ball" damping=".01"/>
      <geom type="capsule" fromto="0 0 0 .2 0 0" size=".03"/><site name="base" quat="1 0 .3 0"/>
      <body name="b" pos=".2 0 0"><joint name="h" axis="0 1 0" damping=".01"/>
        <geom type="box" size=".05 .03 .02" pos=".05 0 0"/>
        <body name="c" pos=".1 0 0"><joint name="wrist" type="ball" damping=".01"/>
          <geom type="box" size=".03 .02 .04" pos=".03 .01 0"/><site name="tool" pos=".05 0 0"/></body></body></body>
    <body name="free" pos="1 0 .5"><freejoint/><geom type="box" size=".1 .05 .03"/><site name="fs"/></body>
  </worldbody>
  <actuator>
    <motor name="m" joint="h" gear="2"/>
    <orientation name="ball" joint="ball" kp=".5" kv=".02" forcerange="0 .3"/>
    <orientation name="tool" site="tool" refsite="base" kp=".2" dampratio=".8" input="quat"/>
    <position name="p" joint="h" kp="1" kv=".05"/>
    <general name="int" site="fs" refsite="ref" gaintype="so3" biastype="so3" dyntype="integrator" gainprm=".4"
             biasprm="0 -.4 -.05" actearly="true" actlimited="true" actrange="-2.9 2.9"/>
    <general name="int2" joint="wrist" gaintype="so3" biastype="so3" dyntype="integrator" gainprm=".1"
             biasprm="0 -.1 -.01"/>
  </actuator>
  <sensor><actuatorpos actuator="ball"/><actuatorvel actuator="tool"/><actuatorfrc actuator="int"/>
    <actuatorfrc actuator="m"/><actuatorpos actuator="p"/></sensor>
</mujoco>"""


def _controls(rng, m):
    """Targets up to 4 rad (beyond pi: the short way round), a quaternion of any norm; the
    last servo's rotation vector integrated at 30 rad/s so that its angle passes pi."""
    u = rng.uniform(-4, 4, m.nu)
    u[-3:] = 30 + rng.uniform(-5, 5, 3)
    return u


@pytest.mark.parametrize("integrator", list(ALL_INTEGRATORS))
def test_servos_forward_and_step_match_mujoco(integrator):
    m, d, model, data = check(SERVOS, integrator, nstate=3, nskip=15, qvel=1.0, ctrl=_controls)
    assert (model.nu, model.nactuator, model.nout, model.na) == (m.nu, 6, 14, 6)
    # the moment rows, dense (MuJoCo's are sparse)
    M = np.zeros((m.nout, m.nv))
    mujoco.mju_sparse2dense(M, d.actuator_moment, d.moment_rownnz, d.moment_rowadr, d.moment_colind)
    np.testing.assert_allclose(data.actuator_moment, M, rtol=0, atol=1e-12)
    # what the docstring promises happened: the bounded torque, the re-anchored rotation vector
    ball, last = (int(model.actuator_outadr[model.id("actuator", n)]) for n in ("ball", "int2"))
    assert np.linalg.norm(data.actuator_force[ball:ball + 3]) == pytest.approx(0.3, abs=1e-12)
    # (integrated from zero at >= 25 rad/s per axis: negative only after passing pi and turning back)
    assert np.linalg.norm(data.act[-3:]) <= np.pi and np.all(data.act[-3:] < 0)


def test_reanchored_rotation_vector_matches_mujoco():
    """A state of angle just below pi pushed past it by one step: MuJoCo keeps the same
    rotation with angle in [-pi, pi], and so do we."""
    m, model = mujoco.MjModel.from_xml_string(SERVOS), rbd.load_model(SERVOS)
    d, data = mujoco.MjData(m), rbd.Data(model)
    d.act[:] = data.act[:] = [0.5, -1.0, 2.0, 3.1, 0.0, 0.0]
    d.ctrl[:] = data.ctrl[:] = np.r_[np.zeros(m.nu - 3), 40.0, 0.0, 0.0]
    mujoco.mj_step(m, d)
    rbd.step(model, data)
    assert d.act[3] < 0
    np.testing.assert_allclose(data.act, d.act, rtol=0, atol=1e-14)


def test_a_group_switched_off_gives_no_torque():
    xml = SERVOS.replace('<option timestep="0.002"/>', '<option timestep="0.002" actuatorgroupdisable="2"/>')
    xml = xml.replace('name="ball" joint="ball"', 'name="ball" joint="ball" group="2"')
    fields = ("qacc", "qfrc_actuator", "actuator_force", "act_dot", "qpos", "qvel", "act")
    _, _, model, data = check(xml, "implicitfast", nstate=2, nskip=5, ctrl=_controls, fields=fields)
    o = model.actuator_outadr[model.id("actuator", "ball")]
    assert not data.actuator_force[o:o + 3].any()


def test_every_model_field_matches_mujoco():
    from mujoco_oracle import compare_fields
    compare_fields(rbd.load_model(SERVOS), mujoco.MjModel.from_xml_string(SERVOS))


def test_records_are_the_blocks_of_outputs():
    """``data.actuator(name)`` and ``model.actuator(name)`` give an SO(3) servo's three rows,
    as MuJoCo's bindings."""
    m, model = mujoco.MjModel.from_xml_string(SERVOS), rbd.load_model(SERVOS)
    d, data = mujoco.MjData(m), rbd.Data(model)
    d.ctrl[:] = data.ctrl[:] = np.linspace(-1, 1, m.nu)
    mujoco.mj_forward(m, d)
    rbd.forward(model, data)
    for name in ("m", "ball", "tool", "p"):
        for field in ("force", "length", "velocity", "ctrl"):
            np.testing.assert_allclose(np.atleast_1d(getattr(data.actuator(name), field)),
                                       np.atleast_1d(getattr(d.actuator(name), field)), atol=1e-12, err_msg=field)
        for field in ("gear", "acc0", "length0", "gainprm"):
            np.testing.assert_allclose(np.atleast_1d(getattr(model.actuator(name), field)),
                                       np.atleast_1d(getattr(m.actuator(name), field)), atol=1e-12, err_msg=field)
    assert data.actuator("ball").force.shape == (3,) and model.actuator("ball").gear.shape == (3, 6)


def test_export_round_trip_keeps_the_servos():
    """``to_mjcf`` writes each servo as ``<general gaintype="so3">`` with its target, input and
    bound; MuJoCo and rbdl_edu load it back to the same actuators."""
    model = rbd.load_model(SERVOS)
    text = to_mjcf(model)
    again, m = rbd.load_model(text), mujoco.MjModel.from_xml_string(text)
    for name in FIELDS:
        np.testing.assert_array_equal(np.asarray(getattr(again, name), float), np.asarray(getattr(model, name), float),
                                      err_msg=name)
        np.testing.assert_allclose(np.asarray(getattr(m, name), float).reshape(np.shape(getattr(model, name))),
                                   np.asarray(getattr(model, name), float), rtol=1e-12, atol=1e-12, err_msg=name)


def test_printed_rows_match_mujoco(tmp_path):
    from test_printing import blocks, mujoco_text

    from rbdl_edu.model.printing import model_text
    text = model_text(rbd.load_model(SERVOS), kinds=["actuator"])
    ours, theirs = blocks(text), blocks(mujoco_text(SERVOS, tmp_path))
    for header, rows in ours.items():
        for name, values in rows.items():
            assert values == theirs[header][name], (header, name)
    # one row of gear, acc0, length0 and lengthrange per output
    servo = text.split("ACTUATOR 1:")[1].split("ACTUATOR 2:")[0]
    assert servo.count("actuator_acc0") == 3 and servo.count("actuator_ctrlrange") == 3


def test_refusals_name_the_servo():
    from rbdl_edu.simulation.accelerated import accelerate
    model = rbd.load_model(SERVOS)
    with pytest.raises(ValueError, match="orientation"):
        accelerate(model)
    # (MuJoCo 4.0's search does not converge on it either)
    xml = ONE.format('<orientation joint="b"/>').replace("<mujoco>",
                                                         '<mujoco><compiler><lengthrange mode="all"/></compiler>')
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(ModelError, match="orientation"):
        rbd.load_model(xml)


def test_spec_from_model_keeps_the_servos():
    """``ModelSpec.from_model`` rebuilds the records from the compiled arrays: the servos
    come back (their constants at qpos0 computed again)."""
    from rbdl_edu.setconst import set_const
    model = rbd.load_model(SERVOS)
    again = set_const(rbd.ModelSpec.from_model(model).compile())
    for name in FIELDS:
        np.testing.assert_array_equal(np.asarray(getattr(again, name), float),
                                      np.asarray(getattr(model, name), float), err_msg=name)


def test_a_null_quaternion_target_is_the_identity():
    """``input="quat"`` with all four controls zero: MuJoCo's target is the identity (its
    ``mju_normalize4``), and so is ours; an unnormalized one is normalized."""
    m, model = mujoco.MjModel.from_xml_string(SERVOS), rbd.load_model(SERVOS)
    d, data = mujoco.MjData(m), rbd.Data(model)
    a = int(model.actuator_ctrladr[model.id("actuator", "tool")])
    d.qpos[:] = data.qpos[:] = np.r_[np.sqrt(0.5), np.sqrt(0.5), 0, 0, 0.4, np.sqrt(0.5), 0, 0, np.sqrt(0.5),
                                     1, 0, .5, 1, 0, 0, 0]
    o = int(model.actuator_outadr[model.id("actuator", "tool")])
    for target in ([0.0, 0.0, 0.0, 0.0], [2.0, 0.0, 0.0, 2.0]):
        d.ctrl[a:a + 4] = data.ctrl[a:a + 4] = target
        mujoco.mj_forward(m, d)
        rbd.forward(model, data)
        assert np.any(d.actuator_force[o:o + 3] != 0)
        np.testing.assert_allclose(data.actuator_force, d.actuator_force, rtol=0, atol=1e-13)
