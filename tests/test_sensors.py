"""Sensors against MuJoCo (``mujoco==4.0.0``), and what the sensors stand on.

The story: MuJoCo runs a trajectory with random controls and random pushes
(``xfrc_applied``), constraints switched off; at states along it we put MuJoCo's state and
the outputs of the stages other modules compute (tendon and actuator lengths, velocities
and forces) into our ``Data``, run our kinematics, com frames and the three sensor stages,
and compare ``sensordata`` number by number (1e-8, relative to values above 1).

Models: a scene written for this test that holds every sensor type we compute (with
reference frames, cutoffs, free/ball/hinge/slide joints, a mocap body, actuators and a
tendon), every model in ``models/`` that has sensors, and every gymnasium asset with a
sensor suite added to it: a site on every body and, for every site, body, joint, tendon
and actuator, the sensors that read it.
"""
from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import mujoco
import numpy as np
import pytest
from test_mjcf import GYM, MODELS
from test_sensors_breadth import CAMERAS
from test_sensors_breadth import SCENE as BREADTH

import rbdl_edu as rbd
from rbdl_edu.simulation.rne_post import rne_post_constraint, subtree_vel
from rbdl_edu.smooth.comframe import com_pos, com_vel_acc, to_cframe, to_cframe_force
from rbdl_edu.model.enums import SENSOR_NAMES, SENSORS_NOT_SIMULATED
from rbdl_edu.io import ModelError
from rbdl_edu.kinematics import kinematics
from rbdl_edu.simulation.sensors import _READERS, sensor_acc, sensor_pos, sensor_vel

TOL = 1e-8

