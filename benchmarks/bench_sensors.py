"""CPU ms per call of the three sensor stages (``sensor_pos``, ``sensor_vel``, ``sensor_acc``)
on the lab's mouse mid-trot (21 sensors: joint positions, four touch sensors, an
accelerometer, a gyro, frame position, orientation and linear velocity), best of several
runs (short ones, so that one quiet moment of a shared machine is enough), each stage apart
and all three together. Run from the repository root:
``python benchmarks/bench_sensors.py [--scene flat ellipsoids] [-n 2000]``.
"""
from __future__ import annotations

import argparse
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


import rbdl_edu as rbd  # noqa: E402
from rbdl_edu.lab import Gait, TrotController, scene_path  # noqa: E402
from rbdl_edu.simulation.sensors import sensor_acc, sensor_pos, sensor_vel  # noqa: E402
from bench_speed import best_ms  # noqa: E402


def mouse(scene, x0, warm=60):
    """The lab's mouse trotting on ``scene`` from ``x0`` for ``warm`` steps, then ``forward``."""
    model = rbd.load_model(str(scene_path(scene)))
    data = rbd.Data(model)
    rbd.reset(model, data, "stand")
    data.qpos[0] = x0
    trot = TrotController(model, Gait())
    for _ in range(warm):
        trot(data)
        rbd.step(model, data)
    rbd.forward(model, data)
    return model, data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scene", nargs="*", default=["flat", "ellipsoids"])
    parser.add_argument("-n", type=int, default=100, help="calls per timing (best of 50)")
    args = parser.parse_args()
    print(f"{'scene':11s} {'ncon':>4s} {'pos ms':>7s} {'vel ms':>7s} {'acc ms':>7s} {'all ms':>7s}")
    for scene in args.scene:
        model, data = mouse(scene, 0.0 if scene == "flat" else 0.29)
        stages = [lambda f=f: f(model, data) for f in (sensor_pos, sensor_vel, sensor_acc)]

        def every():
            for f in stages:
                f()
        times = [best_ms(f, args.n, repeats=50) for f in (*stages, every)]
        print(f"{scene:11s} {len(data.contact):4d} " + " ".join(f"{t:7.3f}" for t in times), flush=True)


if __name__ == "__main__":
    main()
