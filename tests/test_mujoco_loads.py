"""Models MuJoCo 4.0 loads that rbdl_edu once refused, each loaded by both and compared:
every compiled field (``compare_fields``), then a few steps with every ``Data`` field that
``step`` leaves behind (constraints on).

Joint ranges with equal or inverted ends, keyframes with short vectors, several top-level
``<default>`` elements, ``<replicate>`` with ``prefix`` and elements outside that refer to
names inside, meshes given only by their vertices."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from mujoco_oracle import compare_fields
from test_step_fields import FIELDS, _same

import rbdl_edu as rbd
from rbdl_edu.io.errors import ModelError


def run_both(xml, steps=4, seed=0, path=None):
    """Load ``xml`` (or the file ``path``) in both engines, compare every compiled field,
    then step both from a random velocity and control and compare every field."""
    m = mujoco.MjModel.from_xml_path(str(path)) if path else mujoco.MjModel.from_xml_string(xml)
    model = rbd.load_model(path or xml)
    compare_fields(model, m)
    d, data = mujoco.MjData(m), rbd.Data(model)
    rng = np.random.default_rng(seed)
    d.qvel[:] = data.qvel[:] = rng.normal(size=m.nv)
    d.ctrl[:] = data.ctrl[:] = rng.uniform(-1, 1, m.nu)
    for k in range(steps):
        mujoco.mj_step(m, d)
        rbd.step(model, data)
        assert data.ncon == d.ncon, k
        wrong = [name for name in FIELDS + ("qpos", "qvel", "act") if not _same(name, getattr(data, name), getattr(d, name))]
        assert not wrong, f"step {k}: {wrong} differ from mj_step's"
    return model, m


JOINTS = {"equal ends": '<joint range="20 20"/>', "inverted": '<joint range="30 -30"/>',
          "slide, equal": '<joint type="slide" range=".5 .5"/>', "ball, zero": '<joint type="ball" range="0 0"/>',
          "not limited": '<joint range="1 1" limited="false"/>'}


@pytest.mark.parametrize("case", sorted(JOINTS))
def test_joint_range_without_interior_is_unlimited(case):
    """``limited="auto"`` limits only an increasing range; such a range is kept as written
    (degrees), as MuJoCo 4.0 keeps it."""
    model, m = run_both(f'<mujoco><worldbody><body pos="0 0 1">{JOINTS[case]}<geom size=".1" pos=".2 0 0"/>'
                        '</body></worldbody></mujoco>')
    assert not model.jnt_limited[0]


def test_limited_joint_needs_an_increasing_range():
    with pytest.raises(ModelError, match=r"range\[0\] must be smaller"):
        rbd.load_model('<mujoco><worldbody><body><joint range="1 1" limited="true"/><geom size=".1"/>'
                       '</body></worldbody></mujoco>')


KEYED = """<mujoco><worldbody><body pos="0 0 1"><freejoint/><geom size=".1"/></body>
  <body pos="1 0 0"><joint name="h" ref="30"/><geom size=".1" pos=".2 0 0"/></body>
  <body pos="1 0 0"><joint name="s" type="slide" ref=".7"/><geom size=".1"/></body>
  <body mocap="true" pos="1 2 3"><geom size=".1" contype="0"/></body>
  <body mocap="true" pos="7 8 9" quat="0 1 0 0"><geom size=".1" contype="0"/></body></worldbody>
  <actuator><motor joint="h"/><general joint="h" dyntype="filter" dynprm="1"/>
  <general joint="s" dyntype="filter" dynprm="1"/></actuator>
  <keyframe><key %s/></keyframe></mujoco>"""
SHORT = ['qpos="0 0 2"', 'qpos="0 0 2 1 0 0 0 0.5"', 'qvel="1 2"', 'act="5"', 'ctrl="1 2"', 'mpos="4 5"',
         'mpos="4 5 6 7"', 'mquat="0 1"', 'mquat="0 0 2 0 1"', 'qpos="" qvel=""']


@pytest.mark.parametrize("key", SHORT)
def test_short_keyframe_vectors_fill_the_front(key):
    """A keyframe vector shorter than its size overwrites the front of the default
    (``qpos0``, zeros, the mocap bodies' poses; ``mpos``/``mquat`` whole bodies only)."""
    model, m = run_both(KEYED % key, steps=1)
    for f in ("qpos", "qvel", "act", "ctrl", "mpos", "mquat"):
        np.testing.assert_allclose(getattr(model, "key_" + f), getattr(m, "key_" + f), atol=1e-12, err_msg=f)
    data = rbd.Data(model)
    rbd.reset(model, data, 0)
    np.testing.assert_allclose(data.qpos, m.key_qpos[0], atol=1e-12)


@pytest.mark.parametrize("key", ['qvel="1 2 3 4 5 6 7 8 9"', 'mpos="1 1 1 2 2 2 3"', 'ctrl="1 2 3 4"'])
def test_long_keyframe_vectors_are_refused(key):
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_string(KEYED % key)
    with pytest.raises(ModelError, match="takes .* numbers"):
        rbd.load_model(KEYED % key)


DEFAULTS = {
    "two": '<default><geom rgba="1 0 0 1"/></default><default><joint damping="1"/></default>',
    "override": '<default><joint damping="1" stiffness="3"/></default><default><joint damping="2"/></default>',
    "nested in the second": '<default><joint damping="1"/></default><default><default class="b">'
                            '<joint stiffness="5"/></default></default>',
    "main grows after a class": '<default><default class="b"><joint stiffness="5"/></default></default>'
                                '<default><joint damping="1"/></default>',
    "named main": '<default class="main"><joint damping="1"/></default><default class="main">'
                  '<joint stiffness="4"/></default>',
}


@pytest.mark.parametrize("case", sorted(DEFAULTS))
def test_every_top_level_default_adds_to_main(case):
    """Each top-level ``<default>`` adds to the class ``main`` in file order; a class nested
    in one inherits what ``main`` held when it was read."""
    cls = ' class="b"' if 'class="b"' in DEFAULTS[case] else ""
    run_both(f'<mujoco>{DEFAULTS[case]}<worldbody><body><joint{cls}/><geom size=".1" pos=".2 0 0"/>'
             '</body></worldbody></mujoco>')


def test_a_top_level_default_cannot_be_renamed():
    xml = '<mujoco><default><joint damping="1"/></default><default class="a"/><worldbody/></mujoco>'
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(ModelError, match="cannot be renamed"):
        rbd.load_model(xml)


REPLICATED = """<mujoco><worldbody><site name="w"/><geom name="floor" type="plane" size="3 3 .1"/>
  <replicate count="2" offset=".5 0 0" prefix="p">
    <replicate count="2" offset="0 .5 0" sep="-">
      <body name="b" pos="0 0 .2"><joint name="j" axis="0 1 0"/><geom name="g" size=".1" pos=".1 0 0"/>
        <site name="s"/><site name="s2" pos="0 0 .3"/></body></replicate></replicate>
  <body name="o" pos="0 0 .5"><joint name="jo"/><geom size=".1" pos=".1 0 0"/></body></worldbody>
  <tendon><spatial name="t"><site site="s"/><site site="s2"/></spatial></tendon>
  <contact><pair geom1="g" geom2="floor"/><exclude body1="world" body2="b"/></contact>
  <actuator><motor name="m" joint="j"/><motor name="n" joint="jo"/><position name="p" site="s" refsite="s2"
    gear="1 0 0 0 0 0" kp="3"/></actuator>
  <sensor><framepos name="R" objtype="site" objname="w" reftype="site" refname="s2"/><tendonpos name="T" tendon="t"/><touch name="A" site="s"/><jointpos name="B" joint="jo"/>
    <framepos name="F" objtype="site" objname="s" reftype="site" refname="w"/></sensor></mujoco>"""


def test_replicate_copies_what_refers_into_it():
    """Actuators, sensors, tendons and pairs that name something inside a ``<replicate>``
    are replicated with it (suffixed, after the others, copy by copy); ``prefix`` changes
    nothing, as in MuJoCo 4.0."""
    model, m = run_both(REPLICATED)
    assert model.sensor_names == ("B",) + tuple(f"{n}-{k}" for k in ("00", "10", "01", "11") for n in "RTAF")
    assert model.nu == 9 and model.npair == 4 and model.ntendon == 4


@pytest.mark.parametrize("extra,message", [
    ('<equality><joint joint1="j" joint2="jo"/></equality>', "not replicated"),
    ('<actuator><position site="s" refsite="w" gear="1 0 0 0 0 0"/></actuator>', "drops")])
def test_what_mujoco_does_not_replicate_is_refused(extra, message):
    """An equality into a replicate MuJoCo refuses; an actuator also referring outside it
    MuJoCo silently drops: refused here, naming why."""
    xml = REPLICATED.replace("<tendon>", extra + "<tendon>")
    if message == "drops":
        assert mujoco.MjModel.from_xml_string(xml).nu == 9          # (MuJoCo: the new one is gone)
    else:
        with pytest.raises(ValueError):
            mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(ModelError, match=message):
        rbd.load_model(xml)


POINTS = "0 0 0  .3 0 0  0 .5 0  .3 .5 0  0 0 .8  .3 0 .8  0 .5 .8  .3 .5 .8  .1 .2 .3"   # a box and a point inside


def test_mesh_of_vertices_only_is_its_convex_hull(tmp_path):
    """A mesh given only by vertices, inline or as an OBJ file of ``v`` lines, is the convex
    hull of its points (MuJoCo keeps the interior points among the vertices)."""
    (tmp_path / "points.obj").write_text("".join(f"v {x} {y} {z}\n" for x, y, z in
                                                 np.array(POINTS.split(), float).reshape(-1, 3)))
    for mesh in (f'vertex="{POINTS}"', 'file="points.obj"'):
        (tmp_path / "m.xml").write_text(
            f'<mujoco><asset><mesh name="m" {mesh}/></asset><worldbody><geom type="plane" size="2 2 .1"/>'
            '<body pos="0 0 1"><joint axis="1 .2 0"/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>')
        model, m = run_both(None, path=tmp_path / "m.xml")
        assert model.mesh_vertnum[0] == 9 and model.mesh_facenum[0] == 12


CONVEYOR = """<mujoco><option cone="{cone}"/><worldbody>
  <geom name="belt" type="plane" size="1 .3 .05" surfacevel="{belt}" condim="{condim}"/>
  <body pos="-.5 0 .069" euler="0 0 20"><freejoint/><geom type="box" size=".06 .05 .07" condim="{condim}"/></body>
  <body pos="-.2 .1 .049" euler="0 90 10"><freejoint/><geom type="capsule" size=".05 .1" condim="{condim}"/></body>
  <body pos=".3 .1 .4"><freejoint/><geom size=".05" surfacevel="0 .2 0 0 0 1" condim="{condim}"/></body>
  </worldbody></mujoco>"""


@pytest.mark.parametrize("cone,condim,belt", [("pyramidal", 3, ".5 0 0 0 0 0"), ("elliptic", 3, ".5 .1 0 0 0 0"),
                                              ("pyramidal", 4, "0 0 0 0 0 2"), ("elliptic", 6, ".3 0 0 0 0 1.5"),
                                              ("pyramidal", 1, ".5 0 0 0 0 0")])
def test_surface_velocity_drives_what_rests_on_it(cone, condim, belt):
    """``surfacevel``: a belt with no degrees of freedom carries a box along, a turntable
    turns it; the contact rows see the surface's velocity (``efc_vel``) as MuJoCo 4.0's."""
    xml = CONVEYOR.format(cone=cone, condim=condim, belt=belt)
    model, m = run_both(xml, steps=3)
    d, data = mujoco.MjData(m), rbd.Data(model)
    for _ in range(150 if condim > 1 else 20):
        mujoco.mj_step(m, d)
        rbd.step(model, data)
    assert data.ncon == d.ncon
    np.testing.assert_allclose(data.efc_vel, d.efc_vel, atol=1e-8)
    np.testing.assert_allclose(data.qpos, d.qpos, atol=1e-7)
    if condim > 1:
        assert np.abs(data.qvel[:2]).max() > 0.05           # the belt moves the box


BUILTIN = [("sphere", "0"), ("sphere", "2"), ("hemisphere", "3"), ("supersphere", "8 0.5 1.5"),
           ("supertorus", "8 0.3 1 1"), ("cone", "5 0"), ("cone", "6 0.5")]


@pytest.mark.parametrize("kind,params", BUILTIN)
def test_builtin_meshes_are_mujocos(kind, params):
    """``<mesh builtin=...>``: the same vertices (single precision), triangles, volume and
    principal frame as MuJoCo 4.0's generator, and two steps of a free body alike."""
    run_both(f'<mujoco><asset><mesh name="m" builtin="{kind}" params="{params}" scale=".1 .12 .15"/></asset>'
             '<worldbody><geom type="plane" size="1 1 .1"/><body pos="0 0 .3" euler="10 20 30"><freejoint/>'
             '<geom type="mesh" mesh="m"/></body></worldbody></mujoco>', steps=2)


@pytest.mark.parametrize("kind,params,message", [("wedge", "3 3 60 30 0", "not supported"),
                                                 ("plate", "3 3", "not supported"),
                                                 ("sphere", "5", "subdivision"), ("cone", "5", "needs 2 params")])
def test_builtin_meshes_refused_by_name(kind, params, message):
    with pytest.raises(ModelError, match=message) as info:
        rbd.load_model(f'<mujoco><asset><mesh name="m" builtin="{kind}" params="{params}"/></asset>'
                       '<worldbody><geom type="mesh" mesh="m"/></worldbody></mujoco>')
    assert info.value.attribute in ("builtin", "params")


GROUPS = """<mujoco><option actuatorgroupdisable="{groups}" integrator="{integrator}"/><worldbody>
  <body><joint name="j" damping=".1"/><geom size=".1" pos=".2 0 0"/>
    <body pos=".4 0 0"><joint name="k" axis="0 1 0"/><geom size=".1" pos=".2 0 0"/></body></body></worldbody>
  <actuator><motor joint="j" group="1"/><general joint="j" dyntype="integrator" gainprm="2" group="3"/>
    <velocity joint="k" kv="4" group="3"/><motor joint="k" gear="3"/><position joint="k" kp="2" group="40"/>
    <general joint="j" dyntype="filter" dynprm=".1" gainprm="1" group="1"/></actuator></mujoco>"""


@pytest.mark.parametrize("integrator", ["Euler", "implicitfast", "implicit", "RK4"])
def test_actuator_groups_switched_off(integrator):
    """``actuatorgroupdisable``: the actuators of those groups give no force (nor force
    derivative), and their activations stay where they are, though ``act_dot`` is reported;
    a group outside 0..30 always acts."""
    xml = GROUPS.format(groups="1 3", integrator=integrator)
    model, m = run_both(xml, steps=5)
    assert model.opt.actuatorgroupdisable == {1, 3} and m.opt.disableactuator == 0b1010
    data = rbd.Data(model)
    data.ctrl[:] = 1.0
    data.act[:] = 0.5
    rbd.step(model, data)
    np.testing.assert_array_equal(data.actuator_force[[0, 1, 2, 5]], 0.0)
    assert data.actuator_force[3] != 0 and data.actuator_force[4] != 0
    np.testing.assert_array_equal(data.act, 0.5)
    assert np.all(data.act_dot != 0)


def test_actuator_groups_out_of_range_refused():
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_string(GROUPS.format(groups="31", integrator="Euler"))
    with pytest.raises(ModelError, match="0 to 30"):
        rbd.load_model(GROUPS.format(groups="31", integrator="Euler"))


OUT_OF_SCOPE = {
    "plugins": ('<mujoco><extension><plugin plugin="mujoco.elasticity.cable"/></extension><worldbody/></mujoco>',
                "extension"),
    "plugin in a body": ('<mujoco><worldbody><body><plugin plugin="p"/><geom size=".1"/></body></worldbody></mujoco>',
                         "plugin"),
    "SDF geom": ('<mujoco><worldbody><body><geom type="sdf" mesh="m"/></body></worldbody></mujoco>', "geom"),
    "flex": ('<mujoco><deformable><flex name="f" dim="1" body="world world" vertex="0 0 0 1 0 0" element="0 1"/>'
             '</deformable><worldbody/></mujoco>', "deformable"),
    "flexcomp": ('<mujoco><worldbody><flexcomp name="f" type="grid" count="2 2 1" spacing=".1 .1 .1"/></worldbody>'
                 '</mujoco>', "flexcomp"),
    "model asset": ('<mujoco><asset><model name="m" file="x.xml"/></asset><worldbody/></mujoco>', "model"),
    "attach": ('<mujoco><worldbody><body><attach model="m" prefix="p"/></body></worldbody></mujoco>', "attach"),
}


@pytest.mark.parametrize("case", sorted(OUT_OF_SCOPE))
def test_out_of_scope_features_are_refused_by_name(case):
    xml, element = OUT_OF_SCOPE[case]
    with pytest.raises(ModelError, match="out of scope") as info:
        rbd.load_model(xml)
    assert info.value.element == element
