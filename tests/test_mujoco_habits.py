"""A MuJoCo user feels at home: named access as in MuJoCo's Python bindings, MuJoCo's own
objects refused with a message that says what to do, and names wherever a body id goes."""
import copy
import pickle

import numpy as np
import pytest

import rbdl_edu as rbd

mujoco = pytest.importorskip("mujoco")

XML = """<mujoco><option timestep="0.002"/>
  <worldbody><body name="arm"><joint name="hinge" axis="0 1 0" damping="0.2"/>
    <geom name="rod" type="capsule" fromto="0 0 0 0 0 -0.5" size="0.03" mass="1"/>
    <site name="tip" pos="0 0 -0.5"/>
    <body name="hand" pos="0 0 -0.5"><joint name="wrist" type="slide" axis="1 0 0"/>
      <geom size="0.05" mass="0.2"/></body></body></worldbody>
  <tendon><fixed name="cable"><joint joint="hinge" coef="0.1"/></fixed></tendon>
  <actuator><motor name="push" joint="wrist"/>
    <general name="muscle" joint="hinge" dyntype="filter" dynprm="0.1"/></actuator>
  <sensor><jointpos name="angle" joint="hinge"/><framepos name="where" objtype="site" objname="tip"/>
  </sensor></mujoco>"""


@pytest.fixture
def both():
    """The same file in rbdl_edu and in MuJoCo, at the same state, forward run."""
    model, m = rbd.load_model(XML), mujoco.MjModel.from_xml_string(XML)
    data, d = rbd.Data(model), mujoco.MjData(m)
    for x in (data, d):
        x.qpos[:] = [0.4, 0.1]
        x.qvel[:] = [-1.0, 0.3]
        x.ctrl[:] = [0.5, 0.2]
        x.act[:] = [0.3]
    rbd.forward(model, data)
    mujoco.mj_forward(m, d)
    return model, data, m, d


KINDS = ("joint", "body", "geom", "site", "actuator", "tendon", "sensor")


# -- 1. Data: records with MuJoCo's attribute names ------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_data_records_have_the_bindings_names_and_values(both, kind):
    model, data, m, d = both
    for i in range(len(model.names(kind))):
        ours, theirs = getattr(data, kind)(i), getattr(d, kind)(i)
        assert (ours.id, ours.name) == (theirs.id, theirs.name)
        assert getattr(data, kind)(ours.name).id == i                  # a name or an id
        shared = [f for f in dir(ours) if f not in ("id", "name") and hasattr(theirs, f)]
        assert shared, kind
        for f in shared:
            if f == "moment":                                         # MuJoCo 4 stores it sparse
                continue
            a, b = getattr(ours, f), np.asarray(getattr(theirs, f))
            if f in ("xmat", "ximat"):                                # rbdl_edu's are 3 x 3, MuJoCo's flat
                b = b.reshape(3, 3)
            assert a.shape == b.shape, (kind, f, a.shape, b.shape)
            np.testing.assert_allclose(a, b, atol=1e-9, err_msg=f"{kind} {f}")


def test_sensor_data_is_an_array_not_a_memoryview(both):
    _, data, _, d = both
    reading = data.sensor("where").data
    assert isinstance(reading, np.ndarray) and reading.shape == (3,)
    np.testing.assert_allclose(reading, d.sensor("where").data)
    assert data.sensor("angle").data[0] == pytest.approx(0.4)


def test_reads_are_read_only_copies_and_say_to_assign_the_attribute(both):
    model, data, *_ = both
    kept = data.joint("hinge").qpos
    with pytest.raises(ValueError, match=r"data.joint\('hinge'\).qpos is a read-only copy; assign the "
                                         r"attribute instead: data.joint\('hinge'\).qpos = "):
        data.joint("hinge").qpos[:] = 0.5
    with pytest.raises(ValueError, match="assign the attribute"):
        data.sensor("angle").data[0] = 1.0
    assert data.qpos[0] == 0.4
    data.qpos[0] = -1.0                                  # the simulation moves on: the copy stays
    assert kept[0] == 0.4
    doubled = kept * 2                                   # results are ordinary arrays
    doubled[0] = 7.0
    assert repr(kept) == "array([0.4])" and str(kept) == "[0.4]"
    assert pickle.loads(pickle.dumps(kept)).tolist() == [0.4] and copy.deepcopy(kept).flags.writeable


def test_attribute_assignment_writes_through(both):
    model, data, *_ = both
    data.actuator("push").ctrl = 3.0
    assert data.ctrl.tolist() == [3.0, 0.2]
    record = data.joint("hinge")
    record.qpos = 0.5
    assert data.qpos[0] == 0.5 and record.qpos.tolist() == [0.5]
    data.joint(1).qvel = [2.0]
    assert data.qvel[1] == 2.0
    data.body("hand").xfrc_applied = [1, 2, 3, 0, 0, 0]
    assert data.xfrc_applied[2].tolist() == [1, 2, 3, 0, 0, 0]
    data.actuator("muscle").act = 0.9
    assert data.act.tolist() == [0.9]
    with pytest.raises(ValueError, match=r"data.joint\('hinge'\).qpos has shape \(1,\)"):
        data.joint("hinge").qpos = [1.0, 2.0]
    with pytest.raises(AttributeError, match="has no field 'qpso'"):
        data.joint("hinge").qpso = 1.0
    rbd.forward(model, data)
    assert data.actuator("push").force.tolist() == [3.0]


