"""The typed model: every field has the shape its docstring gives, on every MJCF file in
``models/`` and every MJCF file of the ``gymnasium`` wheel (and on URDF and built models),
and the package imports the way a reader expects."""
from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rbdl_edu as rbd
from test_mjcf import GYM, MODELS

ROOT = Path(__file__).resolve().parents[1]


def documented_shapes():
    """``{field: shape text}`` read from the table at the end of ``Model``'s docstring."""
    rows = re.findall(r"^\s+(\w+)\s+\(([^)]*)\)\s", rbd.Model.__doc__, flags=re.M)
    return {name: shape for name, shape in rows}


def expected_shape(model, text):
    """``"nbody, 3"`` -> ``(model.nbody, 3)``; ``"nkey, 3*nmocap"`` -> ``(nkey, 3 * nmocap)``."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        if part.isdigit():
            out.append(int(part))
        else:
            k, _, n = part.rpartition("*")
            out.append((int(k) if k else 1) * getattr(model, n))
    return tuple(out)


def test_docstring_lists_every_array_field():
    shapes = documented_shapes()
    arrays = [f.name for f in dataclasses.fields(rbd.Model) if "shape" in f.metadata]
    assert len(arrays) > 150
    assert sorted(shapes) == sorted(arrays)


def _models():
    yield from ((p.name, rbd.load_model(p)) for p in MODELS + GYM)
    yield "arm2.urdf", rbd.load_model(ROOT / "models" / "arm2.urdf")
    yield "auto_tree", rbd.models.auto_tree(12, joint_types=("hinge", "slide", "ball", "free"))
    yield "symbolic", rbd.models.double_pendulum(symbolic=True)


@pytest.mark.parametrize("name,model", list(_models()), ids=lambda x: x if isinstance(x, str) else "")
def test_every_field_has_its_documented_shape(name, model):
    for field, text in documented_shapes().items():
        value = getattr(model, field)
        assert np.shape(value) == expected_shape(model, text), (name, field, np.shape(value), text)
        if field.endswith("_names"):
            assert all(isinstance(n, str) for n in value), field


def test_a_wrong_shape_is_refused():
    with pytest.raises(ValueError, match=r"body_mass has shape \(3,\); expected \(2,\)"):
        rbd.Model(nbody=2, body_mass=np.zeros(3))


def test_every_submodule_imports_after_the_package():
    """``import rbdl_edu`` first, then every module by its dotted name (the collision
    package's function once shadowed its modules); in a fresh interpreter."""
    names = [m.name for m in pkgutil.walk_packages(rbd.__path__, "rbdl_edu.")]
    assert "rbdl_edu.collision.box" in names and "rbdl_edu.io.mjcf" in names
    code = "import rbdl_edu\n" + "\n".join(f"import {n} as x" for n in names)
    subprocess.run([sys.executable, "-c", code], check=True)
    assert callable(rbd.collision.collide) and callable(rbd.collision.detect)
    assert importlib.import_module("rbdl_edu.collision.box").__name__ == "rbdl_edu.collision.box"


@pytest.mark.parametrize("module", ["rnea", "crba", "aba"])
def test_algorithms_read_in_native_notation(module):
    """The algorithms are written with ``@``, ``.mT`` and ``matvec`` (issue 8): no
    ``swapaxes``, no ``mv(``/``mm(`` helpers, no ``like`` tuples; and they import only the
    plumbing, the joints and spatial algebra."""
    text = (ROOT / "rbdl_edu" / f"{module}.py").read_text()
    for pattern in (r"swapaxes", r"\bmv\(", r"\bmm\(", r"\blike\b"):
        assert not re.search(pattern, text), pattern
    imports = set(re.findall(r"^from \.(\w+) import", text, flags=re.M))
    assert imports <= {"tree", "joints", "spatial", "scalar"}, imports