SCENE = """<mujoco model="every sensor">
  <option timestep="0.005" magnetic="0.1 -0.4 0.3"/>
  <worldbody>
    <site name="world_site" pos="0.3 0.2 0.1" euler="10 20 30"/>
    <body name="mocap" mocap="true" pos="1 1 1" euler="0 30 0">
      <geom size=".05"/><site name="mocap_site" pos="0.1 0 0" euler="0 0 40"/>
      <body name="hanging" pos="0 0 -0.1"><joint name="swing" axis="1 0 0"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.3" size=".02"/><site name="swing_site" pos="0 0 -0.3"/></body>
    </body>
    <body name="float" pos="0 0 1" euler="5 10 15">
      <joint name="free" type="free" stiffness="1.5"/>
      <geom type="box" size=".2 .1 .05" mass="2"/>
      <site name="imu" pos="0.1 0.05 0" euler="20 -10 45"/>
      <body name="arm" pos="0.2 0 0" euler="0 0 30">
        <joint name="shoulder" type="ball" stiffness="2" damping="0.3"/>
        <geom type="capsule" fromto="0 0 0 0.4 0.05 0" size=".04"/>
        <site name="elbow_site" pos="0.4 0 0" euler="0 90 0"/>
        <body name="forearm" pos="0.4 0 0">
          <joint name="elbow" axis="0 1 0" stiffness="5" springref="20" ref="10" damping="0.2"/>
          <geom name="forearm_geom" type="capsule" fromto="0 0 0 0.3 0 0.02" size=".03"/>
          <body name="slider" pos="0.3 0 0" euler="0 20 0">
            <joint name="slide" type="slide" axis="1 0 0" stiffness="10"/>
            <geom type="ellipsoid" size=".05 .04 .03" mass="0.3"/>
            <site name="tip" pos="0.05 0 0" euler="45 0 0"/>
          </body>
        </body>
      </body>
    </body>
    <body name="pendulum" pos="1 0 2">
      <joint name="hinge" axis="1 0.2 0" damping="0.1" range="-90 90"/>
      <geom type="capsule" fromto="0 0 0 0 0.1 -0.5" size=".03"/>
      <site name="bob" pos="0 0.1 -0.5"/>
      <body name="welded" pos="0 0.1 -0.5" euler="10 0 0">
        <geom type="box" size=".04 .03 .02" pos="0.01 0 0" mass=".2"/>
        <site name="ft" pos="0 0 0.02" euler="0 0 90"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="coupling" stiffness="3" springlength="0.1 0.3" range="-1 1">
      <joint joint="elbow" coef="0.5"/><joint joint="slide" coef="-1"/></fixed>
    <spatial name="cable" stiffness="20" damping="0.5" armature="0.05" springlength="0.6 0.7" range="0 3">
      <site site="world_site"/><site site="imu"/><site site="elbow_site"/><pulley divisor="2"/>
      <site site="elbow_site"/><site site="bob"/></spatial>
  </tendon>
  <actuator>
    <motor name="elbow_motor" joint="elbow" gear="2" ctrlrange="-1 1"/>
    <position name="slide_servo" joint="slide" kp="20" kv="1"/>
    <motor name="tendon_motor" tendon="coupling" ctrlrange="-2 2"/>
    <velocity name="hinge_velocity" joint="hinge" kv="2"/>
    <general name="filtered" joint="hinge" dyntype="filter" dynprm="0.1" gainprm="3"/>
    <motor name="cable_motor" tendon="cable" gear="1.5" ctrlrange="-1 0.5"/>
  </actuator>
  <sensor>
    <jointpos joint="elbow"/><jointpos joint="slide" cutoff="0.05"/><jointpos joint="hinge"/>
    <jointlimitpos joint="hinge"/><jointlimitvel joint="hinge"/><jointlimitfrc joint="hinge"/>
    <tendonlimitpos tendon="coupling"/><tendonlimitvel tendon="cable"/><tendonlimitfrc tendon="cable"/>
    <jointvel joint="hinge"/><jointvel joint="slide" cutoff="0.5"/>
    <ballquat joint="shoulder"/><ballangvel joint="shoulder" cutoff="0.2"/>
    <actuatorpos actuator="elbow_motor"/><actuatorpos actuator="tendon_motor"/>
    <actuatorvel actuator="slide_servo"/><actuatorvel actuator="hinge_velocity" cutoff="0.1"/>
    <actuatorfrc actuator="slide_servo"/><actuatorfrc actuator="filtered" cutoff="0.2"/>
    <actuatorfrc actuator="elbow_motor"/>
    <jointactuatorfrc joint="elbow"/><jointactuatorfrc joint="hinge"/>
    <tendonpos tendon="coupling"/><tendonvel tendon="coupling"/><tendonactuatorfrc tendon="coupling"/>
    <tendonpos tendon="cable"/><tendonvel tendon="cable"/><tendonactuatorfrc tendon="cable"/>
    <actuatorfrc actuator="cable_motor"/>
    <framepos objtype="site" objname="imu"/>
    <framepos objtype="body" objname="arm" reftype="site" refname="imu"/>
    <framepos objtype="xbody" objname="forearm" reftype="xbody" refname="pendulum"/>
    <framepos objtype="geom" objname="forearm_geom" reftype="body" refname="float" cutoff="0.3"/>
    <framequat objtype="site" objname="tip"/><framequat objtype="body" objname="arm"/>
    <framequat objtype="body" objname="arm" reftype="geom" refname="forearm_geom"/>
    <framequat objtype="xbody" objname="slider" reftype="site" refname="world_site"/>
    <framequat objtype="geom" objname="forearm_geom" reftype="body" refname="welded"/>
    <framexaxis objtype="site" objname="tip"/><frameyaxis objtype="body" objname="forearm"/>
    <framezaxis objtype="xbody" objname="arm" reftype="site" refname="bob"/>
    <framexaxis objtype="geom" objname="forearm_geom" reftype="xbody" refname="float"/>
    <framelinvel objtype="site" objname="tip"/><frameangvel objtype="body" objname="forearm"/>
    <framelinvel objtype="body" objname="slider" reftype="site" refname="imu" cutoff="1.5"/>
    <frameangvel objtype="geom" objname="forearm_geom" reftype="xbody" refname="pendulum"/>
    <framelinvel objtype="xbody" objname="welded" reftype="body" refname="arm"/>
    <framelinacc objtype="site" objname="tip"/><framelinacc objtype="body" objname="arm" cutoff="5"/>
    <frameangacc objtype="xbody" objname="forearm"/><frameangacc objtype="geom" objname="forearm_geom"/>
    <framelinacc objtype="site" objname="mocap_site"/>
    <subtreecom body="float"/><subtreecom body="world"/><subtreecom body="arm"/>
    <subtreelinvel body="float"/><subtreelinvel body="forearm" cutoff="0.4"/><subtreelinvel body="world"/>
    <subtreeangmom body="float"/><subtreeangmom body="pendulum"/><subtreeangmom body="world"/>
    <accelerometer site="imu"/><accelerometer site="tip" cutoff="8"/>
    <accelerometer site="world_site"/><accelerometer site="mocap_site"/><accelerometer site="ft"/>
    <gyro site="imu"/><gyro site="tip" cutoff="0.3"/><velocimeter site="imu"/><velocimeter site="bob"/>
    <magnetometer site="imu"/><magnetometer site="world_site" cutoff="0.2"/>
    <force site="ft"/><torque site="ft"/><force site="elbow_site" cutoff="3"/><torque site="elbow_site"/>
    <force site="imu"/><torque site="tip"/><force site="world_site"/><torque site="world_site"/>
    <force site="swing_site"/><torque site="swing_site"/><accelerometer site="swing_site"/>
    <framequat objtype="site" objname="mocap_site"/><jointpos joint="swing"/>
    <touch site="imu"/><touch site="tip" cutoff="1"/>
    <clock/><clock cutoff="0.1"/><e_potential/><e_kinetic/><e_potential cutoff="1"/>
  </sensor>
</mujoco>"""

