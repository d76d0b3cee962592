"""MuJoCo 4.0's sensors that look at geometry and contacts, against ``mujoco==4.0.0``:
``contact`` (every data field, every matching criterion, every reduction), ``rangefinder``
(every ``data`` field; rays hitting planes, spheres, capsules, ellipsoids, cylinders and
boxes, from outside and inside, and missing; from sites and through the pixels of
perspective and orthographic cameras, with a field of view or a sensor's intrinsics),
``camprojection``, ``insidesite`` (every frame kind, every site
shape), ``distance``/``normal``/``fromto`` (geoms and bodies, within and beyond the
cutoff). The compiled sensor fields first, then ``forward`` and ``step`` with each
integrator along a trajectory where things fall, slide and roll on each other
(``feature_oracle.check``, every field); and the refusals, by name."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from feature_oracle import INTEGRATORS, check

import rbdl_edu as rbd
from rbdl_edu.collision.raycast import ray_scene
from rbdl_edu.io import ModelError
from rbdl_edu.model.enums import MESH

SCENE = """<mujoco model="sensor breadth"><option timestep="0.004"/>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 .1" friction="0.8"/>
    <geom name="post" type="cylinder" size=".05 .3" pos="0.6 0.6 0.3"/>
    <geom name="ghost" type="box" size=".5 .5 .5" pos="0 0 2" rgba="1 1 1 0"/>
    <site name="zone" type="box" size=".4 .4 .3" pos="0 0 0.2"/>
    <site name="ball_zone" type="sphere" size=".3" pos="0.3 0 0.1"/>
    <site name="pill_zone" type="capsule" size=".2 .2" pos="-0.3 0.2 0.2" euler="90 0 0"/>
    <site name="egg_zone" type="ellipsoid" size=".3 .2 .4" pos="0 -0.3 0.2"/>
    <site name="can_zone" type="cylinder" size=".3 .3" pos="0.2 0.2 0.2"/>
    <site name="down" pos="0.05 0.02 1.2" euler="180 0 0"/>
    <site name="sideways" pos="-1 0.02 0.1" euler="0 90 0"/>
    <site name="up" pos="0.1 0 -0.5"/>
    <site name="away" pos="3 3 1" euler="0 -90 0"/>
    <geom name="egg" type="ellipsoid" size=".06 .05 .08" pos="0 -0.6 0.3" euler="20 30 0" contype="0" conaffinity="0"/>
    <body name="probe" mocap="true"><!-- a ray from a site on the world skips the world's geoms -->
      <site name="at_egg" pos="0.5 -0.58 0.32" euler="0 -90 0"/><site name="in_egg" pos="0 -0.6 0.3" euler="30 40 0"/>
      <site name="at_post_side" pos="0.6 1.5 0.2" euler="90 0 0"/><site name="at_post_top" pos="0.61 0.6 1" euler="180 0 0"/>
      <site name="at_post_slant" pos="0.3 0.6 0.9" euler="0 150 0"/><site name="at_floor" pos="1 1 0.5" euler="0 160 0"/>
      <site name="under_floor" pos="1 1 -0.5"/><site name="at_ghost" pos="0 0 3" euler="180 0 0"/></body>
    <body name="box" pos="0 0 0.3" euler="10 5 0"><freejoint/>
      <geom name="box" type="box" size=".1 .08 .06" mass="1"/><site name="box_site" pos="0 0 0.07"/>
      <body name="arm" pos="0.1 0 0"><joint name="hinge" axis="0 1 0" damping="0.01"/>
        <geom name="arm" type="capsule" fromto="0 0 0 0.2 0 0" size=".03" mass="0.2"/>
        <site name="tip" pos="0.2 0 0" euler="0 90 0"/></body></body>
    <body name="ball" pos="0.3 0.05 0.4"><freejoint/>
      <geom name="ball" size=".07" mass="0.5"/><site name="ball_site" pos="0 0 -0.08"/></body>
    <body name="pill" pos="-0.3 0.2 0.5" euler="0 80 20"><freejoint/>
      <geom name="pill" type="capsule" size=".04 .1" mass="0.3"/></body>
  </worldbody>
  <actuator><motor joint="hinge" ctrlrange="-0.3 0.3"/></actuator>
  <sensor>
    <contact name="all"/>
    <contact name="floor" geom1="floor" num="4" data="found force torque dist pos normal tangent linvel angvel"/>
    <contact name="on_box" body1="box" body2="world" num="3" reduce="mindist" data="found dist pos normal"/>
    <contact name="box_tree" subtree1="box" num="2" reduce="maxforce" data="found force torque normal tangent"/>
    <contact name="into_box" geom2="box" num="2" data="found force normal linvel angvel"/>
    <contact name="in_zone" site="zone" num="5" data="found dist pos"/>
    <contact name="zone_ball" site="ball_zone" geom2="ball" num="2" data="found force normal"/>
    <contact name="net" subtree1="world" reduce="netforce" data="found force torque dist pos normal tangent"/>
    <contact name="net_box" body1="box" reduce="netforce" data="force torque pos"/>
    <contact name="pair" geom1="ball" geom2="floor" data="found force normal tangent linvel" num="2"/>
    <rangefinder name="rf_down" site="down"/>
    <rangefinder name="rf_all" site="down" data="dist dir origin point normal depth"/>
    <rangefinder name="rf_side" site="sideways" data="dist point normal"/>
    <rangefinder name="rf_up" site="up" data="dist dir normal depth"/>
    <rangefinder name="rf_away" site="away" data="dist dir origin point normal depth"/>
    <rangefinder name="rf_tip" site="tip" data="dist normal" cutoff="0.5"/>
    <rangefinder name="rf_ball" site="ball_site" data="dist point normal"/>
    <rangefinder name="rf_at_egg" site="at_egg" data="dist normal"/><rangefinder name="rf_in_egg" site="in_egg" data="dist point normal"/>
    <rangefinder name="rf_at_post_side" site="at_post_side" data="dist normal"/><rangefinder name="rf_at_post_top" site="at_post_top" data="dist normal"/>
    <rangefinder name="rf_at_post_slant" site="at_post_slant" data="dist normal"/><rangefinder name="rf_at_floor" site="at_floor" data="dist point normal"/>
    <rangefinder name="rf_under_floor" site="under_floor" data="dist normal"/><rangefinder name="rf_at_ghost" site="at_ghost" data="dist normal"/>
    <insidesite site="zone" objtype="body" objname="box"/><insidesite site="zone" objtype="xbody" objname="arm"/>
    <insidesite site="ball_zone" objtype="geom" objname="ball"/><insidesite site="pill_zone" objtype="body" objname="pill"/>
    <insidesite site="egg_zone" objtype="site" objname="ball_site"/><insidesite site="egg_zone" objtype="geom" objname="egg"/>
    <insidesite site="can_zone" objtype="site" objname="tip" cutoff="0.5"/>
    <distance geom1="ball" geom2="floor" cutoff="1"/><distance geom1="floor" geom2="box"/>
    <distance body1="box" body2="ball" cutoff="2"/><distance geom1="pill" geom2="ball" cutoff="0.05"/>
    <distance geom1="post" geom2="ball" cutoff="3"/><distance geom1="box" geom2="pill" cutoff="0.1"/>
    <normal geom1="ball" geom2="floor" cutoff="1"/><normal body1="box" body2="ball" cutoff="2"/>
    <normal geom1="floor" geom2="pill" cutoff="0.01"/>
    <fromto geom1="ball" geom2="floor" cutoff="1"/><fromto body1="box" geom2="ball" cutoff="2"/>
    <fromto geom1="pill" geom2="arm" cutoff="5"/><fromto geom1="post" geom2="ball" cutoff="0.01"/>
    <fromto geom1="floor" body2="pill" cutoff="1"/>
  </sensor>
