"""Height field collisions against MuJoCo 4.0.0, contact by contact.

Each scene is a random terrain (inline ``elevation``, 2 to 6 rows and columns, random
extent, elevation and base; the height field turned in a third of the scenes) and a free
body of one convex type placed over it, near the surface, in a random orientation; every
third scene has a margin. MuJoCo and rbdl_edu load the same XML.

Checks
------
* the same number of contacts in every scene, in the same order (MuJoCo's loop: rows,
  columns, the two triangles of a cell), capped at 50 (``mjMAXCONPAIR``);
* sphere and capsule (a point and a segment against a prism: exact in both engines):
  ``dist`` and normal to 1e-9, ``pos`` to 1e-5;
* ellipsoid and cylinder (curved: MuJoCo's normal is the normalized difference of its
  witness points, good to about ``sqrt(ccd_tolerance)``; ours is polished): ``dist`` to
  1e-6, normals to 1e-4, and ours separates at least as well as MuJoCo's;
* box and mesh: see below;
* every contact of ours lies on both surfaces: ``pos - n dist/2`` on a prism (its convex
  hull from ``scipy.spatial.ConvexHull``) and ``pos + n dist/2`` on the geom, to 1e-9.

As in ``test_collision_mujoco.py`` the scenes set ``ccd_tolerance="1e-11"`` (MuJoCo's
default of 1e-6 leaves its deep-penetration answers on curved shapes good to only about
1e-6 in distance and 1e-3 in position, which ``test_terrain_trajectory`` sees at the
default on the book's model with shallow contacts).

The difference we keep: box and mesh with zero margin
-----------------------------------------------------
With no margin, MuJoCo's native EPA treats a box or a mesh against a prism as two
*discrete* shapes and stops as soon as a support point repeats, recognized by the
vertex indices of both shapes. The prism's support function does not set one (it stays
-1), so EPA stops at the first repeated box or mesh vertex, paired with any prism vertex:
its ``dist`` is then a lower bound of the penetration depth, and along its normal the two
shapes overlap by more than it says. Ours is the exact penetration: along our normal the
separation equals our ``dist``, and no direction separates the two shapes more. The test
checks exactly that, that MuJoCo's depth is never deeper than ours, and that MuJoCo, given
a margin of 1e-9 (which makes it take its general path), agrees with ours to 1e-6.
"""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from scipy.spatial import ConvexHull
from test_collision_mujoco import separation, surface_residual

import rbdl_edu as rbd
from rbdl_edu.collision.hfield import hfield_grid
from rbdl_edu.rotation import quat_to_mat

TYPES = ("sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh")
EXACT, CURVED, POLYTOPE = {"sphere", "capsule"}, {"ellipsoid", "cylinder"}, {"box", "mesh"}
N_SCENES = 30
OPTION = '<option ccd_tolerance="1e-11" ccd_iterations="2000"/>'


def _f(v):
    return " ".join(repr(float(x)) for x in np.atleast_1d(v))


