"""Each collision filter rule, and parameter mixing, against MuJoCo 4.0.0.

Every scene is built with ``ModelSpec`` from overlapping spheres (so a pair that reaches the
narrowphase always makes a contact: the candidate pairs after filtering are exactly the
contact pairs), exported with ``to_mjcf`` (with its ``<contact><pair>/<exclude>``), and
the geom pairs in contact are compared; the contact parameters too.
"""
from __future__ import annotations

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.collision import candidate_pairs
from rbdl_edu.collision.geometry import geom_poses
from rbdl_edu.io.export import to_mjcf

INERTIA = dict(mass=1.0, inertia=[0.01, 0.01, 0.01])


def run_both(spec, qpos=None, flags=""):
    """(our contacts, MuJoCo's contacts) as lists, for the spec at qpos (default qpos0)."""
    model = spec.compile()
    xml = to_mjcf(model)
    if flags:
        xml = xml.replace("<worldbody>", f"<option><flag {flags}/></option><worldbody>", 1)
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    data = rbd.Data(model)
    if qpos is not None:
        d.qpos[:] = data.qpos[:] = qpos
    else:
        d.qpos[:] = data.qpos
    mujoco.mj_kinematics(m, d)
    mujoco.mj_collision(m, d)
    return rbd.collision.detect(model, data), list(d.contact[:d.ncon]), model


def pairs(ours, theirs):
    return ({(c.geom1, c.geom2) for c in ours},
            {(int(c.geom[0]), int(c.geom[1])) for c in theirs})


def assert_same_pairs(ours, theirs, expected=None):
    a, b = pairs(ours, theirs)
    assert a == b
    if expected is not None:
        assert a == expected
    return a


def test_same_body_never_collides():
    spec = rbd.ModelSpec()
    b = spec.add_body(0, "b", **INERTIA)
    spec.add_joint(b, "free")
    spec.add_geom(b, "sphere", [0.2], name="a")
    spec.add_geom(b, "sphere", [0.2], name="b", pos=[0.1, 0, 0])
    assert_same_pairs(*run_both(spec)[:2], expected=set())


def test_welded_child_never_collides_with_its_weld_parent():
    spec = rbd.ModelSpec()
    b = spec.add_body(0, "b", **INERTIA)
    spec.add_joint(b, "free")
    spec.add_geom(b, "sphere", [0.2])
    c = spec.add_body(b, "welded_child", pos=[0.1, 0, 0], **INERTIA)   # no joint: welded
    spec.add_geom(c, "sphere", [0.2])
    assert_same_pairs(*run_both(spec)[:2], expected=set())


def test_both_static_bodies_never_collide():
    spec = rbd.ModelSpec()
    for x in (0.0, 0.1):
        b = spec.add_body(0, pos=[x, 0, 0], **INERTIA)      # welded to the world
        spec.add_geom(b, "sphere", [0.2])
    assert_same_pairs(*run_both(spec)[:2], expected=set())


def chain(root_joint=True, **option):
    """A 3-link hinge chain whose links overlap their neighbours and the next-but-one."""
    spec = rbd.ModelSpec(**option)
    parent = 0
    for i in range(3):
        b = spec.add_body(parent, f"link{i}", pos=[0.15 if i else 0, 0, 0], **INERTIA)
        if i or root_joint:
            spec.add_joint(b, "hinge", f"j{i}", axis=[0, 1, 0])
        spec.add_geom(b, "sphere", [0.2], name=f"g{i}")
        parent = b
    return spec


def test_parent_child_excluded_but_not_grandparent():
    ours, theirs, _ = run_both(chain())
    # link0-link1 and link1-link2 are parent-child; link0-link2 are not
    assert_same_pairs(ours, theirs, expected={(0, 2)})


def test_static_parent_exception():
    """Remove the root joint: link0 is welded to the world, so the parent rule no longer
    applies to link0-link1 (a weld group that is the world is never a 'parent')."""
    ours, theirs, _ = run_both(chain(root_joint=False))
    assert_same_pairs(ours, theirs, expected={(0, 1), (0, 2)})


