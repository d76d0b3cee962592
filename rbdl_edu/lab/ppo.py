r"""PPO for the mouse with skrl's JAX backend (book, chapter 11; issue 23).

**Why skrl with JAX.** skrl is the library Isaac Lab trains with; its JAX backend needs
gymnasium, JAX, flax and optax, and no torch (Stable-Baselines3 and SBX would bring it in).

**The problem.** :class:`~rbdl_edu.lab.env.MouseEnv` on MuJoCo (``engine="mujoco"``: a few
hundred times faster than rbdl_edu; the policy is evaluated on both), before the 20 mm plank
(``obstacle="plank"``), with

* observations: the mouse's sensors (32 numbers), standardised by a running mean and
  variance (skrl's ``RunningStandardScaler``);
* actions: **residuals on the trot's targets** (``action="residual"``): twelve corrections of
  at most ``residual_scale`` radians added to the trot's joint targets every simulation step.
  Of the seed's three choices (gait parameters, joint targets, residuals) this is the one that
  starts from a walking mouse: the zero action is the trot, so the first random policy already
  walks, and learning only has to find the corrections that get the hind legs over;
* reward: the torso's progress along :math:`x` in each 0.1 s step.

**Networks.** Two small MLPs (``tanh``, 64 units, two layers): the policy outputs the mean of
a Gaussian (squashed into :math:`[-1, 1]`) and a learned log standard deviation per action;
the value network one number.

:func:`train` runs PPO for ``timesteps`` environment steps on ``n_envs`` mice, seeded, and
returns the agent and what it learned (the mean return of each rollout, the losses);
:func:`save_policy` writes the policy's parameters with the sizes they are for, and
:func:`load_policy` refuses a file for another observation or action size. :func:`evaluate`
runs a policy's mean action on an environment.
"""
from __future__ import annotations

import json
from pathlib import Path

import flax
import flax.linen as nn
import flax.traverse_util
import gymnasium
import jax
import jax.numpy as jnp
import numpy as np
from skrl import config
from skrl.agents.jax.ppo import PPO, PPO_CFG
from skrl.envs.wrappers.jax import wrap_env
from skrl.memories.jax import RandomMemory
from skrl.models.jax import DeterministicMixin, GaussianMixin, Model
from skrl.resources.preprocessors.jax import RunningStandardScaler
from skrl.trainers.jax import SequentialTrainer
from skrl.utils import set_seed

from rbdl_edu.lab.env import MouseEnv

config.jax.backend = "numpy"                       # the environments hand numpy arrays
config.jax.device = jax.devices()[0]               # JAX's default (skrl would try "cuda:0" first, and warn)


class Policy(GaussianMixin, Model):
    """Observations -> the mean of a Gaussian over the actions (in [-1, 1]), and its log std."""

    def __init__(self, observation_space, action_space, device=None, **kwargs):
        Model.__init__(self, observation_space=observation_space, action_space=action_space, device=device,
                       **kwargs)
        GaussianMixin.__init__(self, clip_actions=True, clip_log_std=True, min_log_std=-5.0, max_log_std=0.5)

    @nn.compact
    def __call__(self, inputs, role):
        x = nn.tanh(nn.Dense(64)(inputs["observations"]))
        x = nn.tanh(nn.Dense(64)(x))
        mean = nn.tanh(nn.Dense(self.num_actions, kernel_init=nn.initializers.zeros)(x))   # starts at the trot
        log_std = self.param("log_std", lambda _: jnp.full(self.num_actions, -1.0))
        return mean, {"log_std": log_std}


class Value(DeterministicMixin, Model):
    """Observations -> the value of the state (expected return from it)."""

    def __init__(self, observation_space, action_space, device=None, **kwargs):
        Model.__init__(self, observation_space=observation_space, action_space=action_space, device=device,
                       **kwargs)
        DeterministicMixin.__init__(self)

    @nn.compact
    def __call__(self, inputs, role):
        x = nn.tanh(nn.Dense(64)(inputs["observations"]))
        x = nn.tanh(nn.Dense(64)(x))
        return nn.Dense(1)(x), {}


class _PPO(PPO):
    """skrl's PPO, also keeping every tracked number (losses, rewards) for the caller."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.history = {}

    def track_data(self, tag, value):
        super().track_data(tag, value)
        self.history.setdefault(tag, []).append(float(value))


def make_envs(n_envs=2, engine="mujoco", obstacle="plank", episode_seconds=4.0, vectorization="sync", **kwargs):
    """``n_envs`` mice with residual actions, as one gymnasium vector environment."""
    return gymnasium.make_vec("rbdl_edu/Mouse-v0", num_envs=n_envs, vectorization_mode=vectorization,
                              engine=engine, obstacle=obstacle, episode_seconds=episode_seconds, action="residual",
                              **kwargs)


def train(timesteps=2000, seed=0, n_envs=2, rollouts=64, directory=None, **env_kwargs):
    """PPO for ``timesteps`` steps of every environment (seeded: ``seed``); returns
    ``(agent, history)``, ``history``: tag -> the values skrl tracked (``"Loss / Policy loss"``,
    ``"Loss / Value loss"``, ...) and ``"episode return"``: the return of every episode that
    ended, in order (the learning curve)."""
    set_seed(seed)
    vec = gymnasium.wrappers.vector.RecordEpisodeStatistics(make_envs(n_envs, **env_kwargs), buffer_length=10**6)
    env = wrap_env(vec, wrapper="gymnasium", verbose=False)
    env._reset_once = True
    memory = RandomMemory(memory_size=rollouts, num_envs=env.num_envs)
    models = {"policy": Policy(env.observation_space, env.action_space),
              "value": Value(env.observation_space, env.action_space)}
    for model in models.values():
        model.init_state_dict(role=next(k for k, v in models.items() if v is model))
    cfg = PPO_CFG(rollouts=rollouts, learning_epochs=4, mini_batches=2, discount_factor=0.98, learning_rate=3e-4,
                  observation_preprocessor=RunningStandardScaler,
                  observation_preprocessor_kwargs={"size": env.observation_space},
                  entropy_loss_scale=0.0, value_loss_scale=1.0)
    cfg.experiment.directory = str(directory) if directory else ""
    cfg.experiment.write_interval = 0
    cfg.experiment.checkpoint_interval = 0
    agent = _PPO(models=models, memory=memory, observation_space=env.observation_space,
                 action_space=env.action_space, cfg=cfg)
    trainer = SequentialTrainer(env=env, agents=agent, cfg={"timesteps": timesteps, "headless": True,
                                                            "disable_progressbar": True,
                                                            "close_environment_at_exit": False})
    trainer.train()
    vec.close()
    agent.history["episode return"] = [float(r) for r in vec.return_queue]
    return agent, agent.history


def mean_action(agent, obs):
    """The policy's mean action (no exploration) for observations ``obs`` ``(n, nobs)``."""
    obs = np.atleast_2d(np.asarray(obs, dtype=np.float32))
    x = agent._observation_preprocessor(obs)
    _, out = agent.policy.act({"observations": x}, role="policy")
    return np.asarray(out["mean_actions"])


