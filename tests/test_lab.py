"""The robot-mouse lab (issue 11): the model and its scenes, the leg kinematics, the trot, the
sensor log, the gymnasium environment.

What runs where:

* rbdl_edu: loading the mouse and every scene, field for field against MuJoCo; the smooth
  pipeline at the standing pose (contacts off) against MuJoCo; the legs' kinematics (the
  model's feet reach the controller's targets); the sensor log's copy semantics; and the
  mouse walking with contacts (10 s on flat ground, the FFT of its IMU, the files written
  from that run, the environment under ``check_env``).
* MuJoCo 4.0 through ``rbdl_edu.lab.mujoco_engine`` (the lab's second engine): the same
  controller turning left and right (the steering tests, kept on MuJoCo to keep this file
  short), the contact probe's positive case, and the copy semantics of the adapter.
"""
from __future__ import annotations

import dataclasses
import math
import warnings

import mujoco
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from mujoco_oracle import compare_dynamics, compare_fields

import rbdl_edu as rbd
from rbdl_edu.kinematics import kinematics
from rbdl_edu.lab import (LEG, LEGS, SCENES, Gait, Oval, SensorLog, TrotController,
                          foot_target, leg_fk, leg_ik, run, scene_path, simulates_contacts)
from rbdl_edu.lab.env import ENV_ID, GAIT_ACTION, MouseEnv, gait_from_action
from rbdl_edu.lab.mujoco_engine import MUJOCO
from rbdl_edu.lab.mouse import KNEE

# the mouse and every scene compile in rbdl_edu as in MuJoCo
RBD_SCENES = ["mouse"] + list(SCENES)
# the engine that walks the mouse: MuJoCo until rbdl_edu simulates contacts
ENGINE_FOR_WALKING = rbd

WALK_SECONDS = 10.0
WALK_DISTANCE = 1.0          # m: the trot's COM must travel further than this in 10 s on flat ground
# (nominal: a stride of 2 a = 60 mm in a stance of (1 - swing) / f = 0.4 s gives 0.15 m/s, 1.5 m in
# 10 s; MuJoCo 4.0 measures 1.39 m, the rest is slip)


# -- the model and the scenes -----------------------------------------------------------------
@pytest.mark.parametrize("scene", RBD_SCENES)
def test_mouse_and_scenes_compile_as_in_mujoco(scene):
    path = scene_path(scene)
    model, m = rbd.load_model(path), mujoco.MjModel.from_xml_path(str(path))
    compare_fields(model, m)
    compare_dynamics(model, m, seed=len(scene), trials=2)


def test_terrain_is_a_height_field_of_waves():
    model = rbd.load_model(scene_path("terrain"))
    assert model.nhfield == 1 and (model.hfield_nrow[0], model.hfield_ncol[0]) == (5, 121)
    h = model.hfield_data.reshape(5, 121)
    assert h.min() == 0 and np.isclose(h.max(), 1, atol=1e-6)       # normalized, as documented
    assert np.all(h == h[0]) and h[0, 0] == 0                       # waves across the path, from level ground


def test_sensors_at_the_standing_pose_match_mujoco():
    # the smooth pipeline at the keyframe, contacts off in both: every sensor at its address
    path = scene_path("flat")
    m = mujoco.MjModel.from_xml_path(str(path))
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT
    d = mujoco.MjData(m)
    mujoco.mj_resetDataKeyframe(m, d, 0)
    d.qvel[:] = np.random.default_rng(0).normal(scale=0.1, size=m.nv)
    mujoco.mj_forward(m, d)
    model = rbd.load_model(path)
    model = model.replace(opt=dataclasses.replace(model.opt, disableflags=model.opt.disableflags | {"contact"}))
    data = rbd.Data(model)
    rbd.reset(model, data, "stand")
    data.qvel[:] = d.qvel
    rbd.forward(model, data)
    np.testing.assert_allclose(data.sensordata, d.sensordata, atol=1e-10)
    for name in ("imu_gyro", "com_pos", "touch_fl", "hip_rr"):
        np.testing.assert_allclose(data.sensor(name).data, d.sensor(name).data, atol=1e-10)


