"""rbdl_edu.viz without a browser: what the widgets hold (the browser test checks what they show)."""
from pathlib import Path

import numpy as np
import pythreejs as three
import pytest

import rbdl_edu as rbd
from rbdl_edu import viz
from rbdl_edu.kinematics import forward_kinematics
from rbdl_edu.model.enums import GEOM_NAMES, MESH
from rbdl_edu.rotation import quat_to_mat
from rbdl_edu.model.spec import ModelSpec
from rbdl_edu.viz import geometry as geo
from rbdl_edu.viz.framing import model_points


def shapes_model():
    spec = ModelSpec()
    spec.add_geom(0, "plane", [1.0, 1.0, 0.1])
    for k, (kind, size) in enumerate([("sphere", [0.1, 0, 0]), ("capsule", [0.05, 0.1, 0]),
                                      ("ellipsoid", [0.1, 0.05, 0.03]), ("cylinder", [0.05, 0.1, 0]),
                                      ("box", [0.1, 0.05, 0.02])]):
        b = spec.add_body(0, kind, pos=[0.3 * k, 0, 0.2], mass=1.0, inertia=[0.01, 0.02, 0.03])
        spec.add_joint(b, "hinge", kind, axis=[0, 0, 1])
        spec.add_geom(b, kind, size)
    return spec.compile()


def meshes(model):
    return [m for b in model.children for m in getattr(b, "children", ()) if isinstance(m, three.Mesh)]


def test_every_primitive_geom_is_drawn():
    m = shapes_model()
    kinds = {GEOM_NAMES[int(t)] for t in m.geom_type}
    assert kinds == {"plane", "sphere", "capsule", "ellipsoid", "cylinder", "box"}
    for g in range(m.ngeom):
        obj = geo.geom_object(m, g)
        assert isinstance(obj, three.Group) and obj.children, GEOM_NAMES[int(m.geom_type[g])]
    assert len(geo.geom_object(m, 2).children) == 3                 # a capsule: cylinder and two caps


def test_mesh_geom_drawn_from_model_vertices_or_skipped():
    m = shapes_model()
    g = 1
    tetra = {"vertices": np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0]]),
             "faces": np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])}
    def with_mesh_of(vert, face):
        spec = rbd.ModelSpec.from_model(m)
        spec.add_mesh("tetra", vert, face)
        spec.geoms[g].update(type=MESH, dataid=0)
        return spec.compile()
    with_mesh = with_mesh_of(tetra["vertices"], tetra["faces"])
    obj = geo.geom_object(with_mesh, g)
    geom = obj.children[0].geometry
    assert geom.attributes["position"].array.shape == (12, 3)        # 4 triangles, flat shaded
    normals = geom.attributes["normal"].array
    assert np.allclose(np.linalg.norm(normals, axis=1), 1)
    assert np.allclose(normals[-1], np.ones(3) / np.sqrt(3), atol=1e-6)   # the slanted face
    without = with_mesh_of(np.zeros((0, 3)), np.zeros((0, 3), dtype=int))
    assert geo.geom_object(without, g) is None                      # no vertices: nothing drawn
    viz.scene(without)                                              # and the scene still builds


def test_mesh_from_mjcf_is_drawn():
    xml = """<mujoco><asset><mesh name="tet" vertex="0 0 0  0.3 0 0  0 0.3 0  0 0 0.3"/></asset>
      <worldbody><body name="b" pos="0 0 0.5"><freejoint/><geom type="mesh" mesh="tet"/></body>
      </worldbody></mujoco>"""
    m = rbd.load_model(xml)
    assert int(m.geom_type[0]) == MESH
    obj = geo.geom_object(m, 0)
    assert obj.children[0].geometry.attributes["position"].array.shape == (12, 3)


def test_scene_places_bodies_at_forward_kinematics():
    m = rbd.models.double_pendulum()
    q = np.array([0.4, -0.3])
    view = viz.scene(m, q, show_inertia=True)
    xpos, xmat = forward_kinematics(m, q)
    for i in range(m.nbody):
        assert np.allclose(view.bodies[i].position, xpos[i])
        w = view.bodies[i].quaternion[3]
        assert np.allclose(quat_to_mat([w, *view.bodies[i].quaternion[:3]]), xmat[i], atol=1e-12)
    assert all(box.visible for box in view.inertias) and len(view.inertias) == 2


def test_set_q_and_joint_sliders_move_the_bodies():
    m = rbd.models.double_pendulum()
    w = viz.joint_sliders(m)
    w.sliders["shoulder"].value = 0.5
    xpos, _ = forward_kinematics(m, np.array([0.5, 0.0]))
    assert np.allclose(w.view.bodies[2].position, xpos[2])


