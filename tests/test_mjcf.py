"""The MJCF compiler against MuJoCo's own compiler (``mujoco==4.0.0``).

For every MJCF file in ``models/`` and every MJCF file the ``gymnasium`` wheel ships
(``gymnasium/envs/mujoco/assets/*.xml``) the compiled fields must equal MuJoCo's to 1e-9
and ``crba``, ``bias``, ``rnea`` with ``xfrc_applied`` and ``aba`` must equal MuJoCo's to
1e-10 relative at random states (see ``tests/mujoco_oracle.py``).

The oracles are hard requirements: if ``mujoco`` or ``gymnasium`` is missing these tests
fail, they do not skip.

``body_iquat`` is compared up to sign even for bodies whose principal moments are equal
(in gymnasium: the humanoid's lower arms, a capsule with a sphere on its axis), where any
frame turned about the repeated axis is principal: the compiler computes in the same
order as MuJoCo's, so it lands on the same frame.
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import mujoco
import numpy as np
import pytest
from mujoco_oracle import compare_dynamics, compare_fields

import rbdl_edu as rbd
from rbdl_edu import load_mjcf
from rbdl_edu.io import ModelError

ROOT = Path(__file__).resolve().parents[1]
MODELS = sorted((ROOT / "models").glob("*.xml"))


def gymnasium_assets():
    """The MJCF files of the installed gymnasium wheel (an empty list if it is missing)."""
    spec = importlib.util.find_spec("gymnasium")
    if spec is None or spec.origin is None:
        return []
    return sorted((Path(spec.origin).parent / "envs" / "mujoco" / "assets").glob("*.xml"))


GYM = gymnasium_assets()


def test_oracles_present():
    """The cross-checks below need gymnasium's assets and our models; missing ones fail."""
    assert GYM, "gymnasium is not installed: pip install -e '.[test]' (it ships the MJCF assets)"
    assert len(GYM) >= 10, [p.name for p in GYM]
    assert len(MODELS) >= 7, [p.name for p in MODELS]


def _mujoco_model(path):
    return mujoco.MjModel.from_xml_path(os.fspath(path))