def test_keyframe_is_where_the_trot_begins():
    model = rbd.load_model(scene_path("flat"))
    trot = TrotController(model, Gait())
    q0 = dict(zip(trot.names, trot.targets(0)))
    k = model.id("keyframe", "stand")
    for j in range(1, model.njnt):
        assert abs(model.key_qpos[k, model.jnt_qposadr[j]] - q0[model.jnt_names[j]]) < 1e-6
    for a in range(model.nu):
        assert abs(model.key_ctrl[k, a] - q0[model.actuator_names[a]]) < 1e-6


def test_mouse_stands_still_at_the_keyframe():
    # holding the keyframe's controls, the mouse settles: it drops and tilts a little (the
    # four feet of the trot's first step are not at one height), rocks, and stops
    engine = ENGINE_FOR_WALKING
    model = engine.load_model(scene_path("flat"))
    data = engine.Data(model)
    engine.reset(model, data, "stand")
    start = data.qpos[:3].copy()
    log = SensorLog(model, ["com_quat", "com_vel", "imu_gyro"] + [f"touch_{leg}" for leg in LEGS])
    run(engine, model, data, None, 2.0, log)
    assert np.linalg.norm(data.qpos[:3] - start) < 3e-3
    w, x, y, z = log["com_quat"][-1]
    assert 1 - 2 * (x * x + y * y) > np.cos(np.radians(3))
    late = log.time > 1.5
    assert np.abs(log["com_vel"][late]).max() < 2e-3 and np.abs(log["imu_gyro"][late]).max() < 0.03
    assert sum(log[f"touch_{leg}"][-1] > 0 for leg in LEGS) >= 3    # standing on three feet or four


def test_controller_leg_matches_the_model():
    model = rbd.load_model(scene_path("mouse"))
    for leg in LEGS:
        shin, foot = model.id("body", f"shin_{leg}"), model.id("site", f"foot_{leg}")
        np.testing.assert_allclose(model.body_pos[shin], [0, 0, -LEG.l1])
        np.testing.assert_allclose(model.site_pos[foot], [0, 0, -LEG.l2])
        for j in (f"hip_{leg}", f"knee_{leg}"):
            np.testing.assert_allclose(model.jnt_axis[model.id("joint", j)], [0, -1, 0])
        lo, hi = model.jnt_range[model.id("joint", f"knee_{leg}")]
        assert (lo >= 0) if KNEE[leg] > 0 else (hi <= 0)


# -- leg kinematics -----------------------------------------------------------------------------
@pytest.mark.parametrize("knee", [1, -1])
def test_ik_is_exact(knee):
    rng = np.random.default_rng(3)
    r = rng.uniform(0.2, 0.999, 200) * (LEG.l1 + LEG.l2)
    angle = rng.uniform(-1.2, 1.2, 200)
    x, z = r * np.sin(angle), -r * np.cos(angle)
    q1, q2 = leg_ik(x, z, knee=knee)
    assert np.all(knee * q2 >= 0)
    np.testing.assert_allclose(leg_fk(q1, q2), [x, z], rtol=0, atol=1e-15)
    for xi, zi in zip(x[:5], z[:5]):                                # floats too
        np.testing.assert_allclose(leg_fk(*leg_ik(xi, zi, knee=knee)), [xi, zi], atol=1e-15)


def test_ik_refuses_what_it_cannot_reach():
    with pytest.raises(ValueError, match="out of reach"):
        leg_ik([0.0, 0.0], [-0.05, -0.071])
    with pytest.raises(ValueError, match="out of reach"):
        leg_ik(np.nan, -0.05)
    with pytest.raises(ValueError, match="knee"):
        leg_ik(0.0, -0.05, knee=0)