def test_inertia_box_has_the_body_inertia():
    # a uniform box of half-sizes a: I_x = m (b^2 + c^2) / 3 with full sides 2a
    a = np.array([0.3, 0.2, 0.1])
    mass = 2.0
    I = mass / 3 * np.array([a[1] ** 2 + a[2] ** 2, a[0] ** 2 + a[2] ** 2, a[0] ** 2 + a[1] ** 2])
    assert np.allclose(geo.inertia_box_size(mass, I), a)


def test_animation_keyframes_match_the_trajectory():
    m = rbd.models.double_pendulum()
    qs = np.stack([np.linspace(0, 2 * np.pi, 40), np.linspace(0, 1, 40)], axis=1)
    box = viz.animate(m, qs, fps=20)
    tracks = {t.name: t for t in box.action.clip.tracks}
    assert set(tracks) >= {"body1.quaternion", "body2.position", "body2.quaternion"}
    assert box.action.clip.duration == pytest.approx(39 / 20)
    quat = np.asarray(tracks["body1.quaternion"].values).reshape(-1, 4)
    assert np.all(np.sum(quat[1:] * quat[:-1], axis=1) > 0)       # slerp takes the short way
    xpos, _ = forward_kinematics(m, qs)
    assert np.allclose(np.asarray(tracks["body2.position"].values).reshape(-1, 3), xpos[:, 2], atol=1e-6)


def test_rnea_stepper_adds_up_to_rnea_on_a_random_tree():
    m = rbd.models.auto_tree(5, joint_types=("hinge", "slide", "ball"), seed=3)
    rng = np.random.default_rng(0)
    q = rbd.integrate_pos(m, m.qpos0, rng.normal(size=m.nv), 1.0)
    qd, qdd = rng.normal(size=m.nv), rng.normal(size=m.nv)
    steps, tau = viz.rnea_trace(m, q, qd, qdd)
    assert np.allclose(tau, rbd.rnea(m, q, qd, qdd))
    assert [s.phase for s in steps] == ["forward"] * (m.nbody - 1) + ["backward"] * (m.nbody - 1)
    w = viz.rnea_stepper(m, q, qd, qdd)
    assert len(set(w.pictures)) == len(steps)                       # a picture of its own for every step
    text, pictures = w.children[1], w.children[2]
    linked = {(link.source[0].model_id, link.target[0].model_id) for link in w._links}
    # the text and the picture follow the slider in the browser (jslink), with no kernel
    assert linked == {(w.slider.model_id, text.model_id), (w.slider.model_id, pictures.model_id)}
    assert len(pictures.children) == len(text.children) == len(steps)


def test_view_controls_are_jslinked():
    view = viz.scene(rbd.models.cart_pole(), show_inertia=False)
    viz.view_controls(view)
    targets = {(link.target[0].model_id, link.target[1]) for link in view._links}
    assert all((m.model_id, "opacity") in targets for m in view.geom_materials)
    assert all((b.model_id, "visible") in targets for b in view.inertias)


def test_contacts_and_forces_are_drawn():
    view = viz.scene(rbd.models.cart_pole(), contacts=np.zeros((2, 3)), forces=[[0, 0, 0, 1, 0, 0]])
    assert len(view.overlay.children) == 3


def test_symbolic_model_is_refused():
    with pytest.raises(ValueError, match="numeric"):
        viz.scene(rbd.models.pendulum(symbolic=True))


def test_viz_is_not_imported_by_the_algorithms():
    import pathlib
    pkg = pathlib.Path(rbd.__file__).parent
    for f in pkg.rglob("*.py"):
        if "viz" in f.relative_to(pkg).parts:
            continue
        text = f.read_text()
        assert "from .viz" not in text and "rbdl_edu.viz" not in text and "from . import viz" not in text, f


def project(points, target, direction, distance, aspect, fov=40.0):
    """Screen coordinates in [-1, 1] of world points seen by the camera the scene sets up."""
    back = np.asarray(direction, float) / np.linalg.norm(direction)
    right = np.cross([0.0, 0.0, 1.0], back)
    right /= np.linalg.norm(right)
    up = np.cross(back, right)
    rel = np.asarray(points, float) - (np.asarray(target) + distance * back)   # from the camera
    depth = -(rel @ back)
    t = np.tan(np.radians(fov) / 2)
    return np.stack([(rel @ right) / depth / (t * aspect), (rel @ up) / depth / t], axis=1)


