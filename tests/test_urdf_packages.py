"""URDF collision meshes found through ``package://`` (``package_dirs=[...]`` and
``ROS_PACKAGE_PATH``, as Pinocchio looks for them), and ``fusestatic=True`` (links on fixed
joints merged into their parents, as MuJoCo's URDF import does), checked against
Pinocchio's geometry model and MuJoCo's import of the same files."""
from __future__ import annotations

import importlib.metadata
import os
import warnings
from pathlib import Path

import mujoco
import numpy as np
import pinocchio as pin
import pytest
import trimesh
from mujoco_oracle import compare_dynamics

import rbdl_edu as rbd
from rbdl_edu.io import ModelError
from rbdl_edu.io.urdf import read_urdf
from rbdl_edu.kinematics import kinematics
from rbdl_edu.io.urdf_elements import rpy_to_quat
from rbdl_edu.rotation import quat_to_mat
from rbdl_edu.setconst import set_const

INERTIAL = ('<inertial><mass value="{m}"/><inertia ixx="0.02" iyy="0.02" izz="0.03" ixy="0" ixz="0" '
            'iyz="0"/></inertial>')


@pytest.fixture(autouse=True)
def no_ros_package_path(monkeypatch):
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)


def robot(mesh, col_origin='<origin xyz="0.1 0.2 0.3" rpy="0.3 -0.2 0.5"/>', extra=""):
    """A base and an arm on a hinge; the arm's collision is ``<mesh filename=mesh ...>``."""
    return (f'<robot name="r">\n<link name="base">{INERTIAL.format(m=1)}</link>\n'
            f'<link name="arm">{INERTIAL.format(m=2)}\n<collision>{col_origin}<geometry>\n'
            f'{mesh}\n</geometry></collision>{extra}</link>\n'
            '<joint name="j" type="revolute"><parent link="base"/><child link="arm"/>'
            '<origin xyz="0 0 0.5"/><axis xyz="0 1 0"/><limit lower="-2" upper="2"/></joint>\n</robot>')


@pytest.fixture
def ws(tmp_path):
    """``ws/mypkg/meshes/{part.stl, part.obj}`` (an off-centre box), ``robot/`` for URDFs."""
    box = trimesh.creation.box(extents=[0.2, 0.4, 0.6])
    box.apply_translation([0.3, -0.1, 0.05])
    meshes = tmp_path / "ws" / "mypkg" / "meshes"
    meshes.mkdir(parents=True)
    box.export(meshes / "part.stl")
    box.export(meshes / "part.obj")
    (tmp_path / "robot").mkdir()
    return tmp_path, box


def write(folder, text, name="r.urdf"):
    (folder / name).write_text(text)
    return folder / name


def world_vertices(model, data, g):
    """The vertices of mesh geom ``g`` in the world frame."""
    k = model.geom_dataid[g]
    v = model.mesh_vert[model.mesh_vertadr[k]:model.mesh_vertadr[k] + model.mesh_vertnum[k]]
    return data.geom_xpos[g] + v @ data.geom_xmat[g].reshape(3, 3).T


@pytest.mark.parametrize("ext", ["stl", "obj"])
def test_package_mesh_is_a_massless_mesh_geom_where_the_file_puts_it(ws, ext):
    tmp, box = ws
    path = write(tmp / "robot", robot(f'<mesh filename="package://mypkg/meshes/part.{ext}" scale="2 1 0.5"/>'))
    model = rbd.load_urdf(path, package_dirs=[tmp / "ws"])
    assert model.ngeom == 1 and model.nmesh == 1 and model.geom_type[0] == rbd.model.enums.MESH
    np.testing.assert_allclose(model.body_mass, [0, 1, 2])          # <inertial> only
    data = rbd.Data(model)
    data.qpos[:] = 0.7
    kinematics(model, data)
    # expected: arm pose, then the collision origin, then the scaled file vertices
    local = np.asarray(box.vertices) * [2, 1, 0.5]
    local = np.array([0.1, 0.2, 0.3]) + local @ quat_to_mat(rpy_to_quat([0.3, -0.2, 0.5])).T
    expected = data.xpos[2] + local @ data.xmat[2].reshape(3, 3).T
    ours = world_vertices(model, data, 0)
    assert len(ours) == len(expected) == 8
    dist = np.linalg.norm(ours[:, None] - expected[None], axis=2).min(axis=1)
    assert dist.max() < 1e-6                                        # (single-precision vertices)


