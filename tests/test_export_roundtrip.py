"""``to_mjcf`` writes the whole model: every MJCF we load (``models/``, the mouse scenes,
gymnasium's assets, and hand-written models with tendons, equalities, actuators and sensors),
read by us and written back, loads in MuJoCo as the same ``MjModel`` as the original file, field
by field, and steps the same for 100 steps."""
from __future__ import annotations

from pathlib import Path

import mujoco
import numpy as np
import pytest
from test_mjcf import GYM, MODELS

import rbdl_edu as rbd
from rbdl_edu.io.export import to_mjcf

ROOT = Path(__file__).resolve().parents[1]
MOUSE = sorted((ROOT / "models" / "mouse").glob("*.xml"))

PREFIXES = ("body_", "jnt_", "dof_", "geom_", "site_", "actuator_", "tendon_", "wrap_", "eq_", "sensor_",
            "pair_", "exclude_", "key_", "hfield_", "mesh_vert", "mesh_face", "qpos0", "qpos_spring")
# not physics: names' addresses, drawing, plugin and user slots, bounding-volume bookkeeping
SKIP = {"body_bvhadr", "body_bvhnum", "geom_matid", "site_matid", "tendon_matid", "geom_rgba", "site_rgba",
        "tendon_rgba", "tendon_width", "geom_plugin", "body_plugin", "actuator_plugin", "sensor_plugin",
        "hfield_pathadr", "mesh_pathadr", "actuator_history", "actuator_historyadr", "sensor_history",
        "sensor_historyadr",
        # which shortcut (position, velocity, ...) made an actuator: our loader keeps the
        # compiled gain and bias it implies, and stepping shows the same motion without it
        "actuator_ctrlspec"}


def physics_fields(m):
    names = [n for n in dir(m) if n.startswith(PREFIXES) and n not in SKIP and "user" not in n]
    return {n: np.asarray(getattr(m, n)) for n in names if isinstance(getattr(m, n), np.ndarray)}


def assert_same_model(m1, m2, what):
    bad = []
    for n, a in physics_fields(m1).items():
        b = np.asarray(getattr(m2, n))
        if a.shape != b.shape or not np.allclose(a, b, rtol=1e-9, atol=1e-12):
            bad.append(n)
    for n in dir(m1.opt):
        a = getattr(m1.opt, n)
        if not n.startswith("_") and isinstance(a, (int, float, np.ndarray)) and \
                not np.allclose(a, getattr(m2.opt, n), rtol=1e-12, atol=0):
            bad.append("opt." + n)
    assert not bad, f"{what}: to_mjcf changed {bad}"


def roundtrip(m0, model, what, steps=100):
    """Fields equal to round-off, then the same 100 steps. Our compiler's inertias differ
    from MuJoCo's in the last bits, and a contact that starts exactly at distance 0 (gymnasium's
    point.xml) turns that into 1e-4 in qpos; so the stepping check runs with the compared
    floats (and the statistics derived from them) copied over: whatever still differs comes
    from something to_mjcf left out that the field comparison does not see."""
    m1 = mujoco.MjModel.from_xml_string(to_mjcf(model))
    assert_same_model(m0, m1, what)
    for n, a in physics_fields(m0).items():
        if a.dtype.kind == "f":
            getattr(m1, n)[...] = a
    m1.stat.meaninertia = m0.stat.meaninertia
    d0, d1 = mujoco.MjData(m0), mujoco.MjData(m1)
    for d in (d0, d1):
        d.ctrl[:] = 0.3
    for _ in range(steps):
        mujoco.mj_step(m0, d0)
        mujoco.mj_step(m1, d1)
    np.testing.assert_allclose(d1.qpos, d0.qpos, rtol=1e-12, atol=1e-12, err_msg=what)


@pytest.mark.parametrize("path", [p for p in MODELS if p.suffix == ".xml"] + MOUSE + GYM,
                         ids=lambda p: p.name)
def test_file_roundtrip(path):
    roundtrip(mujoco.MjModel.from_xml_path(str(path)), rbd.load_model(path), path.name)
