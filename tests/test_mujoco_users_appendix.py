"""The appendix *For MuJoCo users* (``book/appendix-mujoco-users.md``) runs: each row of its
table is executed, the ``mujoco`` spelling on MuJoCo 4.0 and the ``rbdl_edu`` spelling here,
in order on one model, and where a row ends in a value the two values agree."""
from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import mujoco
import numpy as np

import rbdl_edu as rbd

PAGE = Path(__file__).resolve().parents[1] / "book" / "appendix-mujoco-users.md"
ARM = """<mujoco><worldbody><body name="arm"><joint name="hinge" axis="0 1 0" damping="0.1"/>
    <geom type="capsule" size="0.05" fromto="0 0 0 0 0 -1" mass="1"/></body></worldbody>
    <actuator><motor name="push" joint="hinge"/></actuator><sensor><jointpos name="angle" joint="hinge"/></sensor>
    <keyframe><key name="home" qpos="0.2"/></keyframe></mujoco>"""


def rows():
    """``(what, mujoco code, rbdl_edu code)`` for each row of the page's table."""
    text = PAGE.read_text()
    table = text[text.index("<!-- rows"):].split("\n\n")[1]
    out = []
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        what, *code = cells
        out.append((what, *(c.strip("`").replace("\\|", "|") for c in code)))
    return out


def run(code, ns):
    """Execute ``code`` in ``ns``; the value of its last statement if that is an expression."""
    tree = ast.parse(code)
    last = tree.body[-1]
    if isinstance(last, ast.Expr):
        exec(compile(ast.Module(tree.body[:-1], []), "<row>", "exec"), ns)
        return eval(compile(ast.Expression(last.value), "<row>", "eval"), ns)
    exec(compile(tree, "<row>", "exec"), ns)
    return None


def test_every_row_of_the_appendix_runs_and_agrees(tmp_path):
    path = tmp_path / "arm.xml"
    path.write_text(ARM)
    theirs = {"mujoco": mujoco, "np": np, "path": str(path)}
    ours = {"rbd": rbd, "np": np, "dataclasses": dataclasses, "path": str(path)}
    table = rows()
    assert len(table) >= 25, "the appendix lost rows"
    for what, their_code, our_code in table:
        a, b = run(their_code, theirs), run(our_code, ours)
        assert (a is None) == (b is None), f"{what}: one spelling gives a value, the other not"
        if a is not None:
            np.testing.assert_allclose(np.asarray(b, float), np.asarray(a, float).reshape(np.shape(b)),
                                       rtol=1e-9, atol=1e-12, err_msg=what)