</mujoco>"""

FIELDS = ("sensor_type", "sensor_objtype", "sensor_objid", "sensor_reftype", "sensor_refid", "sensor_intprm",
          "sensor_dim", "sensor_adr", "sensor_needstage", "sensor_datatype", "sensor_cutoff")


def test_compiled_sensors_match_mujoco():
    m, model = mujoco.MjModel.from_xml_string(SCENE), rbd.load_model(SCENE)
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(model, name), np.asarray(getattr(m, name)).reshape(
            np.shape(getattr(model, name))), err_msg=name)


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_sensors_match_mujoco_along_a_trajectory(integrator):
    check(SCENE, integrator, nstate=4, nskip=40, qvel=0.5, ctrl=lambda rng, m: rng.uniform(-0.5, 0.5, m.nu))


def test_the_trajectory_exercises_every_case():
    """Not vacuous: at the last compared state the contact sensors find contacts (one pair
    reported with its frame turned), rays hit every kind of shape, from outside and inside,
    and miss (a plane from behind, an invisible box, nothing at all), points are both inside
    and outside sites, and the geom pairs are both penetrating and apart."""
    m, d, model, data = check(SCENE, "Euler", nstate=1, nskip=160, qvel=0.5,
                              ctrl=lambda rng, m: rng.uniform(-0.5, 0.5, m.nu))
    read = {m.sensor(s).name: data.sensordata[m.sensor_adr[s]:m.sensor_adr[s] + m.sensor_dim[s]]
            for s in range(m.nsensor) if m.sensor(s).name}
    assert read["all"][0] >= 5 and read["floor"][0] >= 4 and read["net"][0] == read["all"][0]
    assert read["pair"][0] == 1 and read["pair"][6] < -0.99          # the floor-ball contact, turned
    hits = {"rf_down", "rf_side", "rf_up", "rf_ball", "rf_at_egg", "rf_in_egg", "rf_at_post_side",
            "rf_at_post_top", "rf_at_post_slant", "rf_at_floor", "rf_at_ghost"}
    assert all(read[name][0] > 0 for name in hits), {name: read[name][0] for name in hits}
    assert read["rf_away"][0] == read["rf_under_floor"][0] == -1
    assert read["rf_at_ghost"][0] > 2                                # through the invisible box
    inside = data.sensordata[[m.sensor_adr[s] for s in range(m.nsensor) if m.sensor_type[s] == 38]]
    distance = data.sensordata[[m.sensor_adr[s] for s in range(m.nsensor) if m.sensor_type[s] == 39]]
    assert set(inside) >= {0.0, 1.0} and distance.min() < 0 < distance.max()


@pytest.mark.parametrize("sensor, message", [
    ('<camprojection site="s" camera="dark"/>', "resolution must be positive"),
    ('<rangefinder site="s" camera="fixed"/>', "exactly one of site, camera"),
    ('<framepos objtype="camera" objname="fixed"/>', "objtype body, xbody, geom or site"),
    ('<insidesite site="s" objtype="body" objname="b" enclosed="true"/>', "enclosed"),
    ('<contact data="force found"/>', "order"),
    ('<contact data="linvel" reduce="netforce"/>', "netforce"),
    ('<contact geom1="g" body1="b"/>', "exactly one"),
])
def test_what_is_not_reproduced_is_refused(sensor, message):
    xml = f"""<mujoco><worldbody><geom name="e" type="ellipsoid" size=".1 .2 .3"/><site name="s"/>
      <camera name="fixed"/><camera name="track" mode="track"/><camera name="dark" resolution="0 2"/>
      <body name="b"><freejoint/><geom name="g" size=".1"/></body></worldbody><sensor>{sensor}</sensor></mujoco>"""
    with pytest.raises(ModelError, match=message):
        rbd.load_model(xml)


TERRAIN = """<mujoco model="rays on a height field"><option timestep="0.004"/>
  <asset><hfield name="hills" nrow="4" ncol="5" size="1 0.8 0.3 0.1"
    elevation="0 .2 .5 .3 .1  .4 .9 1 .6 .2  .2 .7 .8 .5 .3  0 .1 .4 .2 0"/></asset>
  <worldbody>
    <body name="land" euler="0 0 15"><geom type="hfield" hfield="hills"/></body>
    <body name="ball" pos="0.2 0.1 0.8"><freejoint/><geom size=".1" mass="0.3"/></body>
    <camera name="eye" pos="1.5 -1.2 1.2" xyaxes="0.6 0.8 0 -0.4 0.3 0.8" resolution="9 7" fovy="60"/>
    <body name="probe" mocap="true">
      <site name="top" pos="0.1 0.05 1.5" euler="180 0 0"/><site name="edge" pos="2 0.1 0.05" euler="0 -90 0"/>
      <site name="under" pos="0.3 0.2 -0.5"/><site name="grazing" pos="-1.5 -0.3 0.5" euler="0 100 10"/></body>
  </worldbody>
  <sensor><rangefinder camera="eye" data="dist point normal"/><rangefinder name="top" site="top" data="dist normal"/>
    <rangefinder name="edge" site="edge" data="dist normal"/><rangefinder name="under" site="under" data="dist normal"/>
    <rangefinder name="grazing" site="grazing" data="dist normal"/></sensor>
