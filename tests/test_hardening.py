"""Hardening (issue 14): every bad model and every bad input ends in a clear error or a right
answer — never a raw NumPy exception, a NaN, a silent drop, a hang, or a file read outside
the model's folder. One test (or a few) per class of problem an independent fuzzer found;
``tests/test_model_fuzz.py`` runs 10,000 mutants that would have found them.
"""
from __future__ import annotations

import os
import signal
import warnings
from contextlib import contextmanager

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.io import ModelError
from rbdl_edu.tree import DynamicsError

BALL = '<body pos="0 0 1"><joint/><geom size="0.1"/></body>'


def mjcf(body=BALL, top=""):
    return f"<mujoco>{top}<worldbody>{body}</worldbody></mujoco>"


def urdf(joint="", links=""):
    inertial = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
    limit = "" if "<limit" in joint else '<limit lower="-1" upper="1"/>'
    return (f'<robot name="r"><link name="a"/><link name="b">{inertial}</link>{links}'
            f'<joint name="j" type="revolute"><parent link="a"/><child link="b"/>{joint}{limit}</joint></robot>')


@contextmanager
def at_most(seconds):
    """Fail (rather than hang) if the block takes longer than ``seconds``."""
    def alarm(signum, frame):
        raise TimeoutError(f"took more than {seconds} s")
    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def refused(source, match, line=None, element=None, **kwargs):
    """The ModelError that loading ``source`` raises (checked to match and to name the place)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ModelError, match=match) as info:
            rbd.load_model(source, **kwargs)
    e = info.value
    if line is not None:
        assert e.line == line, str(e)
    if element is not None:
        assert e.element == element, str(e)
    return e


# -- raw exceptions become ModelError -------------------------------------------------------------
@pytest.mark.parametrize("joints", ["<freejoint/><joint/>", "<joint/><freejoint/>",
                                    '<joint type="free"/><joint type="ball"/>'])
def test_a_free_joint_with_another_joint_is_a_model_error(joints):
    refused(mjcf(f'<body>\n{joints}<geom size="0.1"/></body>'), "free joint must be the only", line=2)


@pytest.mark.parametrize("attribute", ["priority", "contype", "conaffinity", "condim", "group"])
@pytest.mark.parametrize("value", ["99999999999999999999", "2147483648", "-2147483649"])
def test_integers_beyond_c_int(attribute, value):
    refused(mjcf(f'<body><joint/><geom size="0.1" {attribute}="{value}"/></body>'), "32-bit integer",
            element="geom")


def test_special_files_are_refused_quickly(tmp_path):
    """A device never ends and a FIFO never answers: both are refused before they are opened,
    even from a folder the caller allows."""
    os.mkfifo(tmp_path / "fifo")
    os.symlink("/dev/zero", tmp_path / "zero.xml")
    for name in ("fifo", "zero.xml", "/dev/zero"):
        (tmp_path / "main.xml").write_text(f'<mujoco>\n<include file="{name}"/></mujoco>')
        with at_most(10):
            refused(tmp_path / "main.xml", "regular file|outside", line=2, element="include",
                    allowed_dirs=["/dev"])
    with at_most(10):
        with pytest.raises(ModelError, match="regular file"):
            rbd.load_model(tmp_path / "fifo")


# -- sizes the file declares ----------------------------------------------------------------------
@pytest.mark.parametrize("nkey", ["1000000", "99999999999999999999", "20000"])
def test_size_bombs_are_refused_quickly(nkey):
    with at_most(5):
        refused(mjcf(top=f'<size nkey="{nkey}"/>'), "nkey", element="size")


def test_a_reasonable_nkey_still_loads():
    assert rbd.load_model(mjcf(top='<size nkey="100"/>')).nkey == 100


def test_element_bombs_are_refused_quickly():
    with at_most(20):
        refused(mjcf("<site/>" * 200_001), "more than 200000 elements", element="site")


# -- non-finite models --------------------------------------------------------------------------
TET = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"


@pytest.mark.parametrize("vertex", ["nan 0 0", "inf 0 0", "3.5e38 0 0", "1e21 0 0"])
def test_mesh_files_with_non_finite_vertices(tmp_path, vertex):
    (tmp_path / "bad.obj").write_text(TET.replace("v 1 0 0", f"v {vertex}"))
    (tmp_path / "m.xml").write_text('<mujoco><asset>\n<mesh name="m" file="bad.obj"/></asset>'
                                    '<worldbody><body><joint/><geom type="mesh" mesh="m"/></body>'
                                    '</worldbody></mujoco>')
    refused(tmp_path / "m.xml", "NaN or an infinity|larger than", line=2, element="mesh")


def test_mesh_scale_that_overflows():
    refused(mjcf('<body><joint/><geom type="mesh" mesh="m"/></body>',
                 top='<asset><mesh name="m" vertex="0 0 0 1e10 0 0 0 1e10 0 0 0 1e10" '
                     'face="0 2 1 0 1 3 0 3 2 1 2 3" scale="1e11 1 1"/></asset>'),
            "larger than", element="mesh")


@pytest.mark.parametrize("attribute", ['xyaxes="1e200 1e200 0 0 1e200 1e200"', 'quat="1e300 1e300 0 0"',
                                       'pos="1e300 0 0"', 'zaxis="1e21 0 0"'])
def test_numbers_too_large_for_the_dynamics(attribute):
    refused(mjcf(f'<body {attribute}><joint/><geom size="0.1"/></body>'), "larger than 1e\\+20",
            element="body")


@pytest.mark.parametrize("attribute", ['quat="1e-300 1e-300 0 0"', 'xyaxes="1 0 0 1 0 0"',
                                       'zaxis="0 0 1e-300"'])
def test_orientations_that_vanish(attribute):
    refused(mjcf(f'<body {attribute}><joint/><geom size="0.1"/></body>'), "zero length", element="body")


def test_joint_axis_that_vanishes():
    refused(mjcf('<body><joint axis="1e-300 1e-300 0"/><geom size="0.1"/></body>'), "zero length",
            element="joint")


def test_large_orientation_numbers_normalize_exactly():
    big, unit = (rbd.load_model(mjcf(f'<body xyaxes="{s}"><joint/><geom size="0.1"/></body>'))
                 for s in ("1e19 1e19 0 -1e19 1e19 0", "1 1 0 -1 1 0"))
    np.testing.assert_allclose(big.body_quat, unit.body_quat, atol=1e-15)


def test_largest_numbers_allowed_give_finite_dynamics():
    """Every number at the 1e19 end of what a file may hold: the model and its dynamics
    stay finite (products of a handful of such numbers fit in double precision)."""
    model = rbd.load_model(mjcf('<body pos="1e19 0 0"><joint axis="1 1 0"/>'
                                '<inertial pos="1e19 0 0" mass="1e19" diaginertia="1e19 1e19 1e19"/>'
                                '<body pos="1e19 -1e19 1e19"><joint type="ball"/>'
                                '<geom type="box" size="1e19 1e19 1e19" density="1e19"/></body></body>'))
    q, qd = model.qpos0, np.ones(model.nv)
    for out in (rbd.crba(model, q), rbd.rnea(model, q, qd, qd), rbd.aba(model, q, qd, qd)):
        assert np.all(np.isfinite(out))


# -- nothing silently dropped ---------------------------------------------------------------------
LEAVES = {
    "geom": mjcf('<body><joint/><geom size="0.1">\n<body><joint/><geom size="1"/></body></geom></body>'),
    "joint": mjcf('<body><joint>\n<geom size="1"/></joint><geom size="0.1"/></body>'),
    "freejoint": mjcf('<body><freejoint>\n<x/></freejoint><geom size="0.1"/></body>'),
    "site": mjcf('<body><joint/><site>\n<x/></site><geom size="0.1"/></body>'),
    "inertial": mjcf('<body><joint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1">\n<x/></inertial></body>'),
    "camera": mjcf('<body><joint/><geom size="0.1"/><camera>\n<body/></camera></body>'),
    "motor": mjcf('<body><joint name="j"/><geom size="0.1"/></body>',
                  top='<actuator><motor joint="j">\n<x/></motor></actuator>'),
    "key": mjcf(top='<keyframe><key>\n<x/></key></keyframe>'),
    "flag": mjcf(top='<option><flag gravity="disable">\n<x/></flag></option>'),
    "include": mjcf(top='<include file="x.xml">\n<x/></include>'),
    "jointpos": mjcf('<body><joint name="j"/><geom size="0.1"/></body>',
                     top='<sensor><jointpos joint="j">\n<x/></jointpos></sensor>'),
    "default geom": mjcf(top='<default><geom>\n<x/></geom></default>'),
    "size": mjcf(top='<size nkey="1">\n<x/></size>'),
}


@pytest.mark.parametrize("case", sorted(LEAVES))
def test_children_of_leaf_elements_are_refused(case):
    e = refused(LEAVES[case], "cannot be inside", line=2)
    assert f"<{case.split()[-1]}>" in e.reason


def test_size_attributes_are_checked():
    refused(mjcf(top='<size nkye="3"/>'), "unknown attribute 'nkye'", element="size")


URDF_DUPLICATES = {
    "origin": urdf('<origin xyz="1 0 0"/>\n<origin xyz="2 0 0"/>'),
    "parent": urdf('\n<parent link="b"/>'),
    "axis": urdf('<axis xyz="1 0 0"/>\n<axis xyz="0 1 0"/>'),
    "limit": urdf('<limit lower="-1" upper="1"/>\n<limit lower="-2" upper="2"/>'),
    "dynamics": urdf('<dynamics damping="1"/>\n<dynamics damping="2"/>'),
    "inertial": urdf(links='<link name="c"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/>'
                           '</inertial>\n<inertial><mass value="2"/><inertia ixx="1" iyy="1" izz="1"/></inertial>'
                           '</link><joint name="k" type="fixed"><parent link="b"/><child link="c"/></joint>'),
}


@pytest.mark.parametrize("element", sorted(URDF_DUPLICATES))
def test_urdf_second_elements_are_refused(element):
    refused(URDF_DUPLICATES[element], f"a second <{element}>", line=2, element=element)


def test_urdf_lower_above_upper_is_refused_and_equal_means_unlimited():
    refused(urdf('\n<limit lower="1" upper="-1"/>'), "lower is larger than upper", line=2, element="limit")
    assert not rbd.load_model(urdf('<limit lower="0" upper="0"/>')).jnt_limited[0]


@pytest.mark.parametrize("typo, meant", [('<dynamics dampng="1"/>', "damping"),
                                          ('<limit lowr="-1" upper="1"/>', "lower"),
                                          ('<origin xzy="1 0 0"/>', "xyz"),
                                          ('<axis xyx="1 0 0"/>', "xyz")])
def test_urdf_typos_in_attributes_are_refused(typo, meant):
    e = refused(urdf("\n" + typo), f"did you mean '{meant}'", line=2)
    assert e.attribute is not None


def test_urdf_extensions_are_warned_about_not_refused():
    """Vendors extend URDF (``<limit command_effort>``, Gazebo's and PyBullet's elements): a
    warning, once per file, not an error."""
    text = urdf('<limit lower="-1" upper="1" command_effort="3"/><dynamix damping="1"/>')
    with pytest.warns(UserWarning, match=r"2 unknown URDF attribute\(s\) or element\(s\)"):
        model = rbd.load_model(text)
    assert model.dof_damping[0] == 0


# -- files outside the model's folder -------------------------------------------------------------
SECRET = "TOP-SECRET-CONTENT"


@pytest.fixture
def folders(tmp_path):
    """``model/`` (with a part, a mesh, a sub folder and a link out) and ``outside/``."""
    model, outside = tmp_path / "model", tmp_path / "outside"
    (model / "sub").mkdir(parents=True)
    outside.mkdir()
    (model / "part.xml").write_text('<mujoco><worldbody><body name="part"><joint/><geom size="0.1"/></body>'
                                    '</worldbody></mujoco>')
    (model / "sub" / "tet.obj").write_text(TET)
    (outside / "secret.xml").write_text(f'<mujoco><worldbody><bdy name="{SECRET}"/></worldbody></mujoco>')
    (outside / "secret.obj").write_text(f"# {SECRET}\n" + TET.replace("v 1 0 0", f"v {SECRET} 0 0"))
    os.symlink(outside / "secret.xml", model / "link.xml")
    os.symlink(outside / "secret.obj", model / "link.obj")
    return model, outside


def _include(model, name):
    (model / "main.xml").write_text(f'<mujoco>\n<include file="{name}"/></mujoco>')
    return model / "main.xml"


def _mesh(model, name, meshdir=""):
    (model / "main.xml").write_text(f'<mujoco><compiler meshdir="{meshdir}"/><asset>\n<mesh name="m" '
                                    f'file="{name}"/></asset><worldbody><body><joint/><geom type="mesh" '
                                    f'mesh="m"/></body></worldbody></mujoco>')
    return model / "main.xml"


def test_includes_stay_in_the_model_folder(folders):
    model, outside = folders
    assert rbd.load_model(_include(model, "part.xml")).body_names == ("world", "part")
    for name in ("../outside/secret.xml", str(outside / "secret.xml"), "link.xml", "sub/../../outside/secret.xml"):
        e = refused(_include(model, name), "outside the model's folder", line=2, element="include")
        assert SECRET not in str(e)
    # a folder the caller allows (its content is then read, and its error quoted)
    refused(_include(model, "../outside/secret.xml"), "not supported", allowed_dirs=[outside])


def test_meshes_stay_in_the_model_folder(folders):
    model, outside = folders
    assert rbd.load_model(_mesh(model, "sub/tet.obj")).nmesh == 1
    assert rbd.load_model(_mesh(model, "tet.obj", meshdir="sub")).nmesh == 1
    for name, meshdir in (("../outside/secret.obj", ""), ("secret.obj", "../outside"),
                          ("secret.obj", str(outside)), (str(outside / "secret.obj"), ""), ("link.obj", "")):
        e = refused(_mesh(model, name, meshdir), "outside the model's folder", line=2, element="mesh")
        assert SECRET not in str(e)
    e = refused(_mesh(model, "secret.obj", str(outside)), "cannot read mesh", allowed_dirs=[outside])
    assert SECRET not in str(e)               # a parser's message is never quoted


def test_xml_text_reads_files_only_from_an_explicit_base_dir(folders, monkeypatch):
    model, _ = folders
    text = '<mujoco>\n<include file="part.xml"/></mujoco>'
    monkeypatch.chdir(model)                  # the working directory is never used
    refused(text, "base_dir", line=2, element="include")
    assert rbd.load_model(text, base_dir=model).body_names[1] == "part"


def test_urdf_reads_no_other_file(folders):
    model, outside = folders
    with pytest.warns(UserWarning, match="collision mesh"):
        rbd.load_model(urdf(links=f'<link name="c"><collision><geometry><mesh filename="{outside}/secret.obj"/>'
                                  '</geometry></collision></link><joint name="k" type="fixed"><parent link="b"/>'
                                  '<child link="c"/></joint>'))


# -- option flags and edge models -----------------------------------------------------------------
def test_gravity_flag_is_honoured_by_the_algorithms():
    xml = mjcf('<body><joint axis="0 1 0"/><geom size="0.1" pos="1 0 0"/></body>',
               top='<option><flag gravity="disable"/></option>')
    model = rbd.load_model(xml)
    assert rbd.rnea(model, [0.0], [0.0], [0.0])[0] == 0 and rbd.aba(model, [0.0], [0.0], [0.0])[0] == 0


def test_tendon_solimp_with_three_numbers_and_springdamper():
    m = rbd.load_model(mjcf('<body><joint name="j" springdamper="0.1 1"/><geom size="0.1"/></body>',
                            top='<tendon><fixed solimplimit="0.8 0.9 0.01"><joint joint="j" coef="1"/>'
                                '</fixed></tendon>').replace("<tendon", "<tendon", 1))
    np.testing.assert_allclose(m.tendon_solimp_lim[0], [0.8, 0.9, 0.01, 0.5, 2.0])
    assert m.jnt_stiffness[0] > 0 and m.dof_damping[0] > 0


@pytest.mark.parametrize("xml", [mjcf('<geom size="0.1"/>'), mjcf('<body><geom size="0.1"/></body>'),
                                 "<mujoco/>", '<robot name="r"><link name="a"/></robot>'])
def test_models_without_moving_bodies(xml):
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    assert rbd.crba(model, model.qpos0).shape == (0, 0)
    assert rbd.rnea(model, model.qpos0, [], []).shape == rbd.aba(model, model.qpos0, [], []).shape == (0,)
    rbd.collision.detect(model, data)
    rbd.step(model, data)


# -- algorithms: a body that makes the articulated inertia singular is named ----------------------
def _spec_model(*joints, mass=1.0, inertia=(1.0, 1.0, 1.0)):
    spec = rbd.ModelSpec()
    b = spec.add_body(0, "blob", mass=mass, inertia=inertia)
    for kind in joints:
        spec.add_joint(b, kind)
    return spec.compile()


@pytest.mark.parametrize("joints, mass, inertia, dofs", [(("ball", "ball"), 1.0, (1, 1, 1), "0..5"),
                                                          (("slide",), 0.0, (1, 1, 1), "0..0"),
                                                          (("hinge", "hinge"), 1.0, (1, 1, 1), "0..1")])
def test_aba_names_the_body_whose_articulated_inertia_is_singular(joints, mass, inertia, dofs):
    model = _spec_model(*joints, mass=mass, inertia=inertia)
    with pytest.raises(DynamicsError, match=f"body 'blob' \\(dofs {dofs}\\)"):
        rbd.aba(model, model.qpos0, np.zeros(model.nv), np.zeros(model.nv))
    assert issubclass(DynamicsError, ValueError)


def test_loading_such_a_model_names_the_joint_and_its_line():
    refused(mjcf('<body><joint type="ball"/>\n<joint name="second" type="ball"/><geom size="0.1"/></body>'),
            "singular: joint 'second' of body", line=2, element="joint")
    refused('<robot name="r"><link name="a"/>\n<link name="b"><inertial><mass value="0"/><inertia ixx="1" '
            'iyy="1" izz="1"/></inertial></link>\n<joint name="j" type="prismatic"><parent link="a"/>'
            '<child link="b"/><limit lower="-1" upper="1"/></joint></robot>',
            "singular: joint 'j' of body 'b'", line=3, element="joint")


def test_armature_makes_redundant_joints_fine():
    spec = rbd.ModelSpec()
    b = spec.add_body(0, mass=1.0, inertia=[1.0, 1.0, 1.0])
    spec.add_joint(b, "ball", armature=0.1)
    spec.add_joint(b, "ball", armature=0.1)
    model = spec.compile()
    assert np.all(np.isfinite(rbd.aba(model, model.qpos0, np.zeros(6), np.ones(6))))


# -- collision ------------------------------------------------------------------------------------
def _contacts_equal_mujoco(xml):
    model, m = rbd.load_model(xml), mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    ours = rbd.collision.detect(model, rbd.Data(model))
    assert len(ours) == d.ncon
    for c, theirs in zip(ours, d.contact):
        np.testing.assert_allclose(c.frame.ravel(), theirs.frame, atol=1e-12)
        np.testing.assert_allclose(c.pos, theirs.pos, atol=1e-12)
    return ours


def test_collision_of_far_away_bodies():
    _contacts_equal_mujoco(mjcf('<body pos="1e19 0 0"><freejoint/><geom size="0.1"/></body>'
                                '<body pos="-1e19 1e19 0"><freejoint/><geom size="0.1"/></body>'
                                '<body><freejoint/><geom size="0.1"/></body>'
                                '<body pos="0.15 0 0"><freejoint/><geom size="0.1"/></body>'))


def test_collision_with_negative_margins():
    _contacts_equal_mujoco(mjcf('<geom type="plane" size="1 1 1"/>'
                                '<body pos="0 0 0.05"><freejoint/><geom size="0.1" margin="-0.5"/></body>'
                                '<body pos="0 0 0.2"><freejoint/><geom size="0.1" margin="-1"/></body>'
                                '<body pos="1 0 0.05"><freejoint/><geom size="0.1" margin="-0.01"/></body>'))


def test_contact_frame_with_a_tangent_along_the_normal():
    """A capsule lying exactly along a plane's normal (a quaternion of 1e-300 and -1: a half
    turn): MuJoCo's frame, not a NaN."""
    _contacts_equal_mujoco(mjcf('<geom type="plane" size="1 1 1"/><body pos="0 0 0.1"><freejoint/>'
                                '<geom type="capsule" size="0.05 0.1" quat="1e-300 0 -1 0"/></body>'))


