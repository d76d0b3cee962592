"""``to_mjcf`` writes the whole model: every MJCF we load (``models/``, the mouse scenes,
gymnasium's assets, and hand-written models with tendons, equalities, actuators and sensors),
read by us and written back, loads in MuJoCo as the same ``MjModel`` as the original file, field
by field, and steps the same for 100 steps."""
from __future__ import annotations

from pathlib import Path

import mujoco
import numpy as np
import pytest
from test_mjcf import GYM, MODELS

import rbdl_edu as rbd
from rbdl_edu.io.export import to_mjcf

ROOT = Path(__file__).resolve().parents[1]
MOUSE = sorted((ROOT / "models" / "mouse").glob("*.xml"))

PREFIXES = ("body_", "jnt_", "dof_", "geom_", "site_", "actuator_", "tendon_", "wrap_", "eq_", "sensor_",
            "pair_", "exclude_", "key_", "cam_", "hfield_", "mesh_", "qpos0", "qpos_spring")
# not physics: names' addresses, drawing, plugin and user slots, bounding-volume bookkeeping
SKIP = {"body_bvhadr", "body_bvhnum", "geom_matid", "site_matid", "tendon_matid",
        "tendon_rgba", "tendon_width", "geom_plugin", "body_plugin", "actuator_plugin", "sensor_plugin",
        "hfield_pathadr", "mesh_pathadr", "actuator_history", "actuator_historyadr", "sensor_history",
        "sensor_historyadr",
        # a mesh's vertices are written already scaled
        "mesh_scale",
        # MuJoCo's own hull bookkeeping for its support search (the vertex graph, the polygon
        # lists, the extreme points) is ordered by qhull's walk, which a last-bit difference in
        # a vertex reorders; the hull itself (mesh_vert, mesh_face) is compared, and the
        # 100 steps below run its collisions
        "mesh_graph", "mesh_polyvert", "mesh_extrema"}


def physics_fields(m):
    names = [n for n in dir(m) if n.startswith(PREFIXES) and n not in SKIP and "user" not in n]
    return {n: np.asarray(getattr(m, n)) for n in names if isinstance(getattr(m, n), np.ndarray)}


def assert_same_model(m1, m2, what):
    # MuJoCo keeps mesh vertices in single precision and re-centres each mesh on its principal
    # frame: written back from that frame, a mesh (and its geom's pose, size and bounds)
    # comes back to single precision only
    rtol, atol = (1e-6, 1e-8) if m1.nmesh else (1e-9, 1e-12)
    bad = []
    for n, a in physics_fields(m1).items():
        b = np.asarray(getattr(m2, n))
        if a.shape != b.shape or not np.allclose(a, b, rtol=rtol, atol=atol):
            bad.append(n)
    for n in dir(m1.opt):
        a = getattr(m1.opt, n)
        if not n.startswith("_") and isinstance(a, (int, float, np.ndarray)) and \
                not np.allclose(a, getattr(m2.opt, n), rtol=1e-12, atol=0):
            bad.append("opt." + n)
    assert not bad, f"{what}: to_mjcf changed {bad}"


def roundtrip(m0, model, what, steps=100):
    """Fields equal to round-off, then the same 100 steps. Our compiler's inertias differ
    from MuJoCo's in the last bits, and a contact that starts exactly at distance 0 (gymnasium's
    point.xml) turns that into 1e-4 in qpos; so the stepping check runs with the compared
    floats (and the statistics derived from them) copied over: whatever still differs comes
    from something to_mjcf left out that the field comparison does not see."""
    m1 = mujoco.MjModel.from_xml_string(to_mjcf(model))
    assert_same_model(m0, m1, what)
    for n, a in physics_fields(m0).items():
        if a.dtype.kind == "f":
            getattr(m1, n)[...] = a
    m1.stat.meaninertia = m0.stat.meaninertia
    d0, d1 = mujoco.MjData(m0), mujoco.MjData(m1)
    for d in (d0, d1):
        d.ctrl[:] = 0.3
    for _ in range(steps):
        mujoco.mj_step(m0, d0)
        mujoco.mj_step(m1, d1)
    np.testing.assert_allclose(d1.qpos, d0.qpos, rtol=1e-12, atol=1e-12, err_msg=what)


@pytest.mark.parametrize("path", [p for p in MODELS if p.suffix == ".xml"] + MOUSE + GYM,
                         ids=lambda p: p.name)
