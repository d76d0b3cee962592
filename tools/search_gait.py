"""The gait that gets the mouse over the 20 mm plank: CMA-ES over the trot's parameters
(:mod:`rbdl_edu.lab.search`), run once on MuJoCo; the result is committed as
``models/mouse/plank_gait.json`` with the machine that made it (issue 23).

1. The search: from the lab's trot, 25 generations of 12 gaits, each scored on the ten starts
   0..9 before the plank (``search_gait``); its convergence goes into the file.
2. The check, on starts it never saw (100..109): the best gait and the lab's trot on MuJoCo,
   and the best gait on rbdl_edu (the same outcomes: the engines agree to round-off).

Run: ``python tools/search_gait.py`` (about two minutes of search, then a minute and a half of
rbdl_edu), ``--out PATH`` elsewhere, ``--ray`` to score each generation in Ray tasks
(``ray.init()`` here; on a cluster, ``ray start --head`` first and ``--address auto``).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time
from dataclasses import asdict
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from rbdl_edu.lab import MODEL_DIR  # noqa: E402
from rbdl_edu.lab.mouse import Gait  # noqa: E402
from rbdl_edu.lab.search import TROT_SEARCH, obstacle_trial, search_gait  # noqa: E402

TRAIN, HELD_OUT = list(range(10)), list(range(100, 110))
SETTINGS = dict(generations=25, popsize=12, sigma0=0.3, seed=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(MODEL_DIR / "plank_gait.json"))
    parser.add_argument("--ray", action="store_true", help="score the populations in Ray tasks")
    parser.add_argument("--address", default=None, help="a Ray cluster's address ('auto' after ray start)")
    args = parser.parse_args()
    pool_map = map
    if args.ray:
        from rbdl_edu.lab.sweep import ray_map, start_ray
        start_ray(args.address)
        pool_map = ray_map
    start, cpu = time.perf_counter(), time.process_time()
    result = search_gait(seeds=TRAIN, obstacle="plank", engine="mujoco", map=pool_map, verbose=True, **SETTINGS)
    wall = time.perf_counter() - start
    print(f"search: {wall:.0f} s wall, {time.process_time() - cpu:.0f} s CPU (this process)")
    outcomes = {"best gait, mujoco": [obstacle_trial(result.gait, s).outcome for s in HELD_OUT],
                "lab trot, mujoco": [obstacle_trial(Gait(), s).outcome for s in HELD_OUT]}
    print({k: v.count("through") for k, v in outcomes.items()}, flush=True)
    outcomes["best gait, rbdl_edu"] = [obstacle_trial(result.gait, s, engine="rbdl_edu").outcome for s in HELD_OUT]
    for k, v in outcomes.items():
        print(f"{k:22s} through from {v.count('through')} of {len(v)} held-out starts: {v}")
    record = {
        "what": "CMA-ES over the trot's parameters (rbdl_edu.lab.search) for the 20 mm plank; made by tools/search_gait.py",
        "obstacle": "plank", "engine": "mujoco", "train_seeds": TRAIN, "held_out_seeds": HELD_OUT,
        "cma": SETTINGS, "parameters": [p for p, _, _ in TROT_SEARCH],
        "z": [round(float(x), 15) for x in result.z], "score": result.score,
        "gait": asdict(result.gait),
        "history": {"columns": ["evaluations", "best score", "median score"], "rows": result.history.tolist()},
        "held_out": outcomes,
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
                   f"Python {platform.python_version()}", "search_wall_seconds": round(wall, 1),
    }
    Path(args.out).write_text(json.dumps(record, indent=1) + "\n")
    print("written", args.out)


if __name__ == "__main__":
    main()