</mujoco>"""


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_rays_on_a_height_field_match_mujoco(integrator):
    """A ball rolls on hills; rays from above hit the grid's triangles, from the side the
    boxes' sides, from below the base box."""
    m, d, model, data = check(TERRAIN, integrator, nstate=3, nskip=40, qvel=0.3)
    for name in ("top", "edge", "under", "grazing"):
        k = model.site(name).id
        _, geom, _ = ray_scene(model, data, data.site_xpos[k], data.site_xmat[k][:, 2], model.site_bodyid[k])
        assert geom == 0, name                                       # the height field


MESHES = """<mujoco model="rays on meshes"><option timestep="0.004"/>
  <asset>
    <mesh name="tet" vertex="0 0 0  .3 0 0  0 .3 0  0 0 .3" face="0 2 1  0 1 3  0 3 2  1 2 3"/>
    <mesh name="cube" vertex="-.1 -.1 -.1  .1 -.1 -.1  .1 .1 -.1  -.1 .1 -.1  -.1 -.1 .1  .1 -.1 .1  .1 .1 .1  -.1 .1 .1"
          face="0 2 1 0 3 2 4 5 6 4 6 7 0 1 5 0 5 4 2 3 7 2 7 6 1 2 6 1 6 5 0 4 7 0 7 3"/>
  </asset>
  <worldbody>
    <body name="stage"><geom type="plane" size="2 2 .1"/>
      <geom type="mesh" mesh="tet" pos="0.4 0 0" euler="10 20 30"/></body>
    <body name="cube" pos="-0.2 0.1 0.5" euler="20 30 40"><freejoint/><geom type="mesh" mesh="cube" mass="1"/></body>
    <camera name="eye" pos="0.1 0.05 1.5" resolution="7 5" fovy="45"/>
    <body name="probe" mocap="true"><site name="down" pos="0.45 0.05 1" euler="180 0 0"/>
      <site name="slant" pos="1 0.1 0.4" euler="0 -100 0"/></body>
  </worldbody>
  <sensor><rangefinder camera="eye" data="dist point normal"/><rangefinder site="down" data="dist normal"/>
    <rangefinder site="slant" data="dist normal"/></sensor>
</mujoco>"""


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_rays_on_meshes_match_mujoco(integrator):
    """A cube mesh falls onto the floor beside a tetrahedron; rays from a camera and two
    sites hit the triangles (and their normals, as the faces are wound)."""
    m, d, model, data = check(MESHES, integrator, nstate=3, nskip=40, qvel=0.3)
    for name in ("down", "slant"):                     # both site rays end on a mesh
        k = model.site(name).id
        _, geom, _ = ray_scene(model, data, data.site_xpos[k], data.site_xmat[k][:, 2], model.site_bodyid[k])
        assert geom >= 0 and model.geom_type[geom] == MESH