def test_collision_refuses_a_state_that_is_not_one_finite_state():
    model = rbd.load_model(mjcf('<body><freejoint/><geom size="0.1"/></body>'))
    data = rbd.Data(model)
    data.qpos[3] = np.nan
    with pytest.raises(ValueError, match=r"data.qpos holds nan at 3"):
        rbd.collision.detect(model, data)
    with pytest.raises(ValueError, match=r"data.qpos has shape \(7,\); cannot assign an array of shape \(4, 7\)"):
        data.qpos = np.tile(model.qpos0, (4, 1))


def test_mesh_with_nan_vertices_is_refused_by_the_spec():
    with pytest.raises(ValueError, match="NaN"):
        rbd.ModelSpec().add_mesh("m", [[0, 0, 0], [np.nan, 0, 0], [0, 1, 0]], [[0, 1, 2]])


# -- numeric input --------------------------------------------------------------------------------
FREE = mjcf('<body pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.2 0.3" pos="0.1 0 0"/></body>')


def test_huge_and_zero_quaternions():
    """A quaternion ``[1e200, 1e200, 0, 0]`` is the quarter turn it means (its squares would
    overflow; MuJoCo's ``mju_normalize4`` overflows to zero and takes the identity, so here
    we compare with MuJoCo at the unit quaternion); ``[0, 0, 0, 0]`` is the identity, as
    MuJoCo makes it."""
    model = rbd.load_model(FREE)
    m = mujoco.MjModel.from_xml_string(FREE)
    s = np.sqrt(0.5)
    qd = np.array([0.1, 0.2, 0.3, 1.0, -1.0, 0.5])
    for quat, same in (([1e200, 1e200, 0, 0], [s, s, 0, 0]), ([0, 0, 0, 0], [1, 0, 0, 0]),
                       ([1e-200, 0, 0, 0], [1, 0, 0, 0])):
        q, q_unit = np.r_[0, 0, 1, quat], np.r_[0, 0, 1, same]
        for f in (lambda q: rbd.rnea(model, q, qd, qd), lambda q: rbd.crba(model, q),
                  lambda q: rbd.aba(model, q, qd, qd)):
            np.testing.assert_allclose(f(q), f(q_unit), atol=1e-12)
        d = mujoco.MjData(m)
        d.qpos[:], d.qvel[:] = (q_unit if max(quat) > 1e100 else q), qd
        mujoco.mj_forward(m, d)
        np.testing.assert_allclose(rbd.rnea(model, q, qd, np.zeros(6)), d.qfrc_bias, atol=1e-10)


