"""The lab trot before each obstacle, on both of the lab's engines; the result is committed as
``models/mouse/obstacle_trials.json`` with the machine that made it (book, chapter 11).

Chapter 11 runs its six obstacle trials on MuJoCo (``engine="mujoco"``) and re-runs on rbdl_edu,
live, the ones whose colliders are closed forms (plank, bar, ramp), where the two engines agree
to round-off. The curved humps and the height field cost rbdl_edu a minute or more each
(GJK in Python); their rbdl_edu runs are made here, once, and the chapter prints them beside
MuJoCo's.

Each trial is :func:`rbdl_edu.lab.search.obstacle_trial` with the lab's trot from the
chapter's start: the torso 6 cm before the obstacle's near edge, no spread, no joint noise.

Run: ``python tools/obstacle_trials.py`` (about two minutes), ``--out PATH`` elsewhere.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from rbdl_edu.lab import MODEL_DIR, OBSTACLES  # noqa: E402
from rbdl_edu.lab.mouse import Gait  # noqa: E402
from rbdl_edu.lab.search import obstacle_trial  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(MODEL_DIR / "obstacle_trials.json"))
    args = parser.parse_args()
    trials = {}
    for name, o in OBSTACLES.items():
        row = {"scene": o.scene}
        for engine in ("mujoco", "rbdl_edu"):
            cpu = time.process_time()
            t = obstacle_trial(Gait(), 0, name, engine, spread=0.0, noise=0.0)
            row[engine] = {"outcome": t.outcome, "seconds": round(t.seconds, 6), "progress": t.progress,
                           "cpu_seconds": round(time.process_time() - cpu, 2)}
        print(f"{name:<6} {o.scene:<11}", "  ".join(f"{e}: {r['outcome']:<8} {r['seconds']:.1f} s {r['progress']:.6f} m "
                                                  f"({r['cpu_seconds']:.1f} s CPU)"
                                                  for e, r in row.items() if e != "scene"), flush=True)
        trials[name] = row
    record = {
        "what": "the lab trot before each obstacle (rbdl_edu.lab.search.obstacle_trial, start seed 0, "
                "spread 0, noise 0) on both engines; made by tools/obstacle_trials.py",
        "trials": trials,
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
                   f"Python {platform.python_version()}",
    }
    Path(args.out).write_text(json.dumps(record, indent=1) + "\n")
    print("written", args.out)


if __name__ == "__main__":
    main()