def random_quat(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def random_scene(typ, rng, margin):
    """MJCF text: a random height field (world geom 0) and a free ``typ`` geom (geom 1)."""
    nrow, ncol = rng.integers(2, 7, size=2)
    a, b = rng.uniform(0.3, 1.0, 2)
    top, base = rng.uniform(0.05, 0.4), rng.uniform(0.05, 0.3)
    size = {"sphere": rng.uniform(0.05, 0.3, 1), "capsule": [rng.uniform(0.05, 0.2), rng.uniform(0.05, 0.3)],
            "cylinder": [rng.uniform(0.05, 0.2), rng.uniform(0.05, 0.3)]}.get(typ, rng.uniform(0.05, 0.3, 3))
    asset = ""
    geom = f'type="{typ}" size="{_f(size)}"'
    if typ == "mesh":
        v = rng.normal(size=(12, 3))
        v = v / np.linalg.norm(v, axis=1, keepdims=True) * rng.uniform(0.08, 0.3, 3)
        asset, geom = f'<mesh name="m" vertex="{_f(v.ravel())}"/>', 'type="mesh" mesh="m"'
    hquat = random_quat(rng) if rng.random() < 0.3 else np.array([1.0, 0, 0, 0])
    hpos = rng.uniform(-0.2, 0.2, 3)
    # over the grid, from a little under the surface to a little above its top
    local = [rng.uniform(-a, a), rng.uniform(-b, b), rng.uniform(-0.1, top + 0.3)]
    pos = hpos + quat_to_mat(hquat) @ local
    return f"""<mujoco>{OPTION}<asset>{asset}
      <hfield name="h" nrow="{nrow}" ncol="{ncol}" size="{_f([a, b, top, base])}"
              elevation="{_f(rng.uniform(0, 1, nrow * ncol))}"/></asset>
      <worldbody><geom type="hfield" hfield="h" pos="{_f(hpos)}" quat="{_f(hquat)}" margin="{margin!r}"/>
      <body pos="{_f(pos)}" quat="{_f(random_quat(rng))}"><freejoint/><geom {geom}/></body>
      </worldbody></mujoco>"""


def contacts_both(xml):
    """Our model, data (after collision) and contacts, and MuJoCo's contacts, at qpos0."""
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    data.qpos[:] = d.qpos
    return model, data, rbd.collision.detect(model, data), list(d.contact[:d.ncon])


def prisms(model, data, g):
    """World vertices ``(6, 3)`` of every prism of height field geom ``g``, in MuJoCo's order."""
    h = model.geom_dataid[g]
    x, y, z = hfield_grid(model, h)
    base = model.hfield_size[h][3]
    R, p = data.geom_xmat[g], data.geom_xpos[g]
    out = []
    for r in range(len(y) - 1):
        for c in range(1, len(x)):
            for tri in (((r + 1, c - 1), (r, c - 1), (r + 1, c)), ((r, c - 1), (r + 1, c), (r, c))):
                top = np.array([[x[j], y[i], z[i, j]] for i, j in tri])
                out.append(p + np.concatenate([top * [1, 1, 0] - [0, 0, base], top]) @ R.T)
    return out


def prism_separation(model, data, P, g, n):
    """Gap between prism ``P`` and geom ``g`` along ``n`` (from the prism to the geom)."""
    from rbdl_edu.collision.convex import support
    return n @ support(model, data.geom_xpos, data.geom_xmat, g, -n) - (P @ n).max()


def owners(model, data, contacts, P, rng):
    """For each of our contacts, the prism it belongs to, checking on the way that it is right:
    its witness points lie on that prism (its convex hull, from ``scipy``) and on the geom;
    the separation of the two along its normal is its ``dist``, and no direction separates
    them more (the exact distance, or the exact penetration depth). Contacts come in the
    order of the prisms, so each owner is searched from the previous one on."""
    out, start = [], 0
    for c in contacts:
        a, b = c.pos - c.normal * c.dist / 2, c.pos + c.normal * c.dist / 2
        assert surface_residual(model, data.geom_xpos, data.geom_xmat, 1, b) < 1e-9, c
        dirs = np.concatenate([rng.normal(size=(300, 3)), c.normal + 0.05 * rng.normal(size=(100, 3))])
        dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
        for k in range(start, len(P)):
            hull = ConvexHull(P[k])
            if abs((hull.equations[:, :3] @ a + hull.equations[:, 3]).max()) < 1e-9 and \
                    abs(prism_separation(model, data, P[k], 1, c.normal) - c.dist) < 1e-9 and \
                    all(prism_separation(model, data, P[k], 1, v) <= c.dist + 1e-9 for v in dirs):
                break
        else:
            raise AssertionError(f"no prism from {start} on has {c} as its exact contact")
        out.append(k)
        start = k + 1
    return out


@pytest.mark.parametrize("typ", TYPES)
def test_against_mujoco(typ):
    rng_check = np.random.default_rng(1)
    worst, touching = {}, 0
    for seed in range(N_SCENES):
        margin = 0.05 if seed % 3 == 0 else 0.0
        xml = random_scene(typ, np.random.default_rng(seed), margin)
        model, data, ours, theirs = contacts_both(xml)
        assert len(ours) == len(theirs), (typ, seed, ours, theirs)
        touching += len(ours) > 0
        if not ours:
            continue
        P = prisms(model, data, 0)
        owner = owners(model, data, ours, P, rng_check)
        if typ in POLYTOPE and margin == 0:
            # MuJoCo's discrete EPA stops early (module docstring): its depth is never deeper
            # than ours (exact, checked above), and it agrees once a tiny margin sends it the
            # general way
            for c, t in zip(ours, theirs):
                assert t.dist >= c.dist - 1e-6
            xml = xml.replace('margin="0.0"', 'margin="1e-09"')
            model, data, ours, theirs = contacts_both(xml)
            assert len(ours) == len(theirs)
        for i, (c, t) in enumerate(zip(ours, theirs)):
            n_mj = t.frame[:3]
            err = {"dist": abs(c.dist - t.dist), "normal": np.abs(c.normal - n_mj).max(),
                   "pos": np.abs(c.pos - t.pos).max()}
            if typ in CURVED:
                k = owner[i]
                assert prism_separation(model, data, P[k], 1, c.normal) >= \
                    prism_separation(model, data, P[k], 1, n_mj / np.linalg.norm(n_mj)) - 1e-9
            for key, v in err.items():
                worst[key] = max(worst.get(key, 0.0), v)
    assert touching >= N_SCENES // 2, "too few scenes in contact to test anything"
    tol = {"dist": 1e-9, "normal": 1e-9, "pos": 1e-5} if typ in EXACT else \
        {"dist": 1e-6, "normal": 1e-4, "pos": 1e-4} if typ in CURVED else {"dist": 1e-6, "normal": 1e-6, "pos": 1e-5}
    for key, v in worst.items():
        assert v < tol[key], (typ, worst)


def test_moving_height_field():
    """A height field on a free body, turned, against a sphere and a box in the world (the
    contacts keep the height field as geom1, by geom type)."""
    rng = np.random.default_rng(3)
    for seed in range(8):
        q = random_quat(rng)
        xml = f"""<mujoco>{OPTION}<asset><hfield name="h" nrow="4" ncol="5" size="0.6 0.5 0.2 0.1"
            elevation="{_f(rng.uniform(0, 1, 20))}"/></asset><worldbody>
            <geom type="sphere" size="0.15" pos="0.1 0 0.25" margin="1e-9"/>
            <geom type="box" size="0.1 0.2 0.05" pos="-0.3 0.1 0.2" euler="10 20 30" margin="1e-9"/>
            <body pos="{_f(rng.uniform(-0.1, 0.1, 3))}" quat="{_f(q if seed % 2 else [1, 0, 0, 0])}">
              <freejoint/><geom type="hfield" hfield="h"/></body></worldbody></mujoco>"""
        model, data, ours, theirs = contacts_both(xml)
        assert [(c.geom1, c.geom2) for c in ours] == [(int(t.geom[0]), int(t.geom[1])) for t in theirs]
        for c, t in zip(ours, theirs):
            assert abs(c.dist - t.dist) < 1e-9 and np.abs(c.normal - t.frame[:3]).max() < 1e-9


def test_contact_cap_and_order():
    """A large sphere over a fine grid: MuJoCo keeps the first 50 contacts of its loop; so do we."""
    rng = np.random.default_rng(0)
    xml = f"""<mujoco>{OPTION}<asset><hfield name="h" nrow="20" ncol="20" size="1 1 0.1 0.1"
        elevation="{_f(rng.uniform(0, 1, 400))}"/></asset><worldbody><geom type="hfield" hfield="h"/>
        <body pos="0.1 0.05 0.12"><freejoint/><geom type="sphere" size="0.5"/></body></worldbody></mujoco>"""
    model, data, ours, theirs = contacts_both(xml)
    assert len(ours) == len(theirs) == 50
    for c, t in zip(ours, theirs):
        assert abs(c.dist - t.dist) < 1e-9 and np.abs(c.normal - t.frame[:3]).max() < 1e-9


@pytest.mark.parametrize("height", [0.099, 0.11, 0.139, 0.149, 0.151, 0.17, 0.19])
def test_margin_gap_and_parameters(height):
    """A sphere (r = 0.1) over a flat patch: a contact when ``dist < margin + gap`` (0.03 +
    0.02), active when ``dist < margin``; condim, friction, solref, solimp mixed as for any pair."""
    xml = f"""<mujoco>{OPTION}<asset><hfield name="h" nrow="3" ncol="3" size="1 1 0.2 0.1"/></asset>
      <worldbody><geom type="hfield" hfield="h" margin="0.01" gap="0.02" condim="4" friction="0.6 0.01 0.001"
        solref="0.03 1.2" solmix="3" priority="0"/>
      <body pos="0.3 -0.2 {height}"><freejoint/><geom type="sphere" size="0.1" margin="0.02"
        friction="0.9 0.02 0.0002" solref="0.01 0.8" solimp="0.8 0.9 0.01 0.4 3" solmix="1" condim="3"/></body>
      </worldbody></mujoco>"""
    model, data, ours, theirs = contacts_both(xml)
    assert len(ours) == len(theirs) == (1 if height - 0.1 < 0.05 else 0)
    for c, t in zip(ours, theirs):
        assert abs(c.dist - (height - 0.1)) < 1e-12 and abs(c.dist - t.dist) < 1e-12
        assert np.isclose(c.includemargin, 0.03) and np.isclose(c.gap, 0.02)
        assert c.exclude == (c.dist >= 0.03) == bool(t.exclude)
        assert c.dim == t.dim
        np.testing.assert_allclose(c.friction, t.friction, atol=1e-15)
        np.testing.assert_allclose(c.solref, t.solref, atol=1e-15)
        np.testing.assert_allclose(c.solimp, t.solimp, atol=1e-15)


def test_no_collider_with_planes_and_height_fields():
    """Height field against a plane or another height field: no contacts in either engine."""
    xml = f"""<mujoco>{OPTION}<asset><hfield name="h" nrow="3" ncol="3" size="1 1 0.2 0.1"/></asset>
      <worldbody><geom type="plane" size="0 0 1"/>
      <body pos="0 0 0.05"><freejoint/><geom type="hfield" hfield="h"/></body>
      <body pos="0.2 0 0.1"><freejoint/><geom type="hfield" hfield="h"/></body></worldbody></mujoco>"""
    model, data, ours, theirs = contacts_both(xml)
    assert ours == [] and theirs == []
    log = []
    rbd.collision.candidate_pairs(model, data.geom_xpos, data.geom_xmat, log)
    assert {reason for *_, reason in log} <= {"no collider", "bounding sphere"}


def test_terrain_trajectory():
    """``models/terrain_hfield.xml`` as written (default ``ccd_tolerance``): a ball rolling in
    a bumpy bowl; at states along MuJoCo's own trajectory, the same contacts."""
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "models" / "terrain_hfield.xml"
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    model = rbd.load_model(path)
    data = rbd.Data(model)
    seen = 0
    for step in range(3000):
        mujoco.mj_step(m, d)
        if step % 60:
            continue
        mujoco.mj_forward(m, d)                  # the contacts of the new state, not the last one
        data.qpos[:] = d.qpos
        ours, theirs = rbd.collision.detect(model, data), d.contact[:d.ncon]
        assert len(ours) == len(theirs), (step, ours, theirs)
        seen += len(ours)
        for c, t in zip(ours, theirs):
            assert abs(c.dist - t.dist) < 1e-9 and np.abs(c.normal - t.frame[:3]).max() < 1e-9
            assert np.abs(c.pos - t.pos).max() < 1e-9
    assert seen >= 40, seen