FLAGS = {"default": (), "no gravity": ("gravity",), "no springs": ("spring",), "no dampers": ("damper",)}


def both(xml, disable=()):
    """MuJoCo's model and ours from ``xml``, with constraints and the flags ``disable`` off."""
    m = mujoco.MjModel.from_xml_string(xml)
    model = rbd.load_model(xml)
    flags = set(disable) | {"constraint"}
    for flag in flags:
        m.opt.disableflags |= getattr(mujoco.mjtDisableBit, f"mjDSBL_{flag.upper()}")
    model = model.replace(opt=dataclasses.replace(model.opt, disableflags=model.opt.disableflags | flags))
    return model, m


def states(m, nstep, every, seed):
    """MuJoCo's data at every ``every``-th state of an ``nstep`` trajectory from ``qpos0`` with a
    small random velocity, random controls (in their ranges), random pushes, and the mocap
    bodies moved and turned at random."""
    rng = np.random.default_rng(seed)
    d = mujoco.MjData(m)
    d.qvel[:] = 0.5 * rng.normal(size=m.nv)
    lo, hi = m.actuator_ctrlrange.T
    limited = m.actuator_ctrllimited.astype(bool)
    for k in range(nstep + 1):
        d.ctrl[:] = np.where(limited, rng.uniform(lo, hi), rng.normal(size=m.nu))
        d.xfrc_applied[1:] = rng.normal(size=(m.nbody - 1, 6))
        d.mocap_pos[:] = d.mocap_pos + 0.01 * rng.normal(size=(m.nmocap, 3))      # the user moves them
        d.mocap_quat[:] = d.mocap_quat + 0.05 * rng.normal(size=(m.nmocap, 4))
        if k % every == 0:
            mujoco.mj_forward(m, d)            # sensordata of this state, not the last one
            yield d
        mujoco.mj_step(m, d)


def ours_at(model, m, d):
    """Our data at MuJoCo's state: the state, and the stages of other modules copied from
    MuJoCo (tendons, transmission, actuation); then our kinematics, com frames and sensors."""
    data = rbd.Data(model)
    data.time = d.time
    for name in ("qpos", "qvel", "qacc", "act", "ctrl", "xfrc_applied", "qfrc_applied", "mocap_pos",
                 "mocap_quat", "ten_length",
                 "ten_velocity", "actuator_length", "actuator_velocity", "actuator_force", "qfrc_actuator"):
        getattr(data, name)[:] = getattr(d, name)
    M = np.zeros((model.nv, model.nv))
    mujoco.mj_fullM(m, d, M)
    data.qM = M                                # the mass-matrix stage (with tendon armature)
    kinematics(model, data)
    com_pos(model, data)
    sensor_pos(model, data)
    com_vel_acc(model, data)
    sensor_vel(model, data)
    sensor_acc(model, data)
    return data