def test_array_kinds():
    model = rbd.load_model(FREE)
    q = model.qpos0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)      # (np.matrix itself warns)
        matrix = np.matrix(q)
    np.testing.assert_allclose(rbd.crba(model, matrix)[0], rbd.crba(model, q))
    np.testing.assert_allclose(rbd.crba(model, np.ma.masked_array(q, mask=False)), rbd.crba(model, q))
    with pytest.raises(ValueError, match="q has masked entries"):
        rbd.crba(model, np.ma.masked_array(q, mask=[0, 0, 0, 0, 0, 0, 1]))
    with pytest.raises(TypeError, match="q is None"):
        rbd.crba(model, None)
    with pytest.raises(TypeError, match="qd is None"):
        rbd.rnea(model, q, None, np.zeros(6))
    with pytest.raises(TypeError, match="tau is complex"):
        rbd.aba(model, q, np.zeros(6), np.zeros(6) + 1j)
    with pytest.raises(TypeError, match="q must hold numbers"):
        rbd.crba(model, ["1"] * 7)


def test_mismatched_batches_name_the_arguments():
    model = rbd.load_model(FREE)
    q = np.tile(model.qpos0, (5, 1))
    with pytest.raises(ValueError, match=r"q \(5, 7\), qd \(3, 6\), qdd \(6,\)"):
        rbd.rnea(model, q, np.zeros((3, 6)), np.zeros(6))
    with pytest.raises(ValueError, match=r"xfrc_applied has batch shape \(3,\), the state \(5,\)"):
        rbd.aba(model, q, np.zeros(6), np.zeros(6), xfrc_applied=np.zeros((3, 2, 6)))
    assert rbd.rnea(model, q, np.zeros((1, 6)), np.zeros(6), xfrc_applied=np.zeros((5, 2, 6))).shape == (5, 6)