def test_file_roundtrip(path):
    roundtrip(mujoco.MjModel.from_xml_path(str(path)), rbd.load_model(path), path.name)


# hand-written models for what the files above lack: tendons (fixed, spatial with a wrapped
# geom and a pulley), equalities of each kind, every actuator dynamics, sensors, keyframes
HAND = {
    "tendons_equalities": """<mujoco><option cone="elliptic" impratio="3" integrator="implicitfast" timestep="0.005">
      <flag energy="enable" warmstart="disable"/></option>
      <worldbody><site name="top" pos="0 0 1"/>
        <body name="a" pos="0 0 0.5"><joint name="j1" axis="0 1 0" damping="0.3" stiffness="2" springref="0.2"
            range="-1 1" armature="0.01" frictionloss="0.05" margin="0.01"/>
          <geom name="ga" type="capsule" fromto="0 0 0 0 0 -0.4" size="0.05"/><site name="sa" pos="0 0 -0.4"/>
          <body name="b" pos="0 0 -0.4"><joint name="j2" axis="0 1 0" solreflimit="0.05 1.2" range="-2 2"/>
            <geom name="wrap" type="cylinder" size="0.05 0.05" quat="0.707 0.707 0 0"/>
            <site name="side" pos="0.1 0 0"/>
            <geom name="gb" type="sphere" size="0.07" pos="0 0 -0.3"/><site name="sb" pos="0 0 -0.3"/></body></body>
        <body name="c" pos="0.5 0 0.5"><joint name="j3" type="slide" axis="1 0 0"/><joint name="j4" axis="0 0 1"/>
          <geom name="gc" type="box" size="0.1 0.1 0.1"/><site name="sc"/></body>
        <body name="d" pos="-0.5 0 0.5"><freejoint/><geom type="sphere" size="0.1"/><site name="sd"/></body>
      </worldbody>
      <tendon><fixed name="t1" stiffness="1" springlength="0.1" range="-1 1"><joint joint="j1" coef="1"/>
          <joint joint="j2" coef="-0.5"/></fixed>
        <spatial name="t2" damping="0.2" frictionloss="0.01"><site site="top"/><site site="sa"/>
          <geom geom="wrap" sidesite="side"/><site site="sb"/></spatial>
        <spatial name="t3" limited="true" range="0 2"><site site="top"/><site site="sc"/><pulley divisor="2"/>
          <site site="top"/><site site="sd"/></spatial></tendon>
      <equality><connect body1="d" body2="world" anchor="0 0 0.1"/><weld site1="sc" site2="sd" torquescale="2"/>
        <joint joint1="j3" joint2="j4" polycoef="0 0.5 0 0 0" solref="0.03 1"/>
        <tendon tendon1="t1" active="false"/></equality>
      <actuator><motor name="m0" joint="j1" gear="2" ctrlrange="-1 1"/><position joint="j2" kp="10" kv="1"/>
        <velocity tendon="t1" kv="3"/><general site="sc" refsite="top" gear="1 0 0 0 0 1" dyntype="filterexact"
          dynprm="0.1" gainprm="2" biastype="affine" biasprm="0 -1 -0.1"/>
        <intvelocity joint="j4" kp="5" actrange="-1 1"/><muscle tendon="t2" lengthrange="1 1.5"/>
        <adhesion body="c" gain="3" ctrlrange="0 1"/></actuator>
      <sensor><jointpos joint="j1"/><jointvel joint="j2" noise="0.1"/><tendonpos tendon="t2"/>
        <actuatorfrc actuator="m0" cutoff="5"/><accelerometer site="sa"/><gyro site="sb"/><touch site="sc"/>
        <framepos objtype="body" objname="b" reftype="site" refname="top"/><framequat objtype="xbody" objname="c"/>
        <subtreecom body="a"/><jointlimitpos joint="j1"/><e_potential/><clock/></sensor>
      <keyframe><key name="k" qpos="0.1 0.2 0.1 0.3 -0.5 0 0.5 1 0 0 0" ctrl="0.1 0.2 0.3 0.4 0.5 0.6 0.7"/></keyframe>
    </mujoco>""",
    "two_object_sensors": """<mujoco><worldbody><geom name="floor" type="plane" size="2 2 0.1"/>
        <site name="zone" type="box" size="1 1 0.5" pos="0 0 0.5"/>
        <camera name="cam" pos="0 0 2" resolution="3 2" fovy="30"/>
        <camera name="lens" pos="1 0 1" xyaxes="0 1 0 -1 0 1" resolution="640 480" sensorsize="0.004 0.003"
          focalpixel="500 510" principalpixel="320 240"/>
        <body name="ball" pos="0 0 0.3"><freejoint/><geom name="g1" type="sphere" size="0.1"/>
          <site name="eye" zaxis="0 0 -1"/></body>
        <body name="box" pos="0.5 0 0.3"><freejoint/><geom name="g2" type="box" size="0.1 0.1 0.1"/></body>
      </worldbody>
      <sensor><distance geom1="g1" geom2="g2" cutoff="1"/><normal body1="ball" geom2="g2" cutoff="1"/>
        <fromto geom1="g1" geom2="floor" cutoff="1"/><insidesite objtype="body" objname="ball" site="zone"/>
        <rangefinder site="eye" data="dist point normal"/>
        <contact geom1="g1" geom2="floor" data="found force dist" reduce="mindist" num="2"/>
        <contact subtree1="box" data="found pos" num="1"/><contact site="zone" data="found"/>
        <rangefinder camera="cam" data="dist"/><camprojection site="eye" camera="lens"/>
        <insidesite objtype="camera" objname="cam" site="zone"/></sensor>
    </mujoco>""",
    "awkward_names": """<mujoco><worldbody><body name="a&amp;&quot;b&lt;"><joint name="geom1"/>
        <geom name="geom1" size="0.1"/><geom size="0.1" pos="0 0 0.2"/></body></worldbody>
      <actuator><motor joint="geom1"/></actuator></mujoco>""",
    "dcmotors": """<mujoco><worldbody><body><joint name="j" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 .3 0 0"
          size=".03"/><body pos=".3 0 0"><joint name="k" axis="0 1 0"/><geom size=".05"/></body></body></worldbody>
      <actuator><dcmotor joint="j" resistance="2" motorconst="0.05 0.06" inductance="0.01" cogging="0.01 6 0.3"
          thermal="3 0 30 0.004 25 20" lugre="100 0.5 0.02 0.03 0.1" saturation="0 2 10" ctrlrange="-12 12"/>
        <dcmotor joint="k" nominal="12 0.5 300" gear="3"/></actuator></mujoco>""",
    "mesh_springdamper_fluid": """<mujoco><asset><mesh name="wedge" scale="0.2 0.2 0.2"
        vertex="0 0 0  1 0 0  0 2 0  0 0 0.5  1 0 0.5  0 2 0.5"
        face="0 2 1  3 4 5  0 1 4  0 4 3  0 3 5  0 5 2  1 2 5  1 5 4"/></asset>
      <worldbody><geom type="plane" size="2 2 0.1"/>
        <body pos="0 0 0.3" quat="0.9 0.1 0.3 0"><freejoint/><geom type="mesh" mesh="wedge" pos="0.1 0 0"/>
          <geom type="ellipsoid" size="0.1 0.2 0.3" pos="0 0 0.3"/></body>
        <body pos="1 0 1"><joint axis="1 0 0" springdamper="0.2 0.7" ref="0.3"/>
          <geom type="box" size="0.1 0.05 0.3" fluidshape="ellipsoid" fluidcoef="0.5 0.25 1.5 1 1"/></body>
      </worldbody><option density="1.2" viscosity="0.01" wind="0.5 0 0"/></mujoco>""",
}


@pytest.mark.parametrize("name", sorted(HAND))
def test_hand_written_roundtrip(name):
    xml = HAND[name].replace('<actuatorfrc actuator="m0"', '<actuatorfrc actuator="m0"').replace(
        '<motor joint="j1"', '<motor name="m0" joint="j1"')
    roundtrip(mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml), name)


@pytest.mark.parametrize("source", [str(p) for p in MODELS + MOUSE + GYM] + sorted(HAND.values()),
                         ids=lambda s: Path(s).name if len(s) < 300 else "hand")
def test_our_loader_reads_it_back(source):
    """``load_model(to_mjcf(model))`` holds the same arrays, but for drawing-only ones
    (materials are not written)."""
    model = rbd.load_model(source)
    again = rbd.load_model(to_mjcf(model))
    for n, a in vars(model).items():
        if isinstance(a, np.ndarray) and not n.startswith("mat_") and n not in ("geom_matid", "site_matid"):
            b = getattr(again, n)
            assert a.shape == b.shape and np.allclose(a, b, rtol=1e-6 if model.nmesh else 1e-12,
                                                      atol=1e-8 if model.nmesh else 1e-14), n