def test_unknown_names_and_ids(both):
    model, data, *_ = both
    with pytest.raises(KeyError, match=r"no joint named 'hinj'.*'hinge'"):
        data.joint("hinj")
    with pytest.raises(IndexError, match="body id 9 out of range"):
        data.body(9)
    with pytest.raises(TypeError, match="name or its integer id"):
        data.geom(1.5)


# -- 2. Model: records of the model's fields ------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_model_records_have_the_bindings_names_and_values(both, kind):
    model, _, m, _ = both
    for i in range(len(model.names(kind))):
        ours, theirs = getattr(model, kind)(i), getattr(m, kind)(i)
        assert (ours.id, ours.name) == (theirs.id, theirs.name)
        assert getattr(model, kind)(ours.name).id == i
        shared = [f for f in dir(ours) if f not in ("id", "name") and hasattr(theirs, f)]
        for f in shared:
            if (kind, f) == ("body", "parentid"):       # rbdl_edu's world has parent -1, MuJoCo's 0
                continue
            a, b = getattr(ours, f), np.asarray(getattr(theirs, f))
            assert a.shape == b.shape, (kind, f, a.shape, b.shape)
            np.testing.assert_allclose(a, b, atol=1e-6, err_msg=f"{kind} {f}")


def test_model_body_mass_and_read_only(both):
    model, *_ = both
    hand = model.body("hand")
    assert (hand.id, hand.name) == (2, "hand")
    assert hand.mass.tolist() == [0.2] and hand.pos.tolist() == [0, 0, -0.5]
    assert model.joint("wrist").qposadr.tolist() == [1]
    assert model.jnt("wrist").id == model.joint("wrist").id
    with pytest.raises(AttributeError, match=r"model.replace\(body_mass=...\)"):
        model.body("hand").mass = 1.0
    with pytest.raises(ValueError, match=r"model.replace\(body_mass=...\)"):
        model.body("hand").mass[0] = 1.0


def test_model_id_of_an_unknown_kind_names_the_kinds(both):
    model, *_ = both
    with pytest.raises(KeyError, match=r"no kind of object called 'bodies'; the kinds are \['body', 'joint'"):
        model.id("bodies", "hand")
    assert model.id("body", "hand") == 2


# -- 3. MuJoCo's own objects are refused, saying what to do ------------------------------------
def test_mujoco_objects_are_refused_with_a_message(both):
    model, data, m, d = both
    says_model = r"this is a mujoco.MjModel; .*rbd.load_model\(...\)"
    says_data = r"this is a mujoco.MjData; .*rbd.Data\(model\)"
    with pytest.raises(TypeError, match=says_model):
        rbd.Data(m)
    for f in (rbd.forward, rbd.step, rbd.inverse, rbd.reset):
        with pytest.raises(TypeError, match=says_model):
            f(m, d)
        with pytest.raises(TypeError, match=says_data):
            f(model, d)
    with pytest.raises(TypeError, match=says_model):
        rbd.rnea(m, [0, 0], [0, 0], [0, 0])
    with pytest.raises(TypeError, match=says_model):
        rbd.crba(m, [0, 0])
    with pytest.raises(TypeError, match=says_model):
        rbd.aba(m, [0, 0], [0, 0], [0, 0])
    with pytest.raises(TypeError, match=says_model):
        rbd.point_jacobian(m, [0, 0], 1, [0, 0, 0])


# -- 4. a body's name wherever its id goes -----------------------------------------------------
def test_jacobians_take_a_body_name(both):
    model, data, *_ = both
    q, p = data.qpos, data.site("tip").xpos
    for ours, by_id in ((rbd.point_jacobian(model, q, "hand", p), rbd.point_jacobian(model, q, 2, p)),
                        ((rbd.body_jacobian(model, q, "hand"),), (rbd.body_jacobian(model, q, 2),))):
        for a, b in zip(ours, by_id):
            np.testing.assert_array_equal(a, b)
    with pytest.raises(KeyError, match="no body named 'hnad'"):
        rbd.body_jacobian(model, q, "hnad")


def test_a_slice_of_sensordata_follows_the_buffer_as_in_mujoco():
    """``data.sensordata`` is one buffer written in place at every step, as MuJoCo's: a slice
    kept across steps shows the newest reading (the lab's aliasing trap, chapter 11), while
    ``data.sensor(name).data`` is a copy that keeps its step's."""
    model = rbd.load_model("""<mujoco><worldbody><body><joint name="j" axis="0 1 0"/>
        <geom size=".1" pos="0 0 -1"/></body></worldbody><sensor><jointpos joint="j" name="q"/></sensor></mujoco>""")
    data = rbd.Data(model)
    data.qpos[:] = 0.5
    rbd.step(model, data)
    view, copy = data.sensordata[0:1], data.sensor("q").data
    rbd.step(model, data)
    assert view[0] == data.sensordata[0] != copy[0]
