"""PPO from skrl (JAX backend) on the mouse (issue 23): a short seeded training end to end
(finite losses, the same numbers again from the same seed, the policy written and read back),
a policy file for another environment refused (other actions, other observations, a .json that
does not fit its arrays), and the committed policy
(``models/mouse/ppo_plank.npz``, made by ``tools/train_ppo.py``) against the scripted trot.
"""
from __future__ import annotations

import json

import jax
import numpy as np
import pytest
from jax.experimental.compilation_cache import compilation_cache

from rbdl_edu.lab import MODEL_DIR
from rbdl_edu.lab.ppo import MouseEnv, evaluate, load_policy, mean_action, save_policy, train

COMMITTED = MODEL_DIR / "ppo_plank.npz"


@pytest.fixture(scope="module")
def compile_once(tmp_path_factory):
    # skrl compiles a PPO update per agent (its optimizer is a static argument of the jitted
    # step), so a second training of the same networks would compile everything again: most of
    # its time. JAX's persistent compilation cache, for this module only, reads them back.
    options = {"jax_compilation_cache_dir": str(tmp_path_factory.mktemp("jax_cache")),
               "jax_persistent_cache_min_compile_time_secs": 0.0,
               "jax_persistent_cache_min_entry_size_bytes": -1}
    before = {name: getattr(jax.config, name) for name in options}
    for name, value in options.items():
        jax.config.update(name, value)
    compilation_cache.reset_cache()
    yield
    for name, value in before.items():
        jax.config.update(name, value)
    compilation_cache.reset_cache()


SHORT = dict(timesteps=32, seed=0, n_envs=2, rollouts=16, episode_seconds=1.0)


@pytest.fixture(scope="module")
def short_training(compile_once):
    # 2 mice x 32 steps of 0.1 s in episodes of 1 s, two PPO updates of 16-step rollouts
    # (most of the time: compiling)
    return train(**SHORT)


def test_short_training_is_finite_and_seeded(short_training):
    agent, history = short_training
    for tag in ("Loss / Policy loss", "Loss / Value loss"):
        assert len(history[tag]) == 32 // 16 and np.all(np.isfinite(history[tag])), tag   # one per update
    returns = history["episode return"]
    assert len(returns) >= 2 * 3 and np.all(np.isfinite(returns))       # every mouse ended >= 3 episodes
    again, history2 = train(**SHORT)                                      # (compiled code from the cache)
    assert history2["Loss / Policy loss"] == history["Loss / Policy loss"]
    assert history2["episode return"] == history["episode return"]


def test_policy_written_and_read_back(short_training, tmp_path):
    agent, _ = short_training
    env = MouseEnv(engine="mujoco", obstacle="plank", action="residual", episode_seconds=1.0)
    save_policy(agent, tmp_path / "p.npz", 32, 12, note="test")
    assert json.loads((tmp_path / "p.json").read_text())["note"] == "test"
    act = load_policy(tmp_path / "p.npz", env)
    obs, _ = env.reset(seed=3)
    np.testing.assert_allclose(act(obs), mean_action(agent, obs)[0], atol=1e-6)
    ret, info = evaluate(act, env, seed=3)
    assert np.isfinite(ret) and info["time"] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="is for 32 observations and 12 actions; this environment has 32 "
                                         "observations and 8 actions"):
        load_policy(tmp_path / "p.npz", MouseEnv(engine="mujoco", action="gait"))


def mouse_without_accelerometer(directory):
    """A flat scene whose mouse has no accelerometer: 29 observations, not 32."""
    xml = (MODEL_DIR / "mouse.xml").read_text()
    line = '<accelerometer name="imu_acc" site="imu"/>'
    assert line in xml
    (directory / "mouse.xml").write_text(xml.replace(line, ""))
    (directory / "scene_flat.xml").write_text((MODEL_DIR / "scene_flat.xml").read_text())
    return MouseEnv(scene=str(directory / "scene_flat.xml"), engine="mujoco", action="residual")


def test_a_policy_for_other_observations_is_refused(short_training, tmp_path):
    agent, _ = short_training
    other = mouse_without_accelerometer(tmp_path)
    assert other.observation_space.shape == (29,)
    save_policy(agent, tmp_path / "p.npz", 32, 12)
    with pytest.raises(ValueError, match="is for 32 observations and 12 actions; this environment has 29 "
                                         "observations and 12 actions"):
        load_policy(tmp_path / "p.npz", other)
    # the sizes a file is saved with are the network's, and a .json that lies about them is caught
    with pytest.raises(ValueError, match="the policy is for 32 observations and 12 actions, not 29 and 12"):
        save_policy(agent, tmp_path / "q.npz", 29, 12)
    meta = tmp_path / "p.json"
    meta.write_text(meta.read_text().replace('"observation_size": 32', '"observation_size": 29'))
    with pytest.raises(ValueError, match=r"does not fit the network of its .json \(29 observations, "
                                         r"12 actions\): params/Dense_0/kernel: \(32, 64\), expected \(29, 64\)"):
        load_policy(tmp_path / "p.npz", other)
    # and the policy's actions go through the same box check as any other (nothing clipped)
    other.reset(seed=0)
    with pytest.raises(ValueError, match=r"action\[0\] = 1.5 is outside the action box"):
        other.step(np.r_[1.5, np.zeros(11)].astype(np.float32))


def test_the_committed_policy_beats_the_trot_on_the_plank():
    # the ten held-out starts on MuJoCo (a second): the policy's mean action gets farther, and
    # past the plank more often, than the scripted trot; the numbers are the committed ones
    meta = json.loads(COMMITTED.with_suffix(".json").read_text())
    env = MouseEnv(engine="mujoco", obstacle="plank", action="residual", episode_seconds=4.0)
    act = load_policy(COMMITTED, env)
    runs = {"policy": [evaluate(act, env, s) for s in meta["held_out_seeds"]],
            "trot": [evaluate(lambda obs: np.zeros(12, np.float32), env, s) for s in meta["held_out_seeds"]]}
    for name, res in runs.items():
        np.testing.assert_allclose([r for r, _ in res], meta["evaluation"][f"{name}, mujoco"]["return"], atol=1e-9)
    ret = {name: np.mean([r for r, _ in res]) for name, res in runs.items()}
    past = {name: sum(i["past"] for _, i in res) for name, res in runs.items()}
    assert ret["policy"] > ret["trot"] and past["policy"] > past["trot"]