CAMERAS = """<mujoco model="cameras"><option timestep="0.004"/>
  <default><camera fovy="50"/></default>
  <worldbody>
    <body name="stage"><!-- a camera on the world does not see the world's own geoms -->
      <geom type="plane" size="3 3 .1"/><geom type="box" size=".2 .3 .1" pos="0.3 0.2 0.1"/>
      <geom type="cylinder" size=".1 .2" pos="-0.5 -0.3 0.2"/>
      <geom type="capsule" size=".08 .3" pos="0.5 -0.5 0.2" euler="0 90 0"/></body>
    <camera name="overhead" pos="0.1 0.2 2.5" resolution="6 4"/>
    <camera name="sky" pos="0 0 3" euler="180 0 0" resolution="2 2" projection="orthographic" fovy="0.5"/>
    <frame pos="1 0 0.5" euler="0 0 20"><camera name="side" xyaxes="0 1 0 -1 0 1" fovy="40" resolution="5 4"/></frame>
    <body name="drone" pos="0.1 0.2 1.3" euler="10 20 30"><freejoint/><geom size=".1" mass="1"/>
      <site name="beacon" pos="0.2 0 0"/>
      <camera name="pinhole" pos="0.1 0 -0.2" xyaxes="0 1 0 -1 0 0" resolution="8 6" sensorsize="0.004 0.003"
              focalpixel="10 12" principalpixel="1 -2"/>
      <camera name="ortho" projection="orthographic" fovy="2" resolution="5 4"/>
      <camera name="lens" resolution="5 5" sensorsize="0.01 0.01" focal="0.02 0.03" principal="0.001 0.002"
              euler="10 10 0"/></body>
    <body name="ball" pos="-0.3 0.4 0.8"><freejoint/><geom size=".15" mass="0.5"/><site name="marker"/></body>
    <site name="bubble" type="ellipsoid" size=".6 .5 1.2" pos="0.1 0.2 1.2"/>
  </worldbody>
  <sensor>
    <camprojection site="beacon" camera="overhead"/><camprojection site="marker" camera="pinhole"/>
    <camprojection site="marker" camera="lens"/><camprojection site="marker" camera="side"/>
    <rangefinder camera="overhead" data="dist dir origin point normal depth"/><rangefinder camera="pinhole" data="dist depth"/>
    <rangefinder camera="ortho" data="dist origin normal depth"/><rangefinder camera="lens" data="dist dir point"/>
    <rangefinder camera="side" data="dist normal"/><rangefinder camera="sky" data="dist dir point normal depth"/>
    <insidesite site="bubble" objtype="camera" objname="pinhole"/><insidesite site="bubble" objtype="camera" objname="side"/>
  </sensor>
</mujoco>"""