# -- every error names the file, line and element -------------------------------------------------
BAD_FILES = {
    "geom.xml": mjcf('<body><joint/>\n<geom size="0.1" contype="1e3"/></body>'),
    "free.xml": mjcf('<body><joint/>\n<freejoint/><geom size="0.1"/></body>'),
    "leaf.xml": mjcf('<body><joint/><geom size="0.1">\n<body/></geom></body>'),
    "numbers.xml": mjcf('<body>\n<joint axis="1e21 0 0"/><geom size="0.1"/></body>'),
    "nkey.xml": mjcf(top='\n<size nkey="99999999"/>'),
    "mesh.xml": mjcf(top='<asset>\n<mesh file="/etc/hostname.stl"/></asset>'),
    "singular.xml": mjcf('<body><joint/>\n<joint/><geom size="0.1"/></body>'),
    "robot.urdf": urdf('\n<limit lower="1" upper="0"/>'),
    "typo.urdf": urdf('\n<axis xzy="1 0 0"/>'),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_every_error_names_file_line_and_element(tmp_path, name):
    (tmp_path / name).write_text(BAD_FILES[name])
    e = refused(tmp_path / name, "", line=2)
    assert e.file == str(tmp_path / name) and e.element
    assert str(e).startswith(f"{tmp_path / name}:2: <{e.element}")