def test_model_feet_reach_the_controller_targets_over_a_period():
    # forward kinematics of the model (rbdl_edu) at the controller's joint targets puts every
    # foot where the gait wants it, in its hip's frame
    model = rbd.load_model(scene_path("mouse"))
    gait = Gait(turn_fore=0.1, turn_hind=-0.05, steer=0.1)
    trot = TrotController(model, gait)
    data = rbd.Data(model)
    for k in range(0, trot.steps_per_period, 7):
        q = dict(zip(trot.names, trot.targets(k)))
        for j in range(1, model.njnt):
            data.qpos[model.jnt_qposadr[j]] = q[model.jnt_names[j]]
        kinematics(model, data)
        for i, leg in enumerate(LEGS):
            hip = data.body(f"thigh_{leg}").xpos
            foot = data.site(f"foot_{leg}").xpos - hip
            phase = 2 * math.pi * ((k + trot.step_diff[i]) % trot.steps_per_period) / trot.steps_per_period
            x, z = foot_target(gait, leg, phase)
            np.testing.assert_allclose(foot, [x, 0, z], atol=1e-12)


# -- the gait -----------------------------------------------------------------------------------
def test_oval_halves_and_trot_phases():
    gait = Gait()
    trot = TrotController(rbd.load_model(scene_path("mouse")), gait)
    N = trot.steps_per_period
    assert N == round(1 / (gait.freq * 0.005)) and trot.frequency == pytest.approx(1 / (N * 0.005))
    assert trot.step_diff == [0, round(N / 2), round(N / 2), 0]
    phase = np.linspace(0, 2 * np.pi, 400, endpoint=False)
    x, z = foot_target(gait, "fl", phase)
    swing = phase < 2 * np.pi * gait.swing
    # the swing goes forwards above the centre, the stance backwards below it
    assert np.all(z[swing] >= gait.fore.z0 - 1e-15) and np.all(z[~swing] <= gait.fore.z0 + 1e-15)
    assert np.all(np.diff(x[swing]) > 0) and np.all(np.diff(x[~swing]) < 0)
    assert z.max() == pytest.approx(gait.fore.z0 + gait.fore.lift, abs=1e-5)
    assert z.min() == pytest.approx(gait.fore.z0 - gait.fore.press, abs=1e-5)
    assert np.ptp(x) == pytest.approx(2 * gait.fore.a, abs=1e-6)
    # diagonal pairs move together; the two pairs are half a period apart
    T = trot.targets(np.arange(N))
    fl, fr, rl, rr = T[0:2], T[2:4], T[4:6], T[6:8]
    np.testing.assert_allclose(fr, np.roll(fl, -trot.step_diff[1], axis=1), atol=1e-15)
    np.testing.assert_allclose(rl, np.roll(rr, -trot.step_diff[2], axis=1), atol=1e-15)
    # turning rotates the targets about the hip: the distance from the hip is unchanged
    xt, zt = foot_target(Gait(turn_fore=0.2), "fl", phase)
    np.testing.assert_allclose(np.hypot(xt, zt), np.hypot(x, z), atol=1e-15)
    np.testing.assert_allclose(np.arctan2(xt, -zt) - np.arctan2(x, -z), 0.2, atol=1e-12)


def test_spine_mode_and_gait_changes():
    model = rbd.load_model(scene_path("mouse"))
    trot = TrotController(model, Gait(spine_amplitude=0.2, tail_amplitude=0.3, spine_phase=np.pi / 2))
    T = dict(zip(trot.names, trot.targets(np.arange(trot.steps_per_period))))
    assert np.ptp(T["spine"]) == pytest.approx(0.4, abs=1e-3)
    np.testing.assert_allclose(T["neck"], -T["spine"])             # the head keeps looking ahead
    np.testing.assert_allclose(T["tail"] / 0.3, -T["spine"] / 0.2, atol=1e-15)
    assert T["spine"][0] == pytest.approx(0.2, rel=1e-3)            # a quarter period ahead
    trot.step = 40
    trot.set_gait(Gait(freq=1.0))                                   # same fraction of the period
    assert trot.step == round(40 / 133 * 200)