def test_load_model_takes_package_dirs_and_the_first_folder_wins(ws, tmp_path):
    tmp, _ = ws
    other = tmp_path / "other" / "mypkg" / "meshes"
    other.mkdir(parents=True)
    trimesh.creation.icosphere(subdivisions=1, radius=0.1).export(other / "part.stl")
    path = write(tmp / "robot", robot('<mesh filename="package://mypkg/meshes/part.stl"/>'))
    first = rbd.load_model(path, package_dirs=[tmp_path / "other", tmp / "ws"])
    second = rbd.load_model(path, package_dirs=[tmp / "ws", tmp_path / "other"])
    assert first.mesh_vertnum[0] == 42 and second.mesh_vertnum[0] == 8
    assert rbd.load_model(path.read_text(), package_dirs=[tmp / "ws"]).nmesh == 1     # (XML text too)
    with pytest.raises(TypeError, match="URDF files only"):
        rbd.load_model('<mujoco/>', package_dirs=[tmp / "ws"])


def test_ros_package_path_is_searched_after_package_dirs(ws, monkeypatch):
    tmp, _ = ws
    path = write(tmp / "robot", robot('<mesh filename="package://mypkg/meshes/part.obj"/>'))
    monkeypatch.setenv("ROS_PACKAGE_PATH", os.pathsep.join([str(tmp / "nowhere"), str(tmp / "ws")]))
    assert rbd.load_urdf(path).nmesh == 1


def test_missing_package_or_file_names_the_uri_the_line_and_the_folders(ws):
    tmp, _ = ws
    for uri in ("package://nopkg/meshes/part.stl", "package://mypkg/meshes/gone.stl"):
        path = write(tmp / "robot", robot(f'<mesh filename="{uri}"/>'))
        with pytest.raises(ModelError) as info:
            rbd.load_urdf(path, package_dirs=[tmp / "ws"])
        e = info.value
        assert uri in e.reason and str(tmp / "ws") in e.reason, e
        assert e.file == str(path) and e.line == 5 and e.element == "mesh" and e.attribute == "filename"
    path = write(tmp / "robot", robot('<mesh filename="meshes/gone.stl"/>'))       # relative to the URDF
    with pytest.raises(ModelError, match="'meshes/gone.stl': file .* not found") as info:
        rbd.load_urdf(path)
    assert info.value.line == 5
    path = write(tmp / "robot", robot('<mesh filename="package://mypkg/../../robot/r.urdf"/>'))
    with pytest.raises(ModelError, match="leaves its package's folder"):
        rbd.load_urdf(path, package_dirs=[tmp / "ws"])
    path = write(tmp / "robot", robot('<mesh filename="package://../robot/r.urdf"/>'))
    with pytest.raises(ModelError, match="package://NAME/PATH"):
        rbd.load_urdf(path, package_dirs=[tmp / "ws"])


def test_meshes_that_may_not_be_read_are_left_out_with_a_warning(ws):
    """No package folder (the robot still loads for its dynamics, as with Pinocchio's
    ``buildModelFromUrdf``), a file outside the folders the model may read, a format not read."""
    tmp, _ = ws
    (tmp / "ws" / "mypkg" / "meshes" / "part.dae").write_text("<COLLADA/>")
    cases = {"package://mypkg/meshes/part.stl": "no package folders",
             "../ws/mypkg/meshes/part.stl": "outside the folders",
             str(tmp / "ws" / "mypkg" / "meshes" / "part.stl"): "outside the folders"}
    if "dae" not in rbd.io.urdf_mesh.FORMATS:
        cases["package://mypkg/meshes/part.dae"] = "only stl, obj"
    for uri, why in cases.items():
        path = write(tmp / "robot", robot(f'<mesh filename="{uri}"/>'))
        dirs = [] if why == "no package folders" else [tmp / "ws"]
        with pytest.warns(UserWarning, match=f"1 collision mesh.*not loaded.*{why}"):
            model = rbd.load_urdf(path, package_dirs=dirs) if uri.startswith("package") else rbd.load_urdf(path)
        assert model.ngeom == 0 and model.nbody == 3
    # a folder the caller allows is read
    path = write(tmp / "robot", robot('<mesh filename="../ws/mypkg/meshes/part.stl"/>'))
    assert rbd.load_urdf(path, allowed_dirs=[tmp / "ws"]).nmesh == 1


