"""Drawing a height field (``rbdl_edu.viz.geometry.hfield_mesh``) without a browser: what the
pythreejs geometry holds."""
from pathlib import Path

import numpy as np
import pythreejs as three

import rbdl_edu as rbd
from rbdl_edu import viz
from rbdl_edu.collision.hfield import hfield_grid
from rbdl_edu.viz import geometry as geo

ROOT = Path(__file__).resolve().parents[1]


def test_height_field_drawn_as_a_closed_solid():
    model = rbd.load_model(ROOT / "models" / "terrain_hfield.xml")
    g = model.id("geom", "terrain")
    obj = geo.geom_object(model, g)
    assert isinstance(obj, three.Group) and obj.name == f"geom{g}"
    mesh = obj.children[0]
    pos = mesh.geometry.attributes["position"].array.reshape(-1, 3, 3).astype(float)
    normal = mesh.geometry.attributes["normal"].array.reshape(-1, 3, 3).astype(float)
    nrow, ncol = int(model.hfield_nrow[0]), int(model.hfield_ncol[0])
    n_top, n_border = 2 * (nrow - 1) * (ncol - 1), 2 * ((nrow - 1) + (ncol - 1))
    assert len(pos) == n_top + 3 * n_border              # per border segment: 2 for the wall, 1 below
    # the surface: every grid vertex at its elevation, normals up, the same diagonal as the
    # collision prisms (a cell's two triangles share the edge from (r, c-1) to (r+1, c))
    x, y, z = hfield_grid(model, 0)
    top = pos[:n_top]
    for i in range(nrow):
        for j in range(ncol):
            hit = np.all(np.isclose(top, [x[j], y[i], z[i, j]], atol=1e-6), axis=-1)
            assert hit.any(), (i, j)
    assert np.all(normal[:n_top, :, 2] > 0)
    first = {tuple(np.round(v, 5)) for v in top[0]} & {tuple(np.round(v, 5)) for v in top[1]}
    assert first == {tuple(np.round([x[0], y[0], z[0, 0]], 5)), tuple(np.round([x[1], y[1], z[1, 1]], 5))}
    # walls and bottom reach the base's bottom and face outwards; the solid is closed: every
    # edge is shared by exactly two triangles, once in each direction (so all face outwards)
    base = model.hfield_size[0][3]
    assert np.isclose(pos[:, :, 2].min(), -base)
    border, border_normal = pos[n_top:].reshape(-1, 3, 3, 3), normal[n_top:].reshape(-1, 3, 3, 3)
    assert np.all(border_normal[:, 2, :, 2] < 0)                        # the bottom faces down
    walls = border[:, :2].mean(axis=2)                                  # wall triangle centers
    assert np.all(np.einsum("sti,sti->st", walls[..., :2], border_normal[:, :2, 0, :2]) > 0)
    assert np.allclose(np.linalg.norm(normal, axis=-1), 1, atol=1e-6)
    key = {tuple(np.round(v, 5)): k for k, v in enumerate(np.unique(np.round(pos.reshape(-1, 3), 5), axis=0))}
    edges = {}
    for t in pos:
        ids = [key[tuple(np.round(v, 5))] for v in t]
        for a, b in ((0, 1), (1, 2), (2, 0)):
            edges[(ids[a], ids[b])] = edges.get((ids[a], ids[b]), 0) + 1
    assert all(n == 1 and edges.get((b, a)) == 1 for (a, b), n in edges.items())


def test_scene_with_a_height_field_builds():
    """The 3D scene of the terrain model shows the height field and the ball."""
    model = rbd.load_model(ROOT / "models" / "terrain_hfield.xml")
    view = viz.scene(model)
    names = [c.name for c in view.bodies[0].children]
    assert f"geom{model.id('geom', 'terrain')}" in names