def compare_sensors(model, m, d, data, where):
    for s in range(m.nsensor):
        adr, dim = m.sensor_adr[s], m.sensor_dim[s]
        ours, theirs = data.sensordata[adr:adr + dim], d.sensordata[adr:adr + dim]
        err = np.abs(ours - theirs) / np.maximum(1.0, np.abs(theirs))
        assert err.max() <= TOL, (f"{where}: sensor {s} {model.sensor_names[s]!r} "
                                  f"({SENSOR_NAMES[int(m.sensor_type[s])]}): ours {ours}, MuJoCo's {theirs}")


def run(xml, where, disable=(), nstep=60, every=20, seed=0):
    model, m = both(xml, disable)
    assert model.nsensordata == m.nsensordata and np.array_equal(model.sensor_adr, m.sensor_adr)
    for d in states(m, nstep, every, seed):
        data = ours_at(model, m, d)
        compare_sensors(model, m, d, data, f"{where} at t={d.time:.3f}")
    return model, m


# -- the purpose-written scene ------------------------------------------------------------------
def test_scene_has_every_sensor_we_compute():
    """This scene and test_sensors_breadth's (the sensors of contacts, geometry and cameras,
    which need constraints on) hold every sensor we compute."""
    ours = {SENSOR_NAMES[int(t)] for t in rbd.load_model(SCENE).sensor_type}
    breadth = {SENSOR_NAMES[int(t)] for xml in (BREADTH, CAMERAS) for t in rbd.load_model(xml).sensor_type}
    assert ours | breadth == set(_READERS)


@pytest.mark.parametrize("flags", sorted(FLAGS))
def test_scene_matches_mujoco(flags):
    run(SCENE, f"scene ({flags})", FLAGS[flags], nstep=90, every=15)


def test_sensor_flag_leaves_sensordata_alone():
    model, m = both(SCENE, ("sensor",))
    d = next(states(m, 0, 1, seed=3))
    data = rbd.Data(model)
    data.sensordata[:] = 7.0
    data.qpos[:] = d.qpos
    kinematics(model, data)
    com_pos(model, data)
    com_vel_acc(model, data)
    for stage in (sensor_pos, sensor_vel, sensor_acc):
        stage(model, data)
    assert np.all(data.sensordata == 7.0) and np.all(d.sensordata == 0.0)


# -- real models ----------------------------------------------------------------------------------
def with_sensor_suite(path, seed=0):
    """The MJCF text of ``path`` with a site on every body (at a random pose) and, for every
    site, body, joint, tendon and actuator, every sensor that reads it; unnamed objects get
    names (names change no physics)."""
    rng = np.random.default_rng(seed)
    root = ET.parse(path).getroot()
    def named(element, prefix, k):
        element.set("name", element.get("name") or f"_{prefix}{k}")
        return element.get("name")
    bodies = ["world"] + [named(b, "body", k) for k, b in enumerate(root.iter("body"))]
    sites = []
    for k, body in enumerate(root.iter("body")):
        ET.SubElement(body, "site", name=f"_site{k}", pos=" ".join(map(str, rng.normal(scale=0.1, size=3))),
                      euler=" ".join(map(str, rng.uniform(-90, 90, size=3))))
        sites.append(f"_site{k}")
    world = root.find("worldbody")
    joints = [(named(j, "joint", k), "free" if j.tag == "freejoint" else j.get("type", "hinge"))
              for k, j in enumerate(e for e in world.iter() if e.tag in ("joint", "freejoint"))]
    sections = [s for s in root if s.tag in ("actuator", "tendon")]
    actuators = [named(a, "actuator", k) for k, a in enumerate(a for s in sections if s.tag == "actuator" for a in s)]
    tendons = [named(t, "tendon", k) for k, t in enumerate(t for s in sections if s.tag == "tendon" for t in s)]
    sensor = ET.SubElement(root, "sensor")
    def add(tag, **attrib):
        ET.SubElement(sensor, tag, **attrib)
    for k, site in enumerate(sites):
        for tag in ("accelerometer", "gyro", "velocimeter", "magnetometer", "force", "torque", "touch"):
            add(tag, site=site)
        ref = dict(reftype="site", refname=sites[(k + 1) % len(sites)])
        for tag in ("framepos", "framequat", "framexaxis", "framelinvel", "frameangvel"):
            add(tag, objtype="site", objname=site, **ref)
    for k, body in enumerate(bodies):
        for tag in ("subtreecom", "subtreelinvel", "subtreeangmom"):
            add(tag, body=body)
        if body != "world":
            for kind in ("body", "xbody"):
                ref = dict(reftype="xbody", refname=bodies[(k + 1) % len(bodies)]) if k % 2 else {}
                for tag in ("framepos", "framequat", "frameyaxis", "framezaxis", "framelinvel", "frameangvel"):
                    add(tag, objtype=kind, objname=body, **ref)
                add("framelinacc", objtype=kind, objname=body)
                add("frameangacc", objtype=kind, objname=body)
    for joint, kind in joints:
        if kind in ("hinge", "slide"):
            for tag in ("jointpos", "jointvel", "jointactuatorfrc"):
                add(tag, joint=joint)
        elif kind == "ball":
            add("ballquat", joint=joint)
            add("ballangvel", joint=joint)
    for actuator in actuators:
        for tag in ("actuatorpos", "actuatorvel", "actuatorfrc"):
            add(tag, actuator=actuator)
    for tendon in tendons:
        for tag in ("tendonpos", "tendonvel", "tendonactuatorfrc"):
            add(tag, tendon=tendon)
    for tag in ("clock", "e_potential", "e_kinetic"):
        add(tag)
    return ET.tostring(root, encoding="unicode")