def test_the_running_gait_keeps_its_table():
    # MouseEnv sets the gait every environment step: an equal gait is not computed again,
    # and the controller is then as if it had been
    model = rbd.load_model(scene_path("mouse"))
    gait = gait_from_action(np.full(len(GAIT_ACTION), 0.3))
    trot = TrotController(model, gait)
    table = trot.table
    trot.step = 3 * trot.steps_per_period + 17
    trot.set_gait(dataclasses.replace(gait))                        # equal, not the same object
    assert trot.table is table and trot.step == 17 and trot.gait == gait
    np.testing.assert_array_equal(table, TrotController(model, gait).table)
    trot.set_gait(gait_from_action(np.full(len(GAIT_ACTION), 0.2)))   # another gait: a new table
    assert trot.table is not table and not np.array_equal(trot.table, table)


def test_gaits_out_of_range_are_refused():
    model = rbd.load_model(scene_path("mouse"))
    with pytest.raises(ValueError, match="out of reach"):
        TrotController(model, Gait(fore=Oval(0.0, -0.065, a=0.03)))
    with pytest.raises(ValueError, match="ctrlrange"):
        TrotController(model, Gait(turn_fore=-0.8))
    trot = TrotController(model, Gait())
    trot.step = 50
    with pytest.raises(ValueError, match="ctrlrange"):
        trot.set_gait(Gait(turn_hind=1.0))
    assert trot.gait == Gait() and trot.step == 50 and trot.table.shape == (12, 133)   # unchanged
    for bad in (dict(freq=0.0), dict(swing=1.0), dict(steer=1.0), dict(phases=(0, 1))):
        with pytest.raises(ValueError):
            Gait(**bad)


def test_every_gait_action_is_a_valid_gait():
    model = rbd.load_model(scene_path("mouse"))
    rng = np.random.default_rng(0)
    n = len(GAIT_ACTION)
    corners = np.vstack([np.ones(n), -np.ones(n), rng.choice([-1.0, 1.0], size=(60, n))])
    for a in corners:
        TrotController(model, gait_from_action(a))                 # raises if any target is out of range
    assert gait_from_action(np.zeros(n)) == Gait()
    with pytest.raises(ValueError, match="8 numbers"):
        gait_from_action(np.zeros(3))


# -- walking, on rbdl_edu's contacts ------------------------------------------------------------
@pytest.fixture(scope="module")
def flat_walk():
    engine = ENGINE_FOR_WALKING
    model = engine.load_model(scene_path("flat"))
    data = engine.Data(model)
    engine.reset(model, data, "stand")
    trot = TrotController(model, Gait())
    log = SensorLog(model)
    run(engine, model, data, trot, WALK_SECONDS, log)
    return log, trot


def test_trot_walks_forward_on_flat_ground(flat_walk):
    log, _ = flat_walk
    pos, quat = log["com_pos"], log["com_quat"]
    assert log.time[-1] == pytest.approx(WALK_SECONDS - 0.005)
    assert pos[-1, 0] - pos[0, 0] > WALK_DISTANCE
    assert abs(pos[-1, 1]) < 0.2                                    # roughly straight
    up = 1 - 2 * (quat[:, 1] ** 2 + quat[:, 2] ** 2)                # body z axis . world z
    assert up.min() > 0.9                                           # upright all the way
    assert pos[:, 2].min() > 0.04
    touch = np.column_stack([log[f"touch_{leg}"] for leg in LEGS])
    assert np.all(touch.max(0) > 0) and np.all(touch.min(0) == 0)   # every foot lands and lifts


def test_imu_frequency_is_the_gait_frequency(flat_walk):
    log, trot = flat_walk
    N = trot.steps_per_period
    # a whole number of periods after the first second, so the gait's harmonics fall on bins
    n = (len(log) - 200) // N * N
    gyro = log["imu_gyro"][-n:]
    dt = log.time[1] - log.time[0]
    freq = np.fft.rfftfreq(len(gyro), dt)
    spectrum = np.abs(np.fft.rfft(gyro - gyro.mean(0), axis=0))
    dominant = freq[np.argmax(spectrum[1:], axis=0) + 1]
    # roll alternates with the diagonal pair on the ground: once per period;
    # pitch follows each pair's step: twice per period
    assert dominant[0] == pytest.approx(trot.frequency, abs=1e-9)
    assert dominant[1] == pytest.approx(2 * trot.frequency, abs=1e-9)