@pytest.mark.parametrize("name", ["double_pendulum", "cart_pole", "skew_arm", "branched_tree"])
def test_camera_frames_the_whole_model_and_fills_the_view(name):
    m = getattr(rbd.models, name)()
    q = rbd.integrate_pos(m, m.qpos0, np.random.default_rng(1).normal(size=m.nv), 1.0)
    view = viz.scene(m, q)
    target = -np.asarray(view.root.position, float)                   # the scene is centered there
    cam = np.asarray(view.camera.position, float)                     # relative to the target
    points = model_points(m, *forward_kinematics(m, q))
    xy = project(points, target, cam, np.linalg.norm(cam), aspect=view.width / view.height)
    assert np.all(np.abs(xy) <= 0.88 + 1e-9)                          # every geom in view
    world_axes = project(0.3 * view.extent * np.eye(3), target, cam, np.linalg.norm(cam), 1.5)
    reach = max(np.abs(xy).max(), np.abs(world_axes).max())
    assert np.isclose(reach, 0.88, atol=1e-6)                          # and as large as it fits
    assert np.abs(xy).max() > 0.5                                      # the model, not only the axes


def test_a_planar_motion_is_seen_face_on():
    m = rbd.models.double_pendulum()                                   # swings in the x-z plane
    qs = np.stack([np.linspace(0, 2.5, 40), np.linspace(0, -1.5, 40)], axis=1)
    box = viz.animate(m, qs, fps=20)
    cam = np.asarray(box.view.camera.position, float)
    assert abs(cam[1]) / np.linalg.norm(cam) > 0.9                     # looking along y


def test_viz_reads_only_typed_model_fields():
    """The model is typed like mjModel: nothing in viz reads an untyped ``extras`` record."""
    for path in Path(viz.__file__).parent.glob("*.py"):
        assert "extras" not in path.read_text(), path.name


def test_state_explorer_moves_the_model_and_recomputes_the_readout():
    m = rbd.models.double_pendulum()
    calls = []

    def readout(q, qd):
        calls.append((q.copy(), qd.copy()))
        return f"T = {rbd.kinetic_energy(m, q, qd):.6f}"

    w = viz.state_explorer(m, readout, q=[0.1, 0.2], qd=[0.0, 0.0])
    w.sliders["qd elbow"].value = 1.5
    w.sliders["q shoulder"].value = 0.7
    assert np.allclose(w.q, [0.7, 0.2]) and np.allclose(w.qd, [0.0, 1.5])
    assert w.readout.value == f"T = {rbd.kinetic_energy(m, [0.7, 0.2], [0.0, 1.5]):.6f}"
    xpos, _ = forward_kinematics(m, w.q)
    assert np.allclose(w.view.bodies[2].position, xpos[2])


def test_sparsity_explorer_counts_show_no_fill_in():
    w = viz.sparsity_explorer(sizes=(3, 6), bfs=(1.0, 3.0), seed=2)
    for (bf, n), (nz_M, nz_L) in w.counts.items():
        assert nz_M == nz_L
    assert w.counts[(1.0, 6)] == (21, 21)                               # a chain: full triangle
    assert w.counts[(3.0, 6)][0] < 21                                   # a bushy tree: fewer
    stacks = w.children[1]
    assert len(stacks.children) == 2 and all(len(s.children) == 2 for s in stacks.children)


def test_collision_explorer_reports_each_stage():
    spec = ModelSpec()
    spec.add_geom(0, "plane", [0, 0, 1])
    wall = spec.add_body(0, "wall", pos=[0.5, 0, 0.2], mass=1.0, inertia=[1e-3] * 3)
    spec.add_geom(wall, "box", [0.05, 0.3, 0.2])
    ball = spec.add_body(0, "ball", pos=[0, 0, 0.2], mass=1.0, inertia=[1e-3] * 3)
    spec.add_joint(ball, "free")
    spec.add_geom(ball, "sphere", [0.1])
    m = spec.compile()
    w = viz.collision_explorer(m, None, "ball", [0.0, 0.0, 0.3], [0.5, 0.0, 0.3], steps=6)
    touching = [len(st["contacts"]) > 0 for st in w.stages]
    assert touching[0] is False and touching[-1] is True                # in the air, then in the wall
    assert w.stages[-1]["candidates"] == [0, 1]                         # the world's plane, the wall
    w.slider.value = 5
    assert len(w.view.overlay.children) >= 3                            # two boxes and a contact
    with pytest.raises(ValueError, match="no free joint"):
        viz.collision_explorer(m, None, "wall", [0, 0, 0], [1, 0, 0])


def test_tree_diagram_is_drawn_from_body_parentid():
    import matplotlib
    matplotlib.use("Agg")
    m = rbd.models.floating_base(rbd.models.branched_tree())
    ax = viz.draw_tree(m)
    texts = " ".join(t.get_text() for t in ax.texts)
    for i in range(1, m.nbody):
        assert f"λ({i}) = {m.body_parentid[i]}" in texts
    assert "dofs 0-5" in texts and "free" in texts
    pos = viz.tree_layout(m)
    assert all(pos[i, 1] == pos[m.body_parentid[i], 1] - 1 for i in range(1, m.nbody))
