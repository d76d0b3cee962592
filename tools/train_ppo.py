"""PPO on the mouse before the 20 mm plank (``rbdl_edu.lab.ppo``, skrl with JAX), run once on
MuJoCo; the policy and its learning curve are committed as ``models/mouse/ppo_plank.npz`` and
``models/mouse/ppo_plank.json``, with the machine that made them (issue 23).

Then the policy's mean action against the scripted trot (zero residual) from the held-out
starts 100..109 on MuJoCo, and from the first three on rbdl_edu (sim-to-sim).

Run: ``python tools/train_ppo.py`` (a few minutes), ``--timesteps N`` (steps of each of the
``--envs`` mice).
"""
from __future__ import annotations

import argparse
import os
import platform
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from rbdl_edu.lab import MODEL_DIR  # noqa: E402
from rbdl_edu.lab.ppo import MouseEnv, evaluate, load_policy, save_policy, train  # noqa: E402

HELD_OUT = list(range(100, 110))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=5000)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(MODEL_DIR / "ppo_plank.npz"))
    args = parser.parse_args()
    start = time.perf_counter()
    agent, history = train(timesteps=args.timesteps, seed=args.seed, n_envs=args.envs, rollouts=64)
    wall = time.perf_counter() - start
    curve = history["episode return"]
    print(f"trained {args.timesteps} x {args.envs} env steps in {wall:.0f} s; {len(curve)} episodes, "
          f"first 20 mean return {np.mean(curve[:20]):.3f} m, last 20 {np.mean(curve[-20:]):.3f} m", flush=True)
    env = MouseEnv(engine="mujoco", obstacle="plank", action="residual", episode_seconds=4.0)
    zero = np.zeros(env.action_space.shape, np.float32)
    meta = {"what": "PPO (skrl, JAX) on MouseEnv(engine='mujoco', obstacle='plank', action='residual', "
                    "episode_seconds=4); made by tools/train_ppo.py",
            "timesteps": args.timesteps, "envs": args.envs, "seed": args.seed, "train_wall_seconds": round(wall, 1),
            "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
                       f"Python {platform.python_version()}",
            "curve": {"episode return": curve,
                      "policy loss": history.get("Loss / Policy loss", []),
                      "value loss": history.get("Loss / Value loss", [])}}
    save_policy(agent, args.out, env.observation_space.shape[0], env.action_space.shape[0], **meta)
    act = load_policy(args.out, env)
    rows = {}
    for engine, seeds in (("mujoco", HELD_OUT), ("rbdl_edu", HELD_OUT[:3])):
        env = MouseEnv(engine=engine, obstacle="plank", action="residual", episode_seconds=4.0)
        for name, f in (("policy", act), ("trot", lambda obs: zero)):
            res = [evaluate(f, env, s) for s in seeds]
            rows[f"{name}, {engine}"] = {"return": [r for r, _ in res], "past": [i["past"] for _, i in res]}
            print(f"{name:7s} {engine:9s} mean return {np.mean([r for r, _ in res]):.3f} m, "
                  f"past the plank {sum(i['past'] for _, i in res)} of {len(seeds)}", flush=True)
    meta["held_out_seeds"], meta["evaluation"] = HELD_OUT, rows
    save_policy(agent, args.out, env.observation_space.shape[0], env.action_space.shape[0], **meta)
    print("written", args.out)


if __name__ == "__main__":
    main()