@pytest.mark.parametrize("steer", [0.2, -0.2])
def test_steer_turns_the_mouse(steer):
    # positive steer: the left legs stride shorter, the right ones longer: a turn to the left
    engine = MUJOCO                        # the same controller; MuJoCo keeps this file short
    model = engine.load_model(scene_path("flat"))
    data = engine.Data(model)
    engine.reset(model, data, "stand")
    log = SensorLog(model, ["com_pos", "com_quat"])
    run(engine, model, data, TrotController(model, Gait(steer=steer)), 5.0, log)
    w, x, y, z = log["com_quat"][-1]
    heading = math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))     # yaw of the body
    assert np.sign(heading) == np.sign(steer) and abs(heading) > 0.1       # MuJoCo: 0.22, 0.28 rad
    assert np.sign(log["com_pos"][-1, 1]) == np.sign(steer)


def test_run_reports_speed_and_logs_every_nth_step():
    engine = ENGINE_FOR_WALKING
    model = engine.load_model(scene_path("flat"))
    data = engine.Data(model)
    engine.reset(model, data, "stand")
    log = SensorLog(model, ["com_pos", "touch_fl"])
    speed = run(engine, model, data, TrotController(model), 0.1, log, every=5)
    assert speed > 0 and len(log) == 4
    np.testing.assert_allclose(log.time, [0.02, 0.045, 0.07, 0.095], atol=1e-12)


def test_contact_probe():
    assert simulates_contacts(MUJOCO) is True
    assert simulates_contacts(rbd) is True


# -- the sensor log -----------------------------------------------------------------------------
@pytest.mark.parametrize("engine", [rbd, MUJOCO], ids=["rbdl_edu", "mujoco"])
def test_log_stores_copies(engine):
    # MuJoCo's sensordata is a live buffer: a log of slices of it would repeat the last reading
    model = engine.load_model(scene_path("flat"))
    data = engine.Data(model)
    engine.reset(model, data, "stand")
    log = SensorLog(model)
    for _ in range(3):
        engine.step(model, data)
        log.record(data)
    z = log["com_pos"][:, 2]
    assert len(set(z.tolist())) == 3                                # three different readings
    data.sensordata[:] = 123.0                                      # the buffer changes ...
    assert not np.any(log.values == 123.0)                          # ... the log does not
    got = log["imu_acc"]
    got[:] = 0
    assert np.any(log["imu_acc"] != 0)                              # what it hands out are copies
    adr, dim = model.sensor_adr[model.id("sensor", "imu_gyro")], 3
    assert log.columns()[adr:adr + dim] == ["imu_gyro[0]", "imu_gyro[1]", "imu_gyro[2]"]


def test_log_refuses_unknown_sensors():
    model = rbd.load_model(scene_path("mouse"))
    with pytest.raises(KeyError, match="imu_gyro"):
        SensorLog(model, ["gyro"])
    with pytest.raises(KeyError, match="not in this log"):
        SensorLog(model, ["imu_acc"])["imu_gyro"]


def test_exported_files_round_trip(flat_walk, tmp_path):
    log, _ = flat_walk
    for save, load, name in [("to_csv", "from_csv", "walk.csv"), ("to_npz", "from_npz", "walk.npz")]:
        getattr(log, save)(tmp_path / name)
        back = getattr(SensorLog, load)(tmp_path / name)
        assert back.names == log.names and back.dims == log.dims
        np.testing.assert_array_equal(back.time, log.time)          # bit for bit
        np.testing.assert_array_equal(back.values, log.values)
        np.testing.assert_array_equal(back["com_quat"], log["com_quat"])
    header = (tmp_path / "walk.csv").read_text().splitlines()[0].split(",")
    assert header[:5] == ["time", "neck", "head", "spine", "touch_fl"] and "imu_acc[2]" in header
    empty = SensorLog(rbd.load_model(scene_path("mouse")), ["com_pos", "spine"])
    empty.to_csv(tmp_path / "empty.csv")
    back = SensorLog.from_csv(tmp_path / "empty.csv")
    assert len(back) == 0 and back.dims == (3, 1)
    (tmp_path / "bad.csv").write_text("t,x\n0,1\n")
    with pytest.raises(ValueError, match="'time'"):
        SensorLog.from_csv(tmp_path / "bad.csv")
    (tmp_path / "bad.csv").write_text("time,p[1]\n0,1\n")
    with pytest.raises(ValueError, match="does not follow"):
        SensorLog.from_csv(tmp_path / "bad.csv")


