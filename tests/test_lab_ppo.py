"""PPO from skrl (JAX backend) on the mouse (issue 23): a short seeded training end to end
(finite losses, the same numbers again from the same seed, the policy written and read back),
a policy file for another environment refused, and the committed policy
(``models/mouse/ppo_plank.npz``, made by ``tools/train_ppo.py``) against the scripted trot.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from rbdl_edu.lab import MODEL_DIR
from rbdl_edu.lab.ppo import MouseEnv, evaluate, load_policy, mean_action, save_policy, train

COMMITTED = MODEL_DIR / "ppo_plank.npz"


@pytest.fixture(scope="module")
def short_training():
    # 2 mice x 64 steps of 0.1 s, two PPO updates of 32-step rollouts (most of the time: JIT)
    return train(timesteps=64, seed=0, n_envs=2, rollouts=32)


def test_short_training_is_finite_and_seeded(short_training):
    agent, history = short_training
    for tag in ("Loss / Policy loss", "Loss / Value loss"):
        assert len(history[tag]) == 64 // 32 and np.all(np.isfinite(history[tag])), tag   # one per update
    assert len(history["episode return"]) >= 2 and np.all(np.isfinite(history["episode return"]))   # falls end some early
    again, history2 = train(timesteps=64, seed=0, n_envs=2, rollouts=32)
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
