"""Two engines, one lab (issue 23): ``MouseEnv(engine="rbdl_edu" | "mujoco")`` and
``run(engine, ...)`` with either; terrain and obstacle chosen per episode, seeded; vectors of
mice (``gymnasium.make_vec``); and what the lab refuses.

The two engines agree on the mouse to round-off: the trot's 2 s COM path within
:data:`PATH_TOL` (measured: under 1e-15 m) and the observations at step 0 within 1e-12.
"""
from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rbdl_edu as rbd
from rbdl_edu.lab import (ENGINES, OBSTACLES, SCENES, Gait, SensorLog, TrotController, get_engine, run,
                          scene_path, simulates_contacts)
from rbdl_edu.lab.env import BEFORE_OBSTACLE, ENV_ID, GAIT_ACTION, MouseEnv
from rbdl_edu.lab.mujoco_engine import MUJOCO

#: the two engines' COM paths may differ by this much after 2 s of trot (m): round-off, grown by
#: the contacts' sensitivity a million-fold at most (measured on mujoco 4.0.0: 9e-16 m)
PATH_TOL = 1e-9
ZERO = np.zeros(len(GAIT_ACTION), np.float32)


def test_engines_by_name():
    assert ENGINES == ("rbdl_edu", "rbdl_edu-accelerated", "mujoco")
    assert get_engine("rbdl_edu") is rbd and get_engine(None) is rbd and get_engine(rbd) is rbd
    assert get_engine("mujoco") is MUJOCO and get_engine(MUJOCO) is MUJOCO
    assert simulates_contacts("mujoco") and simulates_contacts("rbdl_edu")
    for bad in ("MuJoCo", "bullet", 3, object()):
        with pytest.raises(ValueError, match="'rbdl_edu', 'rbdl_edu-accelerated' and 'mujoco'"):
            get_engine(bad)


def test_both_engines_trot_alike():
    # the lab's run() on each engine, by name: the same 2 s trot on flat ground
    paths = {}
    for name in ENGINES:
        engine = get_engine(name)
        model = engine.load_model(scene_path("flat"))
        data = engine.Data(model)
        engine.reset(model, data, "stand")
        log = SensorLog(model, ["com_pos"])
        run(name, model, data, TrotController(model, Gait()), 2.0, log)
        paths[name] = log["com_pos"]
    a, b = paths["rbdl_edu"], paths["mujoco"]
    assert a.shape == b.shape == (400, 3)
    assert a[-1, 0] - a[0, 0] > 0.2                                 # it walked (0.29 m)
    np.testing.assert_allclose(a, b, rtol=0, atol=PATH_TOL)
    np.testing.assert_allclose(paths["rbdl_edu-accelerated"], a, rtol=0, atol=PATH_TOL)


@pytest.mark.parametrize("obstacle", [None, "plank"])
def test_both_engines_observe_alike_at_step_0(obstacle):
    obs = {}
    for name in ENGINES:
        env = MouseEnv(engine=name, obstacle=obstacle)
        obs[name], info = env.reset(seed=4)
        assert info["obstacle"] == obstacle and info["scene"] == ("flat" if obstacle is None else "boards")
    np.testing.assert_allclose(obs["rbdl_edu"], obs["mujoco"], rtol=0, atol=1e-12)


def test_mujoco_env_passes_gymnasium_check():
    env = MouseEnv(engine="mujoco", obstacle=["plank", "bar"])
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*infinity.*")   # sensors are unbounded
        warnings.filterwarnings("ignore", message=".*spec.*")
        check_env(env)


def test_obstacles_are_where_the_scene_files_put_them():
    for name, o in OBSTACLES.items():
        model = MUJOCO.load_model(scene_path(o.scene))
        g = model.id("geom", o.geom) if name != "waves" else None
        if name in ("plank", "bar"):                                # boxes and capsules across the path
            x, half = model.geom_pos[g][0], model.geom_size[g][0]
            assert np.allclose([x - half, x + half], [o.near, o.far], atol=1e-9), name
        elif name == "hump":
            x, half = model.geom_pos[g][0], model.geom_size[g][0]
            assert np.allclose([x - half, x + half], [o.near, o.far], atol=1e-9)
        elif name == "arc":                                         # a sunk cylinder: where it meets the floor
            r, depth = model.geom_size[g][0], model.geom_pos[g][2]
            half = np.sqrt(r ** 2 - depth ** 2)
            assert np.allclose(model.geom_pos[g][0] + np.array([-half, half]), [o.near, o.far], atol=1e-3)
        else:
            assert o.scene in SCENES and o.near < o.far


def test_terrain_and_obstacle_drawn_per_episode_and_seeded():
    env = MouseEnv(engine="mujoco", scene=["flat", "boards", "terrain"])
    draws = [env.reset(seed=s)[1]["scene"] for s in range(12)]
    assert set(draws) == {"flat", "boards", "terrain"}
    again = MouseEnv(engine="mujoco", scene=["flat", "boards", "terrain"])
    assert [again.reset(seed=s)[1]["scene"] for s in range(12)] == draws           # the seed repeats it
    o1, _ = again.reset(seed=5)
    o2, _ = env.reset(seed=5)
    np.testing.assert_array_equal(o1, o2)
    _, info = env.reset(options={"scene": "slope"})                                # one episode's choice
    assert info["scene"] == "slope" and info["obstacle"] is None and env.model is env._loaded["slope"][0]

    env = MouseEnv(engine="mujoco", obstacle=["plank", "bar", "arc"], start_spread=0.01)
    seen, starts = set(), []
    for s in range(20):
        _, info = env.reset(seed=s)
        o = OBSTACLES[info["obstacle"]]
        assert info["scene"] == o.scene and info["past"] is False
        seen.add(info["obstacle"])
        start = env.data.qpos[0] - o.near + BEFORE_OBSTACLE
        assert abs(start) <= 0.01 and abs(env.data.qpos[0] - info["x"]) < 0.05
        starts.append(start)
    assert seen == {"plank", "bar", "arc"} and np.std(starts) > 0.002
    _, info = env.reset(seed=0, options={"obstacle": None, "scene": "flat", "start": 0.25})
    assert info["obstacle"] is None and "past" not in info and abs(env.data.qpos[0] - 0.25) < 1e-12