# -- the environment ----------------------------------------------------------------------------
@pytest.mark.parametrize("action", ["gait", "joints"])
def test_env_passes_gymnasium_check(action):
    env = MouseEnv(engine=ENGINE_FOR_WALKING, action=action)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*infinity.*")   # sensors are unbounded
        warnings.filterwarnings("ignore", message=".*spec.*")
        check_env(env)


def test_env_episode_return_is_the_distance():
    import gymnasium
    env = gymnasium.make(ENV_ID, engine=ENGINE_FOR_WALKING, episode_seconds=3.0)
    obs, info = env.reset(seed=7)
    u = env.unwrapped
    assert obs.shape == (u.model.nsensordata,)
    np.testing.assert_array_equal(obs[u.sensor_slices["imu_gyro"]], u.data.sensor("imu_gyro").data)
    x0, total, steps = info["x"], 0.0, 0
    while True:
        obs, reward, terminated, truncated, info = env.step(np.zeros(len(GAIT_ACTION), np.float32))
        total, steps = total + reward, steps + 1
        if terminated or truncated:
            break
    assert truncated and not terminated and steps == 30
    assert total == pytest.approx(info["x"] - x0, abs=1e-12) and total > 0.3
    assert obs[u.sensor_slices["com_pos"]][0] == pytest.approx(info["x"])


def test_env_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="render_mode"):
        MouseEnv(engine=MUJOCO, render_mode="human")
    with pytest.raises(ValueError, match="action"):
        MouseEnv(engine=MUJOCO, action="torques")
    env = MouseEnv(engine=MUJOCO)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3))


def test_env_refuses_a_mouse_without_the_sensors_it_reads(tmp_path):
    text = scene_path("mouse").read_text()
    line = '<framepos name="com_pos" objtype="site" objname="imu"/>'
    assert text.count(line) == 1
    (tmp_path / "mouse.xml").write_text(text.replace(line, ""))
    (tmp_path / "scene.xml").write_text(scene_path("flat").read_text())
    with pytest.raises(ValueError, match="no sensor 'com_pos'"):
        MouseEnv(scene=str(tmp_path / "scene.xml"), engine=MUJOCO)


def test_env_runs_on_rbdl_edu_by_default():
    assert MouseEnv().engine is rbd


def test_env_steps_without_sensors_between_observations(monkeypatch):
    """Between two observations MouseEnv steps rbdl_edu's mouse with its sensors off
    (``between_observations``); the sensors feed nothing back, so the observations, rewards
    and states are those of stepping with them on, to the last bit."""
    from rbdl_edu.lab import env as env_module

    def episode():
        env = MouseEnv(engine=rbd, action="residual", episode_seconds=1e6)
        rows = [env.reset(seed=3)[0]]
        rng = np.random.default_rng(0)
        for _ in range(3):
            obs, reward, *_ = env.step(rng.uniform(-0.5, 0.5, env.action_space.shape))
            rows.append(np.concatenate([obs, [reward], env.data.qpos, env.data.qvel, env.data.qacc_warmstart]))
        return env, np.concatenate(rows)

    quiet, ours = episode()
    assert quiet._stepping.opt.disabled("sensor") and not quiet.model.opt.disabled("sensor")
    monkeypatch.setattr(env_module, "between_observations", lambda engine, model: model)
    loud, theirs = episode()
    assert loud._stepping is loud.model
    np.testing.assert_array_equal(ours, theirs)