@pytest.mark.parametrize("path", GYM, ids=lambda p: p.name)
def test_gymnasium_assets_with_sensor_suite(path):
    model, m = run(with_sensor_suite(path), path.name)
    assert m.nsensor > 20


SENSOR_MODELS = [p for p in MODELS if "<sensor" in p.read_text()]


@pytest.mark.parametrize("path", SENSOR_MODELS, ids=lambda p: p.name)
def test_book_models_with_sensors(path):
    run(path.read_text(), path.name)


def test_book_models_have_sensors():
    assert len(SENSOR_MODELS) >= 4, "the book's models lost their sensors"


# -- what the sensors stand on ----------------------------------------------------------------
@pytest.mark.parametrize("path", GYM + [p for p in MODELS if p.suffix == ".xml"], ids=lambda p: p.name)
def test_subtree_velocities_and_joint_wrenches_match_mujoco(path):
    """``subtree_linvel``, ``subtree_angmom``, ``cacc``, ``cfrc_int``, ``cfrc_ext`` and ``xquat``
    (with MuJoCo's sign) equal MuJoCo's at a random state with random pushes."""
    model, m = both(path.read_text())
    rng = np.random.default_rng(len(path.name))
    d = mujoco.MjData(m)
    d.qpos[:] = m.qpos0 + 0.8 * rng.normal(size=m.nq)
    mujoco.mj_normalizeQuat(m, d.qpos)
    d.qvel[:] = rng.normal(size=m.nv)
    d.xfrc_applied[1:] = rng.normal(size=(m.nbody - 1, 6))
    mujoco.mj_forward(m, d)
    mujoco.mj_subtreeVel(m, d)
    mujoco.mj_rnePostConstraint(m, d)
    data = rbd.Data(model)
    data.qpos[:], data.qvel[:], data.qacc[:], data.xfrc_applied[:] = d.qpos, d.qvel, d.qacc, d.xfrc_applied
    kinematics(model, data)
    com_pos(model, data)
    com_vel_acc(model, data)
    subtree_vel(model, data)
    rne_post_constraint(model, data)
    for name in ("xquat", "subtree_linvel", "subtree_angmom", "cacc", "cfrc_int", "cfrc_ext"):
        ours, theirs = getattr(data, name), getattr(d, name)
        assert np.abs(ours - theirs).max() <= 1e-10 * max(1.0, np.abs(theirs).max()), name


