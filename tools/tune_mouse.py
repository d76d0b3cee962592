"""How the mouse's trot was tuned, and how it does in every scene (issue 11), in MuJoCo 4.0.

The gait was tuned with MuJoCo as the reference
simulator, through the lab's engine interface (``rbdl_edu.lab.mujoco_engine``), with the same
controller the book will run on rbdl_edu.

1. **Gaits on flat ground**: frequency x swing fraction, each from four starts (the keyframe
   ``stand`` with small random joint velocities): distance along x in 10 s, the largest
   sideways drift, the lowest "up" (body z axis . world z; below 0 the mouse fell over).
   The lab's default (1.5 Hz, 40 % swing) is the fastest gait here that walks straight
   (drift under 0.1 m) from every start; at 2.5 Hz the legs lag their targets and the mouse
   veers or falls.
2. **Scenes**: the default trot for 10 s in every scene: x after each second (the mouse is
   stuck where x stops growing), final sideways position, lowest "up".

Run: ``python tools/tune_mouse.py`` (about a minute), ``--scenes`` or ``--gaits`` for one part.
"""
from __future__ import annotations

import argparse

import numpy as np

from rbdl_edu.lab import SCENES, Gait, SensorLog, TrotController, run, scene_path
from rbdl_edu.lab.mujoco_engine import MUJOCO


def walk(scene, gait, seconds=10.0, seed=0):
    """The trot from the keyframe (plus joint velocities of 0.05 rad/s for ``seed > 0``): its log."""
    model = MUJOCO.load_model(scene_path(scene))
    data = MUJOCO.Data(model)
    MUJOCO.reset(model, data, "stand")
    if seed:
        data.qvel[6:] = np.random.default_rng(seed).normal(scale=0.05, size=model.nv - 6)
    log = SensorLog(model, ["com_pos", "com_quat"])
    run(MUJOCO, model, data, TrotController(model, gait), seconds, log)
    return log


def summary(log):
    pos, q = log["com_pos"], log["com_quat"]
    up = 1 - 2 * (q[:, 1] ** 2 + q[:, 2] ** 2)
    return pos[-1, 0] - pos[0, 0], np.abs(pos[:, 1] - pos[0, 1]).max(), up.min()


def gaits():
    print("gait on flat ground      x in 10 s (4 starts)        max |y|  min up")
    for freq in (1.0, 1.5, 2.0, 2.5):
        for swing in (0.35, 0.4, 0.5):
            rows = [summary(walk("flat", Gait(freq=freq, swing=swing), seed=s)) for s in range(4)]
            x, y, up = np.array(rows).T
            print(f"{freq:3.1f} Hz, swing {swing:4.2f}    {np.array2string(x, precision=2):26s} "
                  f"{y.max():7.2f} {up.min():7.2f}", flush=True)


def scenes():
    print("scene        x after each second of the default trot (m)                 y      min up")
    for scene in SCENES:
        log = walk(scene, Gait())
        x = log["com_pos"][199::200, 0]
        _, _, up = summary(log)
        print(f"{scene:11s}  {np.array2string(x, precision=2):58s} {log['com_pos'][-1, 1]:6.2f} {up:7.2f}",
              flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gaits", action="store_true")
    parser.add_argument("--scenes", action="store_true")
    args = parser.parse_args()
    if args.gaits or not args.scenes:
        gaits()
    if args.scenes or not args.gaits:
        scenes()