def save_policy(agent, path, observation_size, action_size, **meta):
    """The policy's parameters and its observation scaler (an ``.npz`` file of arrays, named by
    their place in the network: no pickle), and beside it a ``.json`` file with the sizes they
    are for and ``meta``."""
    path = Path(path)
    have = (agent.policy.num_observations, agent.policy.num_actions)
    if (int(observation_size), int(action_size)) != have:
        raise ValueError(f"the policy is for {have[0]} observations and {have[1]} actions, not "
                         f"{observation_size} and {action_size}")
    scaler = agent.cfg.observation_preprocessor and agent._observation_preprocessor.state_dict.params
    params = flax.traverse_util.flatten_dict(flax.serialization.to_state_dict(agent.policy.state_dict.params),
                                             sep="/")
    arrays = {f"policy/{k}": np.asarray(v) for k, v in params.items()}
    if scaler:
        arrays.update({f"scaler/{k}": np.asarray(scaler[k]) for k in ("running_mean", "running_variance")})
    with open(path, "wb") as f:
        np.savez(f, **arrays)
    path.with_suffix(".json").write_text(json.dumps(
        {"observation_size": int(observation_size), "action_size": int(action_size), **meta}, indent=1) + "\n")


def load_policy(path, env):
    """A function ``obs -> action`` from a :func:`save_policy` file, for ``env`` (a
    :class:`MouseEnv`); ``ValueError`` if the file is for another observation or action size,
    or its arrays do not fit the network its ``.json`` describes."""
    path = Path(path)
    meta = json.loads(path.with_suffix(".json").read_text())
    n_obs, n_act = env.observation_space.shape[0], env.action_space.shape[0]
    if (meta["observation_size"], meta["action_size"]) != (n_obs, n_act):
        raise ValueError(f"policy {path.name} is for {meta['observation_size']} observations and "
                         f"{meta['action_size']} actions; this environment has {n_obs} observations and "
                         f"{n_act} actions ({env.action_kind!r})")
    with np.load(path, allow_pickle=False) as f:
        arrays = dict(f)
    space = gymnasium.spaces.Box(-np.inf, np.inf, (n_obs,))
    policy = Policy(space, env.action_space)
    policy.init_state_dict(role="policy")
    flat = {k[len("policy/"):]: v for k, v in arrays.items() if k.startswith("policy/")}
    want = flax.traverse_util.flatten_dict(flax.serialization.to_state_dict(policy.state_dict.params),
                                           sep="/")
    wrong = [f"{k}: {flat[k].shape if k in flat else 'missing'}, expected {tuple(v.shape)}"
             for k, v in want.items() if k not in flat or flat[k].shape != tuple(v.shape)]
    if wrong:
        raise ValueError(f"policy {path.name} does not fit the network of its .json ({n_obs} observations, "
                         f"{n_act} actions): " + "; ".join(wrong))
    params = flax.serialization.from_state_dict(policy.state_dict.params,
                                                flax.traverse_util.unflatten_dict(flat, sep="/"))
    scaler = {k[len("scaler/"):]: v for k, v in arrays.items() if k.startswith("scaler/")} or None
    apply = jax.jit(policy.apply, static_argnums=2)        # one compilation, then microseconds a call

    def act(obs):
        x = np.asarray(obs, dtype=np.float32)[None]
        if scaler is not None:
            mean, var = scaler["running_mean"], scaler["running_variance"]
            x = np.clip((x - mean) / (np.sqrt(var) + 1e-8), -5, 5)
        mean_action, _ = apply(params, {"observations": jnp.asarray(x, jnp.float32)}, "policy")
        return np.clip(np.asarray(mean_action[0]), -1, 1)
    return act


def evaluate(act, env, seed):
    """Run ``act`` (obs -> action) for one episode of ``env`` from ``seed``: its return, and the
    last ``info``."""
    obs, info = env.reset(seed=seed)
    total = 0.0
    while True:
        obs, reward, terminated, truncated, info = env.step(act(obs).astype(np.float32))
        total += reward
        if terminated or truncated:
            return total, info


__all__ = ["Policy", "Value", "make_envs", "train", "mean_action", "save_policy", "load_policy", "evaluate",
           "MouseEnv"]