def test_filterparent_disabled():
    spec = chain(disableflags=frozenset({"filterparent"}))
    ours, theirs, _ = run_both(spec, flags='filterparent="disable"')
    assert_same_pairs(ours, theirs, expected={(0, 1), (0, 2), (1, 2)})


@pytest.mark.parametrize("seed", range(12))
def test_bitmasks(seed):
    """Random contype/conaffinity bits on 6 overlapping free spheres."""
    rng = np.random.default_rng(seed)
    spec = rbd.ModelSpec()
    for i in range(6):
        b = spec.add_body(0, pos=rng.uniform(-0.1, 0.1, 3), **INERTIA)
        spec.add_joint(b, "free")
        spec.add_geom(b, "sphere", [0.2], contype=int(rng.integers(0, 4)),
                      conaffinity=int(rng.integers(0, 4)))
    ours, theirs, model = run_both(spec)
    got = assert_same_pairs(ours, theirs)
    # and the rule itself
    ct, ca = model.geom_contype, model.geom_conaffinity
    assert got == {(i, j) for i in range(6) for j in range(i + 1, 6)
                   if (ct[i] & ca[j]) or (ct[j] & ca[i])}


def two_free_spheres(**kw):
    spec = rbd.ModelSpec()
    for i, x in enumerate((0.0, 0.3)):
        b = spec.add_body(0, f"b{i}", pos=[x, 0, 0], **INERTIA)
        spec.add_joint(b, "free")
        spec.add_geom(b, "sphere", [0.2], name=f"s{i}", **kw.get(f"geom{i}", {}))
    return spec


def test_exclude():
    spec = two_free_spheres()
    spec.add_exclude("b0", "b1")
    assert_same_pairs(*run_both(spec)[:2], expected=set())


def test_explicit_pair_bypasses_bitmask_with_its_own_parameters():
    spec = two_free_spheres(geom0=dict(contype=0, conaffinity=0))
    spec.add_pair("s0", "s1", condim=6, friction=[0.3, 0.3, 0.01, 0.002, 0.002], solref=[0.05, 0.8],
                  solimp=[0.8, 0.9, 0.01, 0.4, 3], margin=0.02, gap=0.01)
    ours, theirs, _ = run_both(spec)
    assert_same_pairs(ours, theirs, expected={(0, 1)})
    a, b = ours[0], theirs[0]
    assert a.dim == b.dim == 6
    np.testing.assert_allclose(a.friction, b.friction, atol=1e-15)
    np.testing.assert_allclose(a.solref, b.solref, atol=1e-15)
    np.testing.assert_allclose(a.solimp, b.solimp, atol=1e-15)
    assert a.includemargin == pytest.approx(b.includemargin, abs=1e-15)


def test_explicit_pair_replaces_the_dynamic_pair():
    """The same two geoms as an explicit pair and a dynamic pair: one contact, the pair's."""
    spec = two_free_spheres()
    spec.add_pair("s1", "s0", condim=1)
    ours, theirs, _ = run_both(spec)
    assert len(ours) == len(theirs) == 1
    assert ours[0].dim == theirs[0].dim == 1


def test_explicit_pair_undefined_values_are_pair_defaults():
    """MuJoCo 4.0: a <pair> attribute left out takes the <pair> default (margin 0, condim 3,
    friction 1 1 0.005 1e-4 1e-4, ...), not a value derived from the two geoms."""
    spec = two_free_spheres(geom0=dict(margin=0.03, priority=2, friction=[0.4, 0.01, 0.001], condim=4),
                            geom1=dict(margin=0.05, gap=0.02))
    spec.add_pair("s0", "s1")
    ours, theirs, _ = run_both(spec)
    a, b = ours[0], theirs[0]
    assert a.includemargin == pytest.approx(b.includemargin, abs=1e-15) and a.includemargin == 0
    assert a.dim == b.dim == 3
    np.testing.assert_allclose(a.friction, b.friction, atol=1e-15)
    np.testing.assert_allclose(a.solref, b.solref, atol=1e-15)
    np.testing.assert_allclose(a.solimp, b.solimp, atol=1e-15)


