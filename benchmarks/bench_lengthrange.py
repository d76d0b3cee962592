"""What finding the muscles' length ranges at load costs (MuJoCo's ``mj_setLengthRange``,
:mod:`rbdl_edu.simulation.lengthrange`), beside MuJoCo 4.0's compiler.

The arm of ``tests/test_lengthrange.py`` (like MuJoCo's ``arm26``: eight simulated muscles)
is loaded with the ``<compiler><lengthrange>`` defaults (1000 steps each way per muscle) and
with the tests' short simulation; printed: CPU seconds of the whole load, per simulated
step, and MuJoCo's for the same file, and the largest difference of the ranges. Nothing is
asserted: it is a report.

Run: ``python benchmarks/bench_lengthrange.py`` (about a CPU-minute), ``--quick`` (the short
simulation only).
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import mujoco  # noqa: E402
import numpy as np  # noqa: E402

import rbdl_edu as rbd  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from test_lengthrange import ARM  # noqa: E402


def cpu(f):
    t = time.process_time()
    out = f()
    return out, time.process_time() - t


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the short simulation only")
    args = parser.parse_args()
    short = re.search(r"<lengthrange [^>]*/>", ARM).group(0)
    rows = [("tests' short simulation", ARM)]
    if not args.quick:
        rows.append(("defaults (10 s at 0.01 s)", ARM.replace(short, "<lengthrange/>")))
    print(f"{'options':28s} {'rbdl_edu s':>11s} {'ms/step':>8s} {'MuJoCo s':>9s} {'max |diff|':>11s}")
    for label, xml in rows:
        m, t_mj = cpu(lambda: mujoco.MjModel.from_xml_string(xml))
        model, t_ours = cpu(lambda: rbd.load_model(xml))
        none, t_none = cpu(lambda: rbd.load_model(re.sub(r"<lengthrange[^>]*/>", '<lengthrange mode="none"/>', xml)))
        opts = re.search(r"<lengthrange([^>]*)/>", xml).group(1)
        step = float(re.search(r'timestep="([^"]+)"', opts).group(1)) if "timestep" in opts else 0.01
        total = float(re.search(r'inttotal="([^"]+)"', opts).group(1)) if "inttotal" in opts else 10.0
        nstep = 8 * 2 * int(np.ceil(total / step - 1e-9))
        diff = np.abs(model.actuator_lengthrange - m.actuator_lengthrange).max()
        print(f"{label:28s} {t_ours:11.2f} {1e3 * (t_ours - t_none) / nstep:8.2f} {t_mj:9.3f} {diff:11.1e}")


if __name__ == "__main__":
    main()