def test_compiled_cameras_match_mujoco():
    m, model = mujoco.MjModel.from_xml_string(CAMERAS), rbd.load_model(CAMERAS)
    for name in ("cam_bodyid", "cam_pos", "cam_quat", "cam_mode", "cam_fovy", "cam_resolution", "cam_sensorsize",
                 "cam_intrinsic", "cam_projection") + FIELDS:
        np.testing.assert_allclose(np.asarray(getattr(model, name), float), np.asarray(getattr(m, name), float).reshape(
            np.shape(getattr(model, name))), rtol=1e-12, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_camera_sensors_match_mujoco(integrator):
    """The drone tumbles and falls past the scene, the ball drops onto the box."""
    m, d, model, data = check(CAMERAS, integrator, nstate=3, nskip=40, qvel=1.0)
    dist = {}                                                      # each camera rangefinder's pixel distances
    for s in range(m.nsensor):
        if m.sensor_type[s] == 7:
            k = m.sensor_objid[s]
            block = data.sensordata[m.sensor_adr[s]:m.sensor_adr[s] + m.sensor_dim[s]]
            dist[model.cam_names[k]] = block.reshape(int(np.prod(m.cam_resolution[k])), -1)[:, 0]
    sky = dist.pop("sky")
    assert all(np.any(d > 0) for d in dist.values()) and np.all(sky == -1)     # all see something but the sky