@pytest.mark.parametrize("sensor", ["accelerometer", "force", "framelinacc"])
def test_a_step_leaves_the_wrenches_mujoco_leaves(sensor):
    """MuJoCo's ``mj_sensorAcc`` runs ``mj_rnePostConstraint`` for accelerometers, force and
    torque sensors and ``framelinacc``/``frameangacc``: after a step ``cacc``, ``cfrc_int`` and
    ``cfrc_ext`` are filled even where the sensor reads only ``cacc`` — ours too (a box resting
    on a plane, pushed by its contacts)."""
    xml = f"""<mujoco><worldbody><geom type="plane" size="2 2 .1"/>
      <body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/><site name="s"/>
      <body pos=".2 0 0"><joint axis="0 1 0" damping=".1"/><geom size=".05"/></body></body>
      </worldbody><sensor><{sensor} {'objtype="site" objname' if sensor.startswith('frame') else 'site'}="s"/></sensor></mujoco>"""
    model, m = rbd.load_model(xml), mujoco.MjModel.from_xml_string(xml)
    data, d = rbd.Data(model), mujoco.MjData(m)
    rbd.step(model, data, 30)
    for _ in range(30):
        mujoco.mj_step(m, d)
    assert d.ncon > 0 and np.abs(d.cfrc_ext).max() > 1.0          # contacts push: non-trivial wrenches
    for name in ("cacc", "cfrc_int", "cfrc_ext", "sensordata"):
        ours, theirs = getattr(data, name), getattr(d, name)
        assert np.abs(ours - theirs).max() <= 1e-8 * max(1.0, np.abs(theirs).max()), name


def test_force_moves_to_cframe_keeping_power():
    """A force moves to the c-frame differently from a motion, so that power is the same in
    both: :math:`f_c \\cdot v_c = f_b \\cdot v_b`; and it is the same force, with the moment
    taken about another point."""
    model = rbd.load_model(SCENE)
    data = rbd.Data(model)
    rng = np.random.default_rng(5)
    data.qpos[:] = rbd.random_qpos(model, rng) if hasattr(rbd, "random_qpos") else data.qpos
    kinematics(model, data)
    com_pos(model, data)
    for i in range(1, model.nbody):
        f, v = rng.normal(size=6), rng.normal(size=6)
        fc, vc = to_cframe_force(model, data, i, f), to_cframe(model, data, i, v)
        assert abs(fc @ vc - f @ v) <= 1e-12 * max(1.0, abs(f @ v))
        assert np.allclose(fc[3:], data.xmat[i] @ f[3:])
        # the moment about the body origin, from the moment about c: n_O = n_c - (x - c) × F
        c = data.subtree_com[model.body_rootid[i]]
        assert np.allclose(fc[:3] - np.cross(data.xpos[i] - c, fc[3:]), data.xmat[i] @ f[:3])


# -- named access ---------------------------------------------------------------------------------
def test_named_sensor_is_a_copy_that_stays():
    """``data.sensor(name).data`` is a copy: a value stored in a log does not change when the
    simulation moves on, and the caller cannot write into it."""
    model = rbd.load_model(MODELS[0].parent / "pendulum.xml")
    data = rbd.Data(model)
    data.qpos[:], data.qvel[:] = 0.3, 1.5
    kinematics(model, data)
    sensor_pos(model, data)
    sensor_vel(model, data)
    log = [data.sensor("angle").data, data.sensor("rate").data]
    assert log[0].tolist() == [0.3] and log[1].tolist() == [1.5]
    data.qpos[:], data.qvel[:] = -1.0, 4.0          # the simulation moves on
    sensor_pos(model, data)
    sensor_vel(model, data)
    assert log[0].tolist() == [0.3] and log[1].tolist() == [1.5]
    assert data.sensor("angle").data.tolist() == [-1.0]
    with pytest.raises(ValueError, match="read-only copy; assign the attribute"):
        log[0][:] = 99.0                             # writing into the copy would change nothing
    assert data.sensordata[model.sensor_adr[model.id("sensor", "angle")]] == -1.0
    assert data.sensor(model.id("sensor", "rate")).data.tolist() == [4.0]     # an id works too


def test_unknown_sensor_name_lists_the_names():
    model = rbd.load_model(MODELS[0].parent / "pendulum.xml")
    with pytest.raises(KeyError, match=r"no sensor named 'agnle'.*\['angle', 'rate'\]"):
        rbd.Data(model).sensor("agnle")
    with pytest.raises(IndexError, match="sensor id 5 out of range"):
        rbd.Data(model).sensor(5)