@pytest.mark.parametrize("path", MODELS + GYM, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_matches_mujoco(path):
    model = load_mjcf(path)
    m = _mujoco_model(path)
    compare_fields(model, m)
    compare_dynamics(model, m, seed=len(path.name))


# -- MuJoCo compiler semantics on small files -------------------------------------------------
def _both(xml, **kwargs):
    return load_mjcf(xml, **kwargs), mujoco.MjModel.from_xml_string(xml)


SEMANTICS = {
    "orientations": """<mujoco><compiler eulerseq="zyX"/><worldbody>
        <body euler="10 20 30"><joint/><geom type="box" size=".1 .2 .3"/></body>
        <body axisangle="1 1 0 45"><joint type="slide" axis="1 2 3"/><geom type="ellipsoid" size=".1 .2 .3"/></body>
        <body xyaxes="0 1 0 -1 0.2 0"><joint type="ball"/><geom type="cylinder" size=".1 .2"/></body>
        <body zaxis="0 -1 1" pos="1 0 0"><joint axis="0 1 0" ref="30" range="-10 40"/>
          <geom type="capsule" fromto="0 0 0 .3 .1 -.2" size=".05"/></body>
        <body quat="1 2 3 4"><freejoint/><geom type="sphere" size=".2" mass="3"/></body>
        </worldbody></mujoco>""",
    "defaults_and_childclass": """<mujoco>
        <default><joint damping="2" armature="0.1"/><geom density="300" friction="0.7"/>
          <default class="heavy"><geom density="5000" size="0.2 0.3"/><joint armature="0.5"/>
            <default class="heavier"><geom density="9000"/></default></default></default>
        <worldbody><body childclass="heavy"><joint axis="1 0 0"/><geom type="capsule"/>
          <body pos="0 0 1"><joint class="main" axis="0 1 0"/><geom class="heavier" type="cylinder"/>
          <geom class="main" type="sphere" size="0.1" pos="0.2 0 0"/></body></body></worldbody></mujoco>""",
    "inertial_forms": """<mujoco><compiler angle="radian"/><worldbody>
        <body><joint/><inertial pos="0.1 0 0" quat="0.9 0.1 0.2 0.3" mass="2" diaginertia="0.3 0.2 0.15"/></body>
        <body><joint/><inertial pos="0 0.1 0" mass="2" fullinertia="0.3 0.2 0.15 0.01 -0.02 0.03"/></body>
        <body><joint/><inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/><geom size="1"/></body>
        </worldbody></mujoco>""",
    "inertiafromgeom_true_and_bounds": """<mujoco>
        <compiler inertiafromgeom="true" boundmass="0.5" boundinertia="0.01" settotalmass="7"/>
        <worldbody><body><joint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
          <geom type="box" size=".1 .1 .1" density="10"/><geom type="sphere" size=".05" pos=".2 0 0"/>
          <body pos="0 0 -1"><joint/><geom type="sphere" size="0.01" density="1"/></body>
        </body></worldbody></mujoco>""",
    "balanceinertia": """<mujoco><compiler balanceinertia="true"/><worldbody>
        <body><joint/><inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.5"/></body></worldbody></mujoco>""",
    "frames_and_sites": """<mujoco><worldbody><frame pos="0 0 1" euler="0 90 0">
        <body pos="0.5 0 0"><joint/><geom type="box" size=".1 .2 .3"/><site name="s" pos="0 0 0.3"/>
          <frame euler="0 0 45"><geom type="capsule" fromto="0 0 0 0 0 1" size="0.05"/></frame></body>
        </frame></worldbody></mujoco>""",
    "ball_range_partial_vectors": """<mujoco><default><geom friction="0.3 0.02 0.003" size="0.1 0.2 0.3"/>
        <default class="c"><geom friction="0.9"/></default></default><worldbody>
        <body><joint type="ball" range="0 60" armature="0.2"/><geom class="c" type="box" size="0.4"/>
          <geom type="ellipsoid" friction="0.5 0.1" solimp="0.8 0.9"/></body></worldbody></mujoco>""",
    "spatial_tendon": """<mujoco><worldbody>
        <body><joint axis="0 1 0"/><geom name="wheel" type="cylinder" size="0.1 0.05" euler="90 0 0"/>
          <site name="s0" pos="0 0 0.3"/><site name="side" pos="0.2 0 0"/>
          <body pos="0.5 0 0"><joint axis="0 1 0"/><geom name="ball" size="0.08"/><site name="s1" pos="0.2 0 0"/>
            <site name="s2" pos="0.3 0 0"/></body></body></worldbody>
        <tendon><spatial name="cable" range="0 2" stiffness="10"><site site="s0"/><geom geom="wheel" sidesite="side"/>
          <site site="s1"/><pulley divisor="2"/><site site="s1"/><geom geom="ball"/><site site="s2"/></spatial>
          </tendon>
        <actuator><motor tendon="cable"/></actuator><sensor><tendonpos tendon="cable"/></sensor></mujoco>""",
    "replicate_nested": """<mujoco><worldbody>
        <replicate count="2" offset="0 1 0" euler="90 0 0">
          <replicate count="3" sep="-" offset="1 0 0" euler="0 30 0">
            <body name="b"><joint name="j"/><geom name="g" type="box" size=".1 .2 .3"/><site name="s"/></body>
          </replicate></replicate>
        <replicate count="12" offset="0 0 0.5"><geom type="sphere" size="0.05"/></replicate>
        </worldbody></mujoco>""",
    "mocap_and_key_quaternions": """<mujoco><worldbody>
        <body mocap="true" pos="0 0 2"><geom size="0.1"/><body pos="0 0 1"><geom size="0.1"/></body></body>
        <body><freejoint/><geom size="0.1"/><body><joint type="ball"/><geom size="0.1" pos="0 0 1"/></body></body>
        </worldbody><keyframe><key qpos="0 0 1 2 0 0 0 1 1 0 0" mpos="0 0 3" mquat="1 0 0 0"/></keyframe></mujoco>""",
    "group_excluded_from_inertia": """<mujoco><compiler inertiagrouprange="0 2"/><worldbody>
        <body><joint/><geom size="0.1"/><geom size="0.5" group="3" pos="1 0 0"/></body></worldbody></mujoco>""",
    "extras": """<mujoco>
        <default><motor gear="2"/><pair margin="0.01"/><tendon stiffness="3"/></default>
        <worldbody><geom name="floor" type="plane" size="1 1 .1" solmix="2"/>
          <body name="a"><joint name="j1"/><geom name="ga" size=".1" friction="0.5 0.01 0.001" condim="4"/>
            <site name="sa"/>
            <body name="b" pos="0 0 1"><joint name="j2" type="slide" range="-1 1"/><geom name="gb" size=".1"/>
              <site name="sb"/></body></body>
          <body name="c" pos="1 0 0"><joint name="j3"/><geom size=".1"/></body></worldbody>
        <tendon><fixed name="t" range="-1 2"><joint joint="j1" coef="1"/><joint joint="j2" coef="-0.5"/></fixed></tendon>
        <actuator><motor name="m0" joint="j1" ctrlrange="-1 1"/><position joint="j2" kp="30" kv="2" timeconst="0.1"/>
          <velocity tendon="t" kv="4" forcerange="-3 3"/><general site="sb" refsite="sa" gear="0 0 1 0 0 0"
           dyntype="filter" dynprm="0.2" gaintype="affine" gainprm="1 2 3" biastype="affine" biasprm="0 -1"/>
          <intvelocity joint="j3" kp="5" actrange="-1 1"/><damper joint="j3" kv="2" ctrlrange="0 1"/>
          <position joint="j2" kp="40" dampratio="0.7" gear="2" inheritrange="0.5"/>
          <position joint="j1" kp="10" dampratio="1"/>
          <position cranksite="sa" slidersite="sb" cranklength="0.3" kp="3"/></actuator>
        <sensor><jointpos joint="j1"/><tendonpos tendon="t"/><actuatorfrc actuator="m0" name="f"/>
          <framepos objtype="site" objname="sb" noise="0.1"/><subtreecom body="a"/><touch site="sa"/></sensor>
        <contact><pair geom1="ga" geom2="floor"/><pair geom1="gb" geom2="floor" condim="1" friction="0.3"/>
          <exclude body1="a" body2="c"/></contact>
        <equality><connect body1="b" body2="c" anchor="0 0 1"/><joint joint1="j3" joint2="j1" polycoef="0 2"/>
          <weld body1="c" active="false" solref="0.05 1"/><tendon tendon1="t" polycoef="0.1"/></equality>
        <keyframe><key name="k" qpos="0.1 0.2 0.3" ctrl="0 0 0 0 0 0.5 0 0 0" act="0.1 0.2 0.3" time="1"/></keyframe>
        </mujoco>""",
    "massless_static_child": """<mujoco><worldbody><body pos="1 2 3" euler="0 0 30"><joint/>
        <body pos="0 0 1"><geom type="box" size=".1 .1 .1"/></body></body>
        <body pos="0 1 0"/></worldbody></mujoco>""",
}


@pytest.mark.parametrize("name", sorted(SEMANTICS))
def test_compiler_semantics(name):
    model, m = _both(SEMANTICS[name])
    compare_fields(model, m)
    compare_dynamics(model, m, seed=1)


def test_mesh_inertia_matches_mujoco(tmp_path):
    """STL and OBJ meshes: mass, center of mass and principal frame as MuJoCo (its default
    ``inertia="legacy"``), including the shift of the geom frame to the mesh's principal frame."""
    import trimesh
    box = trimesh.creation.box([0.4, 0.2, 0.1])
    box.apply_translation([0.1, 0.05, 0.0])
    box.export(tmp_path / "box.stl")
    cyl = trimesh.creation.cylinder(0.1, 0.5, sections=16)
    cyl.apply_transform(trimesh.transformations.rotation_matrix(0.3, [1, 0, 0]))
    cyl.export(tmp_path / "cyl.obj")
    xml = f"""<mujoco><compiler meshdir="{tmp_path}"/>
      <asset><mesh name="box" file="box.stl"/><mesh name="cyl" file="cyl.obj" scale="1 2 1"/></asset>
      <worldbody><body><joint/><geom type="mesh" mesh="box" pos="0.1 0 0" euler="10 0 0"/>
        <body pos="0 0 1"><joint axis="1 0 0"/><geom type="mesh" mesh="cyl" density="500"/>
          <geom type="mesh" mesh="box" pos="0 0.3 0"/></body></body></worldbody></mujoco>"""
    model, m = _both(xml, base_dir=tmp_path)      # (XML text reads files only from base_dir)
    compare_fields(model, m)
    compare_dynamics(model, m)
    assert model.nmesh == 2 and model.nmeshvert == m.nmeshvert


def test_include(tmp_path):
    (tmp_path / "arm.xml").write_text('<mujoco><worldbody><body name="arm"><joint/>'
                                      '<geom class="big" type="capsule" fromto="0 0 0 0 0 1"/></body></worldbody></mujoco>')
    (tmp_path / "defaults.xml").write_text('<mujoco><default><default class="big"><geom size="0.2"/>'
                                           '</default></default></mujoco>')
    (tmp_path / "main.xml").write_text('<mujoco><include file="defaults.xml"/><include file="arm.xml"/>'
                                       '<worldbody><body pos="1 0 0"><joint/><geom size="0.1"/></body></worldbody></mujoco>')
    path = tmp_path / "main.xml"
    model, m = load_mjcf(path), mujoco.MjModel.from_xml_path(str(path))
    compare_fields(model, m)
    assert model.body_names[1] == "arm"
    (tmp_path / "loop.xml").write_text('<mujoco><include file="loop.xml"/></mujoco>')
    with pytest.raises(ModelError, match="recursive include"):
        load_mjcf(tmp_path / "loop.xml")


# -- the public entry points ------------------------------------------------------------------
def test_load_model_dispatch():
    xml = '<mujoco><worldbody><body><joint/><geom size="1"/></body></worldbody></mujoco>'
    assert rbd.load_model(xml).nv == 1
    urdf = '<?xml version="1.0"?><robot name="r"><link name="a"/></robot>'
    assert rbd.load_model(urdf).nbody == 2
    assert rbd.ModelError is ModelError


def test_roundtrip_through_export():
    """to_mjcf(model) loads back to the same dynamics."""
    model = load_mjcf(MODELS[0])
    again = load_mjcf(rbd.io.to_mjcf(model))
    q = model.qpos0 + 0.3
    np.testing.assert_allclose(rbd.crba(again, q), rbd.crba(model, q), atol=1e-12)


# -- errors -----------------------------------------------------------------------------------
ERRORS = {
    "unknown attribute": ('<mujoco><worldbody><body fo="1"/></worldbody></mujoco>', 1, "body", "fo"),
    "bad number": ('<mujoco><worldbody>\n<body pos="0 x 0"/></worldbody></mujoco>', 2, "body", "pos"),
    "negative mass": ('<mujoco><worldbody><body><joint/>\n<inertial pos="0 0 0" mass="-1" '
                      'diaginertia="1 1 1"/></body></worldbody></mujoco>', 2, "inertial", "mass"),
    "not positive definite": ('<mujoco><worldbody><body><joint/><inertial pos="0 0 0" mass="1" '
                              'fullinertia="1 1 1 2 0 0"/></body></worldbody></mujoco>', 1, "inertial",
                              "fullinertia"),
    "massless moving body": ('<mujoco><worldbody>\n\n<body><joint/></body></worldbody></mujoco>', 3, "body", None),
    "unknown class": ('<mujoco><worldbody><body><geom class="nope" size="1"/></body></worldbody></mujoco>',
                      1, "geom", "class"),
    "missing include": ('<mujoco><include file="does_not_exist.xml"/></mujoco>', 1, "include", "file"),
    "two orientations": ('<mujoco><worldbody><body euler="0 0 1" quat="1 0 0 0"/></worldbody></mujoco>',
                         1, "body", "euler"),
    "range without limited": ('<mujoco><compiler autolimits="false"/><worldbody><body><joint range="0 1"/>'
                              '<geom size="1"/></body></worldbody></mujoco>', 1, "joint", "range"),
    "zero size": ('<mujoco><worldbody><body><geom type="box" size="1 0 1"/></body></worldbody></mujoco>',
                  1, "geom", "size"),
    "replicate referenced": ('<mujoco><worldbody><replicate count="2"><body><joint name="j"/>'
                             '<geom size="1"/></body></replicate><body><joint name="k"/><geom size="1"/>'
                             '</body></worldbody>\n<equality><joint joint1="j" joint2="k"/>'
                             '</equality></mujoco>', 2, "joint", "joint1"),
    "unsupported element": ('<mujoco><worldbody><body><composite/></body></worldbody></mujoco>', 1,
                            "composite", None),
    "malformed": ('<mujoco><worldbody></mujoco>', 1, None, None),
    # MuJoCo: "plane only allowed in static bodies" (also below a moving body)
    "plane on a moving body": ('<mujoco><worldbody><body><freejoint/><geom size="1"/>\n<body>'
                               '<geom type="plane" size="1 1 1"/></body></body></worldbody></mujoco>',
                               2, "geom", "type"),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_name_the_place(case):
    xml, line, element, attribute = ERRORS[case]
    with pytest.raises(ModelError) as info:
        load_mjcf(xml)
    e = info.value
    assert e.line == line, str(e)
    assert e.element == element, str(e)
    assert e.attribute == attribute, str(e)
    assert str(e).startswith("<string>:")


def test_error_names_the_file(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text('<mujoco>\n<worldbody>\n<body pos="1 2"/></worldbody></mujoco>')
    with pytest.raises(ModelError, match=r"bad\.xml:3: <body pos=\.\.\.>"):
        load_mjcf(path)
    with pytest.raises(ModelError, match="cannot read"):
        load_mjcf(tmp_path / "missing.xml")


def test_include_and_replicate_bombs_refused(tmp_path):
    """Files that would grow without bound are refused quickly, not expanded."""
    (tmp_path / "c.xml").write_text('<mujoco><worldbody><geom size="1"/></worldbody></mujoco>')
    (tmp_path / "b.xml").write_text("<mujoco>" + '<include file="c.xml"/>' * 100 + "</mujoco>")
    (tmp_path / "a.xml").write_text("<mujoco>" + '<include file="b.xml"/>' * 100 + "</mujoco>")
    with pytest.raises(ModelError, match="more than 1000 includes"):
        load_mjcf(tmp_path / "a.xml")
    bomb = ('<mujoco><worldbody><replicate count="1000"><replicate count="1000"><replicate count="1000">'
            '<geom size="1"/></replicate></replicate></replicate></worldbody></mujoco>')
    with pytest.raises(ModelError, match="more than 200000 elements"):
        load_mjcf(bomb)


def test_deep_chains():
    """A 1000-body chain (a rope) loads; an absurdly deep one is a ModelError, not a crash."""
    def chain(n):
        return ("<mujoco><worldbody>" + '<body pos="0 0 0.1"><joint/><geom size="0.05"/>' * n
                + "</body>" * n + "</worldbody></mujoco>")
    assert load_mjcf(chain(1000)).nbody == 1001
    with pytest.raises(ModelError, match="nested too deeply"):
        load_mjcf(chain(20000))


def test_entity_expansion_refused():
    bomb = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>'
            '<mujoco model="&lol2;"/>')
    with pytest.raises(ModelError, match="unsafe|DTD"):
        load_mjcf(bomb)


def test_random_geom_bodies_match_mujoco():
    """Bodies built from 1-3 random primitives (random sizes, poses, orientation forms and
    densities): masses, centers, principal moments and axes, and dynamics as MuJoCo."""
    rng = np.random.default_rng(7)
    kinds = ["sphere", "capsule", "cylinder", "ellipsoid", "box"]
    forms = ["euler", "axisangle", "quat", "xyaxes", "zaxis", "fromto"]
    bodies = []
    for b in range(25):
        geoms = []
        for _ in range(rng.integers(1, 4)):
            kind, form = kinds[rng.integers(5)], forms[rng.integers(6)]
            s = rng.uniform(0.02, 0.3, 3)
            p = rng.normal(size=3) * 0.3
            v = rng.normal(size=6)
            orient = {"euler": f'euler="{v[0] * 90} {v[1] * 90} {v[2] * 90}"',
                      "axisangle": f'axisangle="{v[0]} {v[1]} {v[2]} {v[3] * 90}"',
                      "quat": f'quat="{v[0]} {v[1]} {v[2]} {v[3]}"',
                      "xyaxes": f'xyaxes="{" ".join(map(str, v))}"',
                      "zaxis": f'zaxis="{v[0]} {v[1]} {v[2]}"',
                      "fromto": f'fromto="{" ".join(map(str, v * 0.3))}"'}[form]
            if form == "fromto" and kind == "sphere":
                kind = "capsule"
            geoms.append(f'<geom type="{kind}" size="{s[0]} {s[1]} {s[2]}" '
                         f'{"" if form == "fromto" else f"pos={chr(34)}{p[0]} {p[1]} {p[2]}{chr(34)}"} '
                         f'{orient} density="{rng.uniform(100, 3000)}"/>')
        joint = ["<joint/>", '<joint type="slide" axis="1 1 0"/>', '<joint type="ball"/>'][b % 3]
        bodies.append(f'<body pos="{b * 0.1} 0 0">{joint}{"".join(geoms)}</body>')
    xml = f"<mujoco><worldbody>{''.join(bodies)}</worldbody></mujoco>"
    model, m = _both(xml)
    compare_fields(model, m)
    compare_dynamics(model, m)


def test_mesh_inertia_modes_match_mujoco():
    """Inline meshes: vertices only (MuJoCo takes the convex hull), and an L-shaped (not
    convex) prism under inertia="legacy", "exact" and "convex"."""
    # an L-shaped prism: 6 profile points in the x-y plane, extruded along z
    profile = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 3), (0, 3)]
    vert = [(x, y, z) for z in (0.0, 0.5) for x, y in profile]
    faces = []
    for k in range(6):                                   # sides, outward
        a, b = k, (k + 1) % 6
        faces += [(a, b, b + 6), (a, b + 6, a + 6)]
    faces += [(0, 3, 1), (1, 3, 2), (0, 5, 3), (3, 5, 4)]            # bottom (normal -z)
    faces += [(6, 7, 9), (7, 8, 9), (6, 9, 11), (9, 10, 11)]         # top (normal +z)
    v = " ".join(f"{c}" for p in vert for c in p)
    f = " ".join(str(i) for t in faces for i in t)
    cube = " ".join(f"{x} {y} {z}" for x in (0, 1) for y in (0, 0.5) for z in (0, 0.2)) + " 0.5 0.25 0.1"
    for mode in ("legacy", "exact", "convex"):
        xml = f"""<mujoco><asset><mesh name="L" inertia="{mode}" vertex="{v}" face="{f}"/>
          <mesh name="cube" vertex="{cube}"/></asset>
          <worldbody><body><joint/><geom type="mesh" mesh="L" density="300"/>
          <body pos="3 0 0"><joint axis="1 0 0"/><geom type="mesh" mesh="cube"/></body></body></worldbody></mujoco>"""
        model, m = _both(xml)
        compare_fields(model, m)
        compare_dynamics(model, m)
