"""Run the rbdl_edu rows of the lab's committed results again, in place: the CMA-ES gait's
held-out starts (``models/mouse/plank_gait.json``, made by ``tools/search_gait.py``) and the
PPO policy's and the trot's first three held-out starts (``models/mouse/ppo_plank.json``, made
by ``tools/train_ppo.py``). MuJoCo's rows, the search and the training are left as they are.

For when rbdl_edu's physics changes and MuJoCo's does not (here: the capsule-box collider made
MuJoCo 4.0's, issue 24): the searches and the training ran on MuJoCo and need not run again,
but what rbdl_edu does with their results must be measured again. Each file gets a note.

Run: ``python tools/reevaluate_lab.py`` (a few minutes of rbdl_edu).
"""
from __future__ import annotations

import json
import os
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from rbdl_edu.lab import MODEL_DIR  # noqa: E402
from rbdl_edu.lab.ppo import MouseEnv, evaluate, load_policy  # noqa: E402
from rbdl_edu.lab.search import gait_from_z, obstacle_trial  # noqa: E402


def main(note):
    path = MODEL_DIR / "plank_gait.json"
    run = json.loads(path.read_text())
    gait = gait_from_z(run["z"])
    run["held_out"]["best gait, rbdl_edu"] = [obstacle_trial(gait, s, engine="rbdl_edu").outcome
                                              for s in run["held_out_seeds"]]
    run["rbdl_edu_rows"] = note
    print("best gait, rbdl_edu:", run["held_out"]["best gait, rbdl_edu"], flush=True)
    path.write_text(json.dumps(run, indent=1) + "\n")

    path = MODEL_DIR / "ppo_plank.json"
    run = json.loads(path.read_text())
    env = MouseEnv(engine="rbdl_edu", obstacle="plank", action="residual", episode_seconds=4.0)
    act = load_policy(MODEL_DIR / "ppo_plank.npz", env)
    zero = np.zeros(env.action_space.shape, np.float32)
    seeds = run["held_out_seeds"][:len(run["evaluation"]["policy, rbdl_edu"]["return"])]
    for name, f in (("policy", act), ("trot", lambda obs: zero)):
        res = [evaluate(f, env, s) for s in seeds]
        run["evaluation"][f"{name}, rbdl_edu"] = {"return": [r for r, _ in res], "past": [i["past"] for _, i in res]}
        print(f"{name}, rbdl_edu:", run["evaluation"][f"{name}, rbdl_edu"], flush=True)
    run["rbdl_edu_rows"] = note
    path.write_text(json.dumps(run, indent=1) + "\n")


if __name__ == "__main__":
    main(" ".join(sys.argv[1:]) or "rbdl_edu rows measured again by tools/reevaluate_lab.py")