def test_a_file_used_twice_is_one_mesh(ws):
    tmp, _ = ws
    mesh = '<mesh filename="package://mypkg/meshes/part.stl"/>'
    two = robot(mesh, extra=f'<collision><geometry>{mesh}</geometry></collision>')
    model = rbd.load_urdf(write(tmp / "robot", two), package_dirs=[tmp / "ws"])
    assert model.ngeom == 2 and model.nmesh == 1


def test_the_mesh_is_what_contacts_see(ws):
    """A floating base whose only collision is a mesh (a box 0.6 tall, its centre 0.05 above
    the body origin) comes to rest on a plane with the body origin 0.25 above it."""
    tmp, _ = ws
    box = trimesh.creation.box(extents=[0.2, 0.4, 0.6])
    box.apply_translation([0, 0, 0.05])
    box.export(tmp / "ws" / "mypkg" / "meshes" / "centred.obj")
    text = ('<robot name="r"><link name="base">' + INERTIAL.format(m=1) +
            '<collision><geometry><mesh filename="package://mypkg/meshes/centred.obj"/></geometry>'
            '</collision></link></robot>')
    model = rbd.load_urdf(write(tmp / "robot", text), package_dirs=[tmp / "ws"], floating_base=True)
    spec = rbd.ModelSpec.from_model(model)
    spec.add_geom(0, "plane", [5, 5, 0.1])
    model = set_const(spec.compile())
    data = rbd.Data(model)
    data.qpos[:3] = [0, 0, 0.5]
    rbd.step(model, data, 1500)
    assert abs(data.qpos[2] - 0.25) < 5e-3, data.qpos[:3]


# -- example-robot-data against Pinocchio's geometry model --------------------------------------
def robots_folder():
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")
    return Path(dist.locate_file("cmeel.prefix/share/example-robot-data/robots"))


@pytest.mark.parametrize("rel", ["ur_description/urdf/ur5_robot.urdf", "panda_description/urdf/panda.urdf",
                                 "talos_data/robots/talos_reduced.urdf", "solo_description/robots/solo12.urdf"])
def test_example_robot_data_collision_geometry_matches_pinocchio(rel):
    robots = robots_folder()
    share = robots.parents[1]              # package://example-robot-data/robots/... lives here
    path = str(robots / rel)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")    # (vendor attributes in some files)
        model = read_urdf(path, package_dirs=[share])
    pm = pin.buildModelFromUrdf(path)
    geom = pin.buildGeomFromUrdf(pm, path, pin.COLLISION, package_dirs=[str(share)])
    assert model.ngeom == geom.ngeoms
    assert model.nmesh == len({(o.meshPath, tuple(o.meshScale)) for o in geom.geometryObjects
                               if o.meshPath.lower().endswith((".stl", ".obj"))})
    if rel.startswith("ur_"):              # a serial arm: the same q; every geom where Pinocchio puts it
        q = np.random.default_rng(1).uniform(-1, 1, model.nq)
        pd, gd = pm.createData(), pin.GeometryData(geom)
        pin.updateGeometryPlacements(pm, pd, geom, gd, q)
        data = rbd.Data(model)
        data.qpos[:] = q
        kinematics(model, data)
        for g in range(model.ngeom):
            R, p = data.geom_xmat[g].reshape(3, 3), data.geom_xpos[g]
            k = model.geom_dataid[g]
            if k >= 0:                     # from the principal frame back to the file's frame
                R = R @ quat_to_mat(model.mesh_quat[k]).T
                p = p - R @ model.mesh_pos[k]
            np.testing.assert_allclose(p, gd.oMg[g].translation, atol=1e-6)
            np.testing.assert_allclose(R, gd.oMg[g].rotation, atol=1e-6)