# -- refusals --------------------------------------------------------------------------------------
BODY = """<mujoco><worldbody><body name="b"><joint name="j" range="-1 1"/><geom name="g" size=".1"/>
  <site name="s"/></body></worldbody>
  <tendon><fixed name="t" range="0 1"><joint joint="j" coef="1"/></fixed></tendon>
  <sensor>{}</sensor></mujoco>"""


@pytest.mark.parametrize("element", [
    '<user dim="1"/>', '<plugin/>', '<tactile/>'])
def test_sensors_we_do_not_compute_are_refused_at_load(element):
    tag = element[1:].split()[0].rstrip("/>")
    with pytest.raises(ModelError, match=f"<{tag}>"):
        rbd.load_model(BODY.format(element))


def test_every_refused_sensor_says_why():
    for tag, reason in SENSORS_NOT_SIMULATED.items():
        assert reason and tag not in _READERS


@pytest.mark.parametrize("element, match", [
    ('<jointpos joint="j" nsample="3"/>', "nsample: sensor history"),
    ('<jointpos joint="j" nsample="3" delay="0.01"/>', "nsample: sensor history"),
    ('<jointpos joint="j" interval="0.1"/>', "interval: sensor history"),
    ('<framequat objtype="site" objname="s" cutoff="0.5"/>', "no cutoff"),
    ('<framezaxis objtype="site" objname="s" cutoff="0.5"/>', "no cutoff"),
    ('<framelinacc objtype="site" objname="s" reftype="body" refname="b"/>', "has no reference frame"),
    ('<framepos objtype="site" objname="s" refname="b"/>', "must be given together"),
])
def test_sensor_attributes_that_would_change_readings_are_refused(element, match):
    with pytest.raises(ModelError, match=match):
        rbd.load_model(BODY.format(element))


def test_force_sensors_refuse_forces_not_computed_yet():
    """Tendons wrapping around geoms push on the bodies they run over (MuJoCo's ``cfrc_ext``)
    with forces we do not compute yet: force and torque sensors refuse, naming the sensor and
    the cause, unless the flags switch those forces off. (Contacts, connect and weld forces
    and the constraint forces of tendons through sites are computed: tests/test_constraint.py
    compares them with MuJoCo.)"""
    scene = """<mujoco><worldbody><body name="a"><joint/><geom name="g" size=".1"/><site name="s"/>
      <site name="s2" pos="0 0 1"/><site name="side" pos="0.2 0 0.5"/></body>
      <body name="c" pos="1 0 0"><joint/><geom size=".1"/></body></worldbody>{}
      <sensor><torque name="tq" site="s"/></sensor></mujoco>"""
    cases = [
        ('<tendon><spatial name="rope" stiffness="3"><site site="s"/><geom geom="g" sidesite="side"/>'
         '<site site="s2"/></spatial></tendon>', "spatial tendon 'rope', which wraps around geoms", "spring"),
        ('<tendon><spatial name="rope" limited="true" range="0 2"><site site="s"/><geom geom="g" sidesite="side"/>'
         '<site site="s2"/></spatial></tendon>', "spatial tendon 'rope', which wraps around geoms", "limit"),
    ]
    for extra, match, flag in cases:
        model = rbd.load_model(scene.format(extra))
        data = rbd.Data(model)
        kinematics(model, data)
        com_pos(model, data)
        with pytest.raises(NotImplementedError, match=f"sensor 'tq' \\(torque\\): .*{match}"):
            sensor_acc(model, data)
        off = model.replace(opt=dataclasses.replace(model.opt, disableflags=frozenset({flag})))
        sensor_acc(off, data)                          # switched off: nothing is missing
    # a tendon through sites that only measures, or pulls with spring, damper, armature and
    # actuators: computed (the scene compares it with MuJoCo)
    model = rbd.load_model(scene.format('<tendon><spatial stiffness="3"><site site="s"/><site site="s2"/>'
                                        '</spatial></tendon>'))
    data = rbd.Data(model)
    kinematics(model, data)
    com_pos(model, data)
    sensor_acc(model, data)
