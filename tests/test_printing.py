"""The compiled model as text (``rbdl_edu.model.printing``) against MuJoCo's ``mj_printModel``.

The oracle is ``mujoco==4.0.0``; without it the import fails, and so do these tests."""
import re

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.book import model_path
from rbdl_edu.model.printing import model_text, object_text, print_model

#: a model with one object of nearly every kind: tendons, an equality, a pair, an exclude,
#: a keyframe, an actuator, a sensor
SMALL = """<mujoco><worldbody>
  <body name="p"><joint name="a"/><geom name="g1" size=".1"/><site name="s"/></body>
  <body name="q" pos="1 0 0"><joint name="b"/><geom name="g2" size=".1"/><site name="t"/></body></worldbody>
  <tendon><fixed name="f"><joint joint="a" coef="1"/></fixed><spatial><site site="s"/><site site="t"/></spatial></tendon>
  <equality><joint joint1="a" joint2="b"/></equality>
  <contact><pair geom1="g1" geom2="g2"/><exclude body1="p" body2="q"/></contact>
  <keyframe><key qpos="0 0"/></keyframe><actuator><position joint="a" kp="3"/></actuator>
  <sensor><jointpos joint="a"/></sensor></mujoco>"""


ROW = re.compile(r"  ([a-z]+_\w+) +((?:-?[0-9.e+-]+ +)+)")


def blocks(text):
    """``{"BODY 2:": {"body_mass": [0.008], ...}, ...}``: every object's array rows, as numbers
    (not its name, nor the table of a tendon's path that MuJoCo adds)."""
    out = {}
    for block in re.split(r"\n\s*\n", text):
        lines = block.strip("\n").splitlines()
        if lines and re.fullmatch(r"[A-Z]+ \d+:", lines[0]):
            rows = [ROW.fullmatch(ln) for ln in lines[1:]]
            out[lines[0]] = {r.group(1): [float(x) for x in r.group(2).split()] for r in rows if r}
    return out


def mujoco_text(source, tmp_path):
    m = (mujoco.MjModel.from_xml_string(source) if source.lstrip().startswith("<")
         else mujoco.MjModel.from_xml_path(source))
    mujoco.mj_printModel(m, str(tmp_path / "mujoco.txt"))
    return (tmp_path / "mujoco.txt").read_text()


@pytest.mark.parametrize("source", [SMALL, str(model_path("mouse/mouse.xml")),
                                    str(model_path("arm7_ball_shoulder.xml"))])
def test_every_row_mujoco_prints_too_reads_the_same(source, tmp_path):
    ours, theirs = blocks(model_text(rbd.load_model(source))), blocks(mujoco_text(source, tmp_path))
    compared, differ = 0, []
    for header, rows in ours.items():
        for name, values in rows.items():
            if name in theirs.get(header, {}):
                compared += 1
                if values != theirs[header][name]:
                    differ.append((header, name, values, theirs[header][name]))
    # the one difference is a convention: the world's parent is -1 here, 0 in MuJoCo
    assert differ == [("BODY 0:", "body_parentid", [-1.0], [0.0])]
    assert compared > 250


def test_object_by_name_and_by_id_and_bad_input():
    mouse = rbd.load_model(model_path("mouse/mouse.xml"))
    neck = object_text(mouse, "body", "neck")
    assert neck == object_text(mouse, "body", mouse.id("body", "neck"))
    assert neck.splitlines()[:2] == ["BODY 2:", "  name                  neck"]
    assert "  body_mass             0.008    " in neck.splitlines()
    with pytest.raises(ValueError, match="unknown kind of object 'bone'"):
        object_text(mouse, "bone", 0)
    with pytest.raises(KeyError, match="no body named 'tail_tip'"):
        object_text(mouse, "body", "tail_tip")
    with pytest.raises(IndexError, match="joint 13 does not exist: the model has 13"):
        object_text(mouse, "joint", 13)


def test_print_model_writes_the_text(tmp_path, capsys):
    model = rbd.load_model(SMALL)
    print_model(model, tmp_path / "model.txt")
    assert (tmp_path / "model.txt").read_text() == model_text(model) + "\n"
    print_model(model, kinds=["tendon"])
    printed = capsys.readouterr().out
    assert "TENDON 1:" in printed and "BODY 0:" not in printed and "SIZES" in printed