def test_the_trot_gets_past_the_round_bar():
    # the "past" flag: both hind feet beyond the bar's far edge (the lab's trot crosses the bar
    # from the chapter's start, without noise; with the start spread it does 2 times in 5)
    env = MouseEnv(engine="mujoco", obstacle="bar", episode_seconds=4.0, noise=0.0, start_spread=0.0)
    _, info = env.reset(seed=0)
    flags = [info["past"]]
    while True:
        _, _, terminated, truncated, info = env.step(ZERO)
        flags.append(info["past"])
        if terminated or truncated:
            break
    assert not flags[0] and flags[-1] and not terminated


def test_the_lab_refuses_what_it_does_not_know():
    with pytest.raises(ValueError, match="unknown engine 'mjx'"):
        MouseEnv(engine="mjx")
    with pytest.raises(ValueError, match=r"no scene 'moon'.*'boards'"):
        MouseEnv(scene="moon", engine="mujoco")
    with pytest.raises(ValueError, match="no MJCF file"):
        MouseEnv(scene="/nowhere/scene.xml", engine="mujoco")
    with pytest.raises(ValueError, match=r"no obstacle 'wall'.*'plank'"):
        MouseEnv(obstacle="wall", engine="mujoco")
    with pytest.raises(ValueError, match="no scene to choose from"):
        MouseEnv(scene=[], engine="mujoco")
    with pytest.raises(ValueError, match="unknown engine"):
        run("bullet", None, None, None, 1.0)
    env = MouseEnv(engine="mujoco")
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"terrain": "flat"})
    with pytest.raises(ValueError, match="no obstacle"):
        env.reset(options={"obstacle": "wall"})
    env.reset(seed=0)
    qpos = env.data.qpos.copy()
    for bad, where in ((1.5, "action\\[2\\] = 1.5"), (np.nan, "action\\[2\\] = nan"), (-1.01, "outside")):
        action = ZERO.copy()
        action[2] = bad
        with pytest.raises(ValueError, match=where):
            env.step(action)
    with pytest.raises(ValueError, match=r"expected \(8,\)"):
        env.step(np.zeros(12))
    np.testing.assert_array_equal(env.data.qpos, qpos)               # nothing stepped
    env.step(np.ones(8, np.float32))                                  # the box's corner is in it
    joints = MouseEnv(engine="mujoco", action="joints")
    joints.reset(seed=0)
    with pytest.raises(ValueError, match="outside the action box"):
        joints.step(np.full(12, 2.0))


def test_a_vector_of_mice_is_the_mice_one_by_one():
    # N mice in N processes (AsyncVectorEnv through make_vec); gymnasium seeds env i with seed + i.
    # The processes start from a fork server, not by forking this one: the test session may
    # have imported JAX, whose threads a plain fork would copy half-way
    n, seed, steps = 3, 11, 8
    vec = gymnasium.make_vec(ENV_ID, num_envs=n, vectorization_mode="async", engine="mujoco",
                             obstacle=["plank", "bar"], episode_seconds=5.0,
                             vector_kwargs={"context": "forkserver"})
    try:
        assert isinstance(vec, gymnasium.vector.AsyncVectorEnv) and vec.action_space.shape == (n, 8)
        obs, infos = vec.reset(seed=seed)
        rng = np.random.default_rng(0)
        actions = rng.uniform(-0.3, 0.3, (steps, n, 8)).astype(np.float32)
        total = np.zeros(n)
        for a in actions:
            obs, reward, terminated, truncated, infos = vec.step(a)
            assert not np.any(terminated | truncated)                   # no reset in between
            total += reward
    finally:
        vec.close()
    for i in range(n):
        env = MouseEnv(engine="mujoco", obstacle=["plank", "bar"], episode_seconds=5.0)
        o, info = env.reset(seed=seed + i)
        assert info["obstacle"] == infos["obstacle"][i]
        r = sum(env.step(a[i])[1] for a in actions)
        np.testing.assert_array_equal(env._obs(), obs[i])
        assert r == pytest.approx(total[i], abs=1e-12)


def test_residual_actions_correct_the_trot():
    # zero residual: exactly the trot (the gait action's zero); a residual moves the targets by
    # residual_scale radians per unit, inside ctrlrange
    a = MouseEnv(engine="mujoco", action="residual", noise=0.0)
    b = MouseEnv(engine="mujoco", action="gait", noise=0.0)
    assert a.action_space.shape == (12,)
    a.reset(seed=0), b.reset(seed=0)
    for _ in range(5):
        oa, ra, *_ = a.step(np.zeros(12, np.float32))
        ob, rb, *_ = b.step(ZERO)
    np.testing.assert_array_equal(oa, ob)
    u = np.zeros(12, np.float32)
    u[1] = 0.5                                                       # the fore-left knee
    target = a.trot.table[1, a.trot.step % a.trot.steps_per_period]
    a.step(u)
    k = a.trot.ids[1]
    last = a.trot.table[1, (a.trot.step - 1) % a.trot.steps_per_period]
    lo, hi = a.model.actuator_ctrlrange[k]
    assert a.data.ctrl[k] == pytest.approx(np.clip(last + 0.15, lo, hi), abs=1e-12) and target != last