# -- fusestatic against MuJoCo's URDF import ----------------------------------------------------
FIXED = """<robot name="fixed">
  <link name="base">{i3}<collision><geometry><sphere radius="0.04"/></geometry></collision></link>
  <link name="plate"><inertial><origin xyz="0.1 0 0" rpy="0.3 0 0"/><mass value="1"/>
    <inertia ixx="0.02" iyy="0.02" izz="0.03" ixy="0.001" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 0.1"/><geometry><box size="0.2 0.2 0.02"/></geometry></collision></link>
  <link name="arm">{i2}<collision><geometry><sphere radius="0.06"/></geometry></collision></link>
  <link name="tool"><inertial><origin xyz="0 0.05 0"/><mass value="0.5"/>
    <inertia ixx="0.002" iyy="0.002" izz="0.003" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 0.1" rpy="0.2 0 0"/><geometry><cylinder radius="0.05" length="0.1"/></geometry>
    </collision></link>
  <link name="tip">{i1}<collision><geometry><sphere radius="0.08"/></geometry></collision></link>
  <link name="finger">{i1}</link>
  <link name="side">{i1}<collision><geometry><sphere radius="0.07"/></geometry></collision></link>
  <link name="empty"/>
  <joint name="f0" type="fixed"><parent link="base"/><child link="plate"/><origin xyz="0 0 0.2" rpy="0 0 0.5"/></joint>
  <joint name="j1" type="revolute"><parent link="plate"/><child link="arm"/><origin xyz="0 0 0.1"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1"/></joint>
  <joint name="f2" type="fixed"><parent link="arm"/><child link="tool"/><origin xyz="0 0 1" rpy="0.1 0.2 0.3"/></joint>
  <joint name="f3" type="fixed"><parent link="tool"/><child link="tip"/><origin xyz="0 0.1 0.2"/></joint>
  <joint name="j4" type="continuous"><parent link="tip"/><child link="finger"/><origin xyz="0 0 0.1"/>
    <axis xyz="1 0 0"/></joint>
  <joint name="j5" type="prismatic"><parent link="arm"/><child link="side"/><origin xyz="0.2 0 0"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1"/></joint>
  <joint name="f6" type="fixed"><parent link="finger"/><child link="empty"/><origin xyz="0 0 0.1"/></joint>
</robot>
""".format(**{f"i{m}": INERTIAL.format(m=m) for m in (1, 2, 3)})


def test_fusestatic_gives_mujocos_bodies_and_dynamics(tmp_path):
    path = write(tmp_path, FIXED)
    mj = mujoco.MjModel.from_xml_path(str(path))
    model = rbd.load_urdf(path, fusestatic=True)
    assert model.nbody == mj.nbody == 4
    assert model.body_names == tuple(mj.body(i).name for i in range(mj.nbody)) == ("world", "arm", "finger", "side")
    assert model.jnt_names == tuple(mj.joint(i).name for i in range(mj.njnt))
    np.testing.assert_allclose(model.body_mass, mj.body_mass, rtol=1e-12)
    np.testing.assert_allclose(model.body_pos, mj.body_pos, atol=1e-12)
    np.testing.assert_array_equal(model.geom_bodyid, mj.geom_bodyid)
    np.testing.assert_allclose(model.geom_size, mj.geom_size, atol=1e-12)
    kinematics(model, data := rbd.Data(model))
    mjd = mujoco.MjData(mj)
    mujoco.mj_kinematics(mj, mjd)
    np.testing.assert_allclose(data.geom_xpos, mjd.geom_xpos, atol=1e-12)
    compare_dynamics(model, mj)                 # crba, bias, rnea, aba at random states


def test_fusestatic_off_keeps_welded_bodies_with_the_same_dynamics(tmp_path):
    path = write(tmp_path, FIXED)
    welded = rbd.load_urdf(path)
    assert welded.body_names == ("world", "base", "plate", "arm", "tool", "tip", "finger", "empty", "side")
    for floating in (False, True):
        a = rbd.load_urdf(path, fusestatic=True, floating_base=floating)
        b = rbd.load_urdf(path, floating_base=floating)
        assert a.nq == b.nq and a.ngeom == b.ngeom
        assert a.nbody == (5 if floating else 4)      # a free root keeps its body and takes plate
        np.testing.assert_allclose(a.body_mass.sum(), b.body_mass.sum() - (0 if floating else 4))
        rng = np.random.default_rng(0)
        q = np.array(b.qpos0, dtype=float)
        q[-3:] += rng.uniform(-1, 1, 3)                # the three moving joints
        if floating:
            q[:3] = rng.normal(size=3)
            q[3:7] = rng.normal(size=4)
            q[3:7] /= np.linalg.norm(q[3:7])
        np.testing.assert_allclose(rbd.crba(a, q), rbd.crba(b, q), atol=1e-12)
        qd = rng.normal(size=a.nv)
        np.testing.assert_allclose(rbd.bias(a, q, qd), rbd.bias(b, q, qd), atol=1e-10)