@pytest.mark.parametrize("gap_out", [0.0, 0.005, 0.02, 0.04])
def test_bounding_sphere_with_margin(gap_out):
    """Spheres apart by ``gap_out`` with margins 0.01 + 0.015 and gaps 0.004 + 0.002:
    detected exactly when gap_out < margin + gap."""
    spec = rbd.ModelSpec()
    for i, x in enumerate((0.0, 0.4 + gap_out)):
        b = spec.add_body(0, pos=[x, 0, 0], **INERTIA)
        spec.add_joint(b, "free")
        spec.add_geom(b, "sphere", [0.2], margin=[0.01, 0.015][i], gap=[0.004, 0.002][i])
    ours, theirs, _ = run_both(spec)
    expected = {(0, 1)} if gap_out < 0.031 else set()
    assert_same_pairs(ours, theirs, expected=expected)
    for a, b in zip(ours, theirs):
        assert a.exclude == bool(b.exclude)


@pytest.mark.parametrize("height", [0.15, 0.249, 0.251, 0.4])
def test_plane_bounding_test(height):
    """Plane-box: the special plane case of the bounding-sphere filter (signed height of the
    center against rbound + margin), then the narrowphase."""
    spec = rbd.ModelSpec()
    spec.add_geom(0, "plane", [0, 0, 1], margin=0.05)
    b = spec.add_body(0, pos=[0, 0, height], **INERTIA)
    spec.add_joint(b, "free")
    spec.add_geom(b, "box", [0.2, 0.2, 0.2])
    ours, theirs, _ = run_both(spec)
    assert_same_pairs(ours, theirs)
    assert len(ours) == len(theirs)


@pytest.mark.parametrize("seed", range(10))
def test_mixing(seed):
    """Random priorities, solmix, condim, friction, solref (standard and direct), solimp."""
    rng = np.random.default_rng(seed)

    def params():
        direct = rng.random() < 0.3
        return dict(priority=int(rng.integers(0, 2)), solmix=float(rng.choice([0.0, rng.uniform(0.1, 3)])),
                    condim=int(rng.choice([1, 3, 4, 6])), friction=list(rng.uniform(0, 1, 3)),
                    solref=[-rng.uniform(100, 1000), -rng.uniform(1, 50)] if direct
                    else [rng.uniform(0.01, 0.1), rng.uniform(0.5, 2)],
                    solimp=[rng.uniform(0.5, 0.9), rng.uniform(0.9, 0.99), rng.uniform(0.001, 0.01),
                            rng.uniform(0.3, 0.7), rng.uniform(1, 4)],
                    margin=float(rng.uniform(0, 0.01)), gap=float(rng.uniform(0, 0.01)))
    spec = two_free_spheres(geom0=params(), geom1=params())
    ours, theirs, _ = run_both(spec)
    assert len(ours) == len(theirs) == 1
    a, b = ours[0], theirs[0]
    assert a.dim == b.dim
    np.testing.assert_allclose(a.friction, b.friction, atol=1e-14)
    np.testing.assert_allclose(a.solref, b.solref, atol=1e-14)
    np.testing.assert_allclose(a.solimp, b.solimp, atol=1e-14)
    assert a.includemargin == pytest.approx(b.includemargin, abs=1e-14)


def test_candidate_log_reasons():
    """The filter log names the rule that dropped each geom pair."""
    spec = two_free_spheres()
    spec.add_geom(1, "sphere", [0.1], name="picky", contype=2, conaffinity=2)  # body-level OR passes
    spec.add_geom(2, "sphere", [0.01], name="far", pos=[1.0, 0, 0])
    model = spec.compile()
    gpos, gmat = geom_poses(model, rbd.Data(model).qpos)
    log = []
    kept = candidate_pairs(model, gpos, gmat, log)
    assert [(g1, g2) for g1, g2, _ in kept] == [(0, 1)]
    assert sorted(log) == [(0, 1, None), (0, 3, "bounding sphere"), (2, 1, "bitmask"),
                           (2, 3, "bitmask")]
