"""A fuzzer for the model compilers, with its own worker processes (used by
``tests/test_model_fuzz.py``; also runs alone: ``python tests/fuzz_models.py --cases 2000``).

Each case takes one seed model (MJCF or URDF: ``models/``, gymnasium's assets, a few of
example-robot-data's robots, and small hand-written models that include files and meshes)
and applies 1-4 random edits of the kinds a careless hand, a broken tool or a hostile
sender makes (see :func:`mutate`). The mutant is written into a *model folder* that also
holds files it may name (a part to include, STL and OBJ meshes, one with a NaN vertex,
one whose numbers overflow single precision, PNG and binary height fields, a FIFO, a
symbolic link out of the folder),
next to an ``outside`` folder with a "secret" model, mesh and height field it must never
read.

What every case must show (:func:`run_case`):

* loading either raises :class:`~rbdl_edu.io.errors.ModelError` whose message names the file
  and line (and the element, except for XML that does not parse), and never quotes the
  outside secret; or gives a model whose float fields are all finite (MuJoCo's NaN added
  mass of a flat world geom aside) and that read nothing from outside its folder;
* on a loaded model, ``crba``, ``rnea`` and ``aba`` at ``qpos0`` and at a random state, and
  ``rbd.collision``, return finite numbers or raise the library's own
  :class:`~rbdl_edu.tree.DynamicsError`.

Anything else (another exception, a NaN, a worker that runs out of its :data:`MEMORY_LIMIT`
or dies) is a failure, and so is a case that spends more than :data:`CPU_LIMIT` seconds of the
worker's own CPU time (``RLIMIT_CPU``, set afresh before every case: the kernel ends the worker
with ``SIGXCPU``). What a case is classed as depends only on what it did — its exception, its
memory, the CPU time it burnt — never on the wall clock, so a slow, shared or overloaded
machine runs the cases more slowly but gives the same verdicts. A worker that answers nothing for
:data:`SAFETY_TIMEOUT` seconds of wall time (a case blocked without using CPU, e.g. on a FIFO, or
a machine too starved to run anything) is killed too, but that is reported as an infrastructure
failure (status ``"stalled"``), not as a verdict on the case's speed. Workers are reused; one
that is killed or dies is replaced, and only its case fails. Cases are seeded: ``case k`` is the
same mutant on every machine.
"""
from __future__ import annotations

import argparse
import math
import importlib.util
import multiprocessing
import os
import re
import shutil
import signal
import sys
import tempfile
import time
import warnings
from collections import Counter
from multiprocessing.connection import wait
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SEED = 14
CPU_LIMIT = 60                     # seconds of the worker's own CPU time per case (RLIMIT_CPU;
                                   # a case takes ~0.1 s of CPU: only a runaway loop reaches it)
SAFETY_TIMEOUT = 600.0             # seconds of wall time without an answer: infrastructure, not a
                                   # verdict (10x the CPU cap, which load alone cannot reach)
MEMORY_LIMIT = 3 * 2 ** 30         # bytes of address space per worker
SECRET = "SECRET_OUTSIDE_CONTENT"  # written in the files outside the model folder
SECRET_SHAPE = (7, 5)              # the outside height field's rows and columns

# -- seeds --------------------------------------------------------------------------------------
ROBOTS = ("ur_description/urdf/ur5_robot.urdf", "solo_description/robots/solo12.urdf",
          "double_pendulum_description/urdf/double_pendulum.urdf",
          "so_arm_description/urdf/so_arm100.urdf", "panda_description/urdf/panda.urdf")
HANDWRITTEN = {
    "includes.xml": """<mujoco model="parts">
  <compiler angle="radian" meshdir="meshes"/>
  <include file="part.xml"/>
  <size nkey="3"/>
  <asset><mesh name="box" file="box.stl"/><mesh name="tet" file="tet.obj" scale="1 2 1"/>
    <mesh name="inline" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset>
  <default><default class="heavy"><geom density="5000" friction="1 0.1 0.01"/></default></default>
  <worldbody>
    <geom type="plane" size="5 5 0.1"/>
    <body name="a" pos="0 0 1"><freejoint name="root"/><geom type="mesh" mesh="box"/>
      <body name="b" pos="0 0 -0.3" euler="0.1 0.2 0.3"><joint name="j1" axis="0 1 0" range="-1 1"/>
        <geom class="heavy" type="capsule" fromto="0 0 0 0 0 -0.3" size="0.05"/>
        <site name="s1" pos="0 0 -0.3"/>
        <body name="c" pos="0 0 -0.3"><joint name="j2" type="ball"/><geom type="mesh" mesh="tet"/>
          <site name="s2"/></body></body></body>
    <body name="d" pos="1 0 0.5" xyaxes="0 1 0 -1 0 0"><joint name="j3" type="slide" axis="1 1 0"/>
      <geom type="box" size="0.1 0.2 0.3"/><geom type="mesh" mesh="inline" pos="0 0 0.3"/></body>
  </worldbody>
  <tendon><fixed name="t1"><joint joint="j1" coef="1"/><joint joint="j3" coef="-0.5"/></fixed>
    <spatial name="t2"><site site="s1"/><site site="s2"/></spatial></tendon>
  <actuator><motor joint="j1" gear="2" ctrlrange="-1 1"/><position joint="j3" kp="10"/>
    <general tendon="t1" dyntype="filter" dynprm="0.1"/></actuator>
  <contact><pair geom1="1" geom2="2"/><exclude body1="a" body2="d"/></contact>
  <equality><joint joint1="j1" joint2="j3" polycoef="0 1 0 0 0"/></equality>
  <sensor><jointpos joint="j1"/><framequat objtype="body" objname="c"/><accelerometer site="s1"/></sensor>
  <keyframe><key name="k" qpos="0 0 1 1 0 0 0 0.1 1 0 0 0 0.2" ctrl="0 0 0" act="0"/></keyframe>
</mujoco>""",
    "robot.urdf": """<?xml version="1.0"?>
<robot name="fuzzbot">
  <link name="base"><inertial><origin xyz="0 0 0.1" rpy="0 0 0"/><mass value="5"/>
    <inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 0"/><geometry><box size="0.4 0.4 0.2"/></geometry></collision></link>
  <link name="upper"><inertial><origin xyz="0 0 0.25"/><mass value="1"/>
    <inertia ixx="0.02" iyy="0.02" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><cylinder radius="0.05" length="0.5"/></geometry></collision></link>
  <link name="virtual"/>
  <link name="lower"><inertial><mass value="0.5"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.001" ixy="0.0001" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 0.2" rpy="0.1 0 0"/><geometry><sphere radius="0.05"/></geometry></collision>
    <collision><geometry><mesh filename="package://fuzz/meshes/lower.stl" scale="1 1 1"/></geometry></collision></link>
  <link name="slider"><inertial><mass value="0.2"/>
    <inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.2" rpy="0 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.5" effort="10" velocity="2"/><dynamics damping="0.1" friction="0.01"/></joint>
  <joint name="elbow_a" type="continuous"><parent link="upper"/><child link="virtual"/>
    <origin xyz="0 0 0.5"/><axis xyz="1 0 0"/></joint>
  <joint name="elbow_b" type="revolute"><parent link="virtual"/><child link="lower"/>
    <axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="5" velocity="3"/>
    <mimic joint="shoulder" multiplier="0.5" offset="0.1"/></joint>
  <joint name="slide" type="prismatic"><parent link="base"/><child link="slider"/>
    <origin xyz="0.3 0 0"/><axis xyz="1 0 0"/><limit lower="0" upper="0.2" effort="1" velocity="1"/></joint>
</robot>""",
}


def seeds():
    """``[(kind, name, text)]``: the models the mutants start from (kind "xml" or "urdf")."""
    files = sorted((ROOT / "models").glob("*.xml")) + sorted((ROOT / "models").glob("*.urdf"))
    files += [ROOT / "models" / "mouse" / "mouse.xml"]
    spec = importlib.util.find_spec("gymnasium")
    if spec is not None:
        files += sorted((Path(spec.origin).parent / "envs" / "mujoco" / "assets").glob("*.xml"))
    prefix = Path(sys.prefix) / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / \
        "site-packages" / "cmeel.prefix" / "share" / "example-robot-data" / "robots"
    files += [prefix / r for r in ROBOTS if (prefix / r).exists()]
    out = [("urdf" if f.suffix == ".urdf" else "xml", f.name, f.read_text()) for f in files]
    out += [("urdf" if n.endswith(".urdf") else "xml", n, t) for n, t in HANDWRITTEN.items()]
    return out


# -- the model folder ---------------------------------------------------------------------------
TET_OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"


def _stl(vertices):
    """An ASCII STL of the tetrahedra-like triangles over ``vertices`` (4 points)."""
    faces = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
    lines = ["solid s"]
    for f in faces:
        lines += ["facet normal 0 0 0", "outer loop"] + [f"vertex {' '.join(map(str, vertices[k]))}"
                                                          for k in f] + ["endloop", "endfacet"]
    return "\n".join(lines + ["endsolid s"]) + "\n"


def make_folder(base):
    """Fill ``base`` with the model folder ``base/model`` and the ``base/outside`` folder;
    returns the model folder."""
    base = Path(base)
    model, outside = base / "model", base / "outside"
    for d in (model / "meshes", model / "sub", outside):
        d.mkdir(parents=True, exist_ok=True)
    box = [(0, 0, 0), (0.2, 0, 0), (0, 0.1, 0), (0, 0, 0.3)]
    (model / "meshes" / "box.stl").write_text(_stl(box))
    (model / "box.stl").write_text(_stl(box))
    (model / "meshes" / "tet.obj").write_text(TET_OBJ)
    (model / "tet.obj").write_text(TET_OBJ)
    (model / "meshes" / "nan.obj").write_text(TET_OBJ.replace("v 1 0 0", "v nan 0 0"))
    (model / "meshes" / "huge.obj").write_text(TET_OBJ.replace("v 1 0 0", "v 1e39 0 0"))
    (model / "meshes" / "junk.stl").write_bytes(b"\x00\x01solid junk \xff\xfe" * 50)
    try:
        from PIL import Image
        Image.fromarray(np.arange(12, dtype=np.uint8).reshape(3, 4) * 20).save(model / "meshes" / "hf.png")
        Image.fromarray(np.zeros(SECRET_SHAPE, np.uint8)).save(outside / "secret.png")
    except ImportError:
        pass
    (model / "meshes" / "hf.bin").write_bytes(np.array([2, 2], "<i4").tobytes() + np.float32([0, 1, 2, np.nan]).tobytes())
    (model / "part.xml").write_text('<mujoco><default><default class="part"><geom size="0.07"/></default>'
                                    '</default></mujoco>')
    (model / "sub" / "part2.xml").write_text('<mujoco><worldbody><body name="sub_part" pos="0 1 1">'
                                             '<joint/><geom size="0.1"/></body></worldbody></mujoco>')
    (outside / "secret.xml").write_text(f'<mujoco><worldbody><body name="{SECRET}"><joint/>'
                                        f'<geom size="0.1"/></body></worldbody><!-- {SECRET} --></mujoco>')
    (outside / "secret.stl").write_text(_stl(box).replace("solid s", f"solid {SECRET}"))
    (outside / "secret.obj").write_text(f"# {SECRET}\n" + TET_OBJ)
    for link, target in (("link_out.xml", outside / "secret.xml"), ("link_out.stl", outside / "secret.stl"),
                         ("dev", Path("/dev/zero"))):
        if not (model / link).is_symlink():
            os.symlink(target, model / link)
    if not (model / "fifo").exists():
        os.mkfifo(model / "fifo")
    return model


# -- mutations ----------------------------------------------------------------------------------
JUNK = ["", "nan", "inf", "-inf", "-1", "0", "1e308", "-1e308", "1e-320", "abc", "1 2", "1 2 3 4 5 6 7",
        "0 0 0", "true", "auto", "&#x41;", "  ", "1,2,3", "0x10", "-0", "1e400", "3.5.1",
        "99999999999999999999", "2147483648", "-2147483649", "1e19", "1.5e20", "3.4e38", "1e200 1e200 0 0",
        "1e-300", "0 0 0 0", "1e19 1e19 1e19", "-1e19 0 0 1e19 0 0", "1e20 1e20 1e20 1e20 1e20 1e20"]
TAGS = ["body", "geom", "joint", "inertial", "site", "default", "include", "freejoint", "frame",
        "link", "mass", "inertia", "origin", "axis", "limit", "motor", "position", "key", "pair",
        "composite", "mujoco", "robot", "worldbody", "actuator", "weld", "fixed", "dynamics", "parent",
        "child", "collision", "geometry", "mesh", "size", "flag", "option", "camera", "light", "plugin"]
ATTRS = ["pos", "quat", "euler", "axisangle", "xyaxes", "zaxis", "size", "fromto", "mass", "density",
         "diaginertia", "fullinertia", "range", "limited", "type", "class", "childclass", "axis",
         "ref", "armature", "joint", "gear", "ctrlrange", "xyz", "rpy", "value", "ixx", "file",
         "priority", "contype", "conaffinity", "condim", "group", "nkey", "margin", "lower", "upper",
         "damping", "friction", "meshdir", "scale", "vertex"]
FILES = ["part.xml", "sub/part2.xml", "../outside/secret.xml", "link_out.xml", "/dev/zero", "fifo", "dev",
         "/etc/hostname", "missing.xml", "model.xml", ".", "sub", "meshes/box.stl", "{outside}/secret.xml"]
HFIELDS = ["hf.png", "hf.bin", "../../outside/secret.png", "{outside}/secret.png", "../fifo", "/dev/zero",
           "box.stl", "missing.png", "../../outside/secret.xml"]
MESHES = ["box.stl", "tet.obj", "nan.obj", "huge.obj", "junk.stl", "../../outside/secret.stl",
          "../link_out.stl", "../fifo", "/dev/zero", "../dev", "missing.stl", "{outside}/secret.obj",
          "../../outside/secret.obj"]
CHILDREN = ['<body><joint/><geom size="1"/></body>', "<x/>", '<geom size="0.1"/>', '<joint/>',
            '<inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>', "<plugin/>", '<origin xyz="1 0 0"/>',
            '<dynamix damping="1"/>']
ELEMENTS = ['<freejoint/>', '<joint type="ball"/>', '<joint type="hinge"/>', '<joint type="free"/>',
            '<geom size="1e19"/>', '<geom type="box" size="1e-300 1 1"/>', '<inertial pos="1e19 0 0" mass="1e19" '
            'diaginertia="1e19 1e19 1e19"/>', '<geom size="0.1" margin="-5"/>',
            '<geom type="sphere" size="0.1" mass="1e-300"/>', '<site/>', '<camera><body/></camera>']


# how often each edit of mutate() is made: the three that mostly break the XML itself
# (deleting a span, truncating, stray markup) less often, so that most mutants parse
WEIGHTS = np.ones(23)
WEIGHTS[[0, 6, 8]] = 0.3
WEIGHTS /= WEIGHTS.sum()


def _pick(rng, seq):
    return seq[int(rng.integers(len(seq)))]


def mutate(text, rng, outside="outside"):
    """Apply 1-3 random edits to ``text`` (see the module docstring)."""
    for _ in range(int(rng.choice([1, 2, 3], p=[0.55, 0.3, 0.15]))):
        kind = int(rng.choice(23, p=WEIGHTS))
        n = len(text)
        if kind == 0 and n:                                  # delete a span
            a = int(rng.integers(n))
            text = text[:a] + text[a + int(rng.integers(1, 60)):]
        elif kind == 1:                                      # duplicate a line
            lines = text.splitlines() or [""]
            k = int(rng.integers(len(lines)))
            lines.insert(k, lines[k])
            text = "\n".join(lines)
        elif kind in (2, 3):                                 # replace an attribute value
            values = list(re.finditer(r'="([^"]*)"', text))
            if values:
                m = _pick(rng, values)
                text = text[:m.start(1)] + _pick(rng, JUNK) + text[m.end(1):]
        elif kind == 4:                                      # rename a tag
            tags = list(re.finditer(r"<(/?)([a-z_]+)", text))
            if tags:
                m = _pick(rng, tags)
                text = text[:m.start(2)] + _pick(rng, TAGS) + text[m.end(2):]
        elif kind == 5:                                      # add an attribute
            tags = list(re.finditer(r"<([a-z_]+)", text))
            if tags:
                m = _pick(rng, tags)
                text = text[:m.end()] + f' {_pick(rng, ATTRS)}="{_pick(rng, JUNK)}"' + text[m.end():]
        elif kind == 6 and n:                                # truncate
            text = text[:int(rng.integers(n))]
        elif kind == 7:                                      # flip the sign of a number
            nums = list(re.finditer(r"(?<![\w.])(\d+\.?\d*)", text))
            if nums:
                m = _pick(rng, nums)
                text = text[:m.start()] + "-" + text[m.start():]
        elif kind == 8:                                      # stray markup
            a = int(rng.integers(n + 1))
            stray = _pick(rng, ["<", ">", "&", "&lol;", "<!ENTITY x 'y'>", "<!-- ", "]]>", "\x00", "é",
                                '<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>'])
            text = text[:a] + stray + text[a:]
        elif kind == 9:                                      # scale a number hugely
            nums = list(re.finditer(r"(?<![\w.])(\d+\.?\d*)", text))
            if nums:
                m = _pick(rng, nums)
                text = text[:m.start()] + _pick(rng, ["1e300", "0", "1e-300", "99999999", "1e19"]) + text[m.end():]
        elif kind == 10:                                     # include a file (MJCF)
            name = _pick(rng, FILES).format(outside=outside)
            text = _after_root(text, f'<include file="{name}"/>', rng)
        elif kind == 11:                                     # a mesh from a file (MJCF)
            name = _pick(rng, MESHES).format(outside=outside)
            text = _after_root(text, f'<asset><mesh name="fz" file="{name}"/></asset>', rng)
            text = _into_body(text, '<geom type="mesh" mesh="fz"/>', rng)
        elif kind == 12:                                     # a mesh folder out of the model folder
            d = _pick(rng, ["..", "../outside", "/", "/dev", outside, "meshes", "sub"])
            text = _after_root(text, f'<compiler meshdir="{d}"/>', rng)
        elif kind == 13:                                     # a child inside a leaf element
            leaves = list(re.finditer(r"<(joint|geom|site|motor|position|key|flag|include|inertial|freejoint|"
                                      r"camera|light|pair|exclude|mesh|general|jointpos|origin|mass|axis|limit|"
                                      r"dynamics|parent|child)\b([^<>]*?)/>", text))
            if leaves:
                m = _pick(rng, leaves)
                text = (text[:m.start()] + f"<{m.group(1)}{m.group(2)}>{_pick(rng, CHILDREN)}</{m.group(1)}>"
                        + text[m.end():])
        elif kind == 14:                                     # an extra element in a body or link
            text = _into_body(text, _pick(rng, ELEMENTS + CHILDREN), rng)
        elif kind == 15:                                     # a size the file declares
            nkey = _pick(rng, ["1000", "100000", "1000000", "99999999999999999999", "-1", "1e6", "20000"])
            text = _after_root(text, f'<size nkey="{nkey}"/>', rng)
        elif kind == 16:                                     # a typo in an attribute name
            names = list(re.finditer(r"\s([a-z_]{3,})=", text))
            if names:
                m = _pick(rng, names)
                word = m.group(1)
                k = int(rng.integers(len(word)))
                typo = word[:k] + word[k + 1:] if rng.integers(2) else word[:k] + word[k:k + 2][::-1] + word[k + 2:]
                text = text[:m.start(1)] + typo + text[m.end(1):]
        elif kind == 17:                                     # swap the numbers of an attribute
            values = [m for m in re.finditer(r'="([-\d.e ]+ [-\d.e ]+)"', text)]
            if values:
                m = _pick(rng, values)
                text = text[:m.start(1)] + " ".join(m.group(1).split()[::-1]) + text[m.end(1):]
        elif kind == 18:                                     # no joints at all (a static model)
            text = re.sub(r"<(free)?joint\b[^<>]*?/>", "", text)
            for section in ("actuator", "sensor", "tendon", "equality", "keyframe", "transmission"):
                text = re.sub(rf"<{section}\b.*?</{section}>", "", text, flags=re.S)
            text = re.sub(r'type="(revolute|continuous|prismatic|floating)"', 'type="fixed"', text)
        elif kind == 19:                                     # lower > upper, min > max
            text = re.sub(r'lower="([^"]*)" upper="([^"]*)"', r'lower="\2" upper="\1"', text, count=1)
            text = re.sub(r'range="(\S+) (\S+)"', r'range="\2 \1"', text, count=1)
        elif kind == 21:                                     # a height field from a file (MJCF)
            name = _pick(rng, HFIELDS).format(outside=outside)
            text = _after_root(text, f'<asset><hfield name="hz" file="{name}" size="1 1 0.5 0.1"/></asset>', rng)
            text = _into_body(text, '<geom type="hfield" hfield="hz"/>', rng)
        elif kind == 20:                                     # a second copy of an element
            elems = list(re.finditer(r"<(origin|inertial|parent|child|axis|limit|mass|inertia|dynamics|"
                                     r"freejoint|joint)\b[^<>]*?/>", text))
            if elems:
                m = _pick(rng, elems)
                text = text[:m.end()] + m.group(0) + text[m.end():]
        else:                                                # an element deleted
            elems = list(re.finditer(r"<([a-z_]+)\b[^<>]*?/>", text))
            if elems:
                m = _pick(rng, elems)
                text = text[:m.start()] + text[m.end():]
    return text


def _after_root(text, element, rng):
    """``element`` inserted right after the root element's opening tag."""
    m = re.search(r"<(mujoco|robot)\b[^<>]*>", text)
    at = m.end() if m else int(rng.integers(len(text) + 1))
    return text[:at] + element + text[at:]


def _into_body(text, element, rng):
    """``element`` inserted right after a random ``<body ...>`` or ``<link ...>`` opening tag."""
    opens = list(re.finditer(r"<(body|link|worldbody)\b[^<>]*?(?<!/)>", text))
    if not opens:
        return text
    m = _pick(rng, opens)
    return text[:m.end()] + element + text[m.end():]


# -- one case -----------------------------------------------------------------------------------
def run_case(case, folder, all_seeds):
    """``(status, seed name, problems)`` of case ``case`` run in the model ``folder``; status is
    ``"refused"`` (a ModelError) or ``"loaded"``; ``problems`` lists what is wrong. (Cases
    -1, -2 and -3 test the harness: they loop forever, allocate memory without bound, and
    block forever without using CPU.)"""
    import rbdl_edu as rbd
    import rbdl_edu.tree
    from rbdl_edu.io import ModelError
    DynamicsError = getattr(rbdl_edu.tree, "DynamicsError", ())     # (an older rbdl_edu has none)

    if case == -1:                                   # the harness's own test: a runaway loop ...
        while True:
            pass
    if case == -2:                                   # ... memory without bound ...
        hoard = []
        while True:
            hoard.append(bytearray(2 ** 26))
    if case == -3:                                   # ... and a case blocked without using CPU
        time.sleep(10 ** 6)
    rng = np.random.default_rng([SEED, case])
    kind, name, text = all_seeds[case % len(all_seeds)]
    outside = str(Path(folder).parent / "outside")
    text = mutate(text, rng, outside)
    path = Path(folder) / f"model.{kind}"
    path.write_text(text, errors="surrogatepass")
    problems = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            model = rbd.load_model(path)
        except ModelError as e:
            if SECRET in str(e):
                problems.append(f"the message quotes a file outside the model folder: {e}")
            if e.file is None or e.line is None:
                problems.append(f"no file or line: {e}")
            elif e.element is None and not e.reason.startswith(("malformed XML", "unsafe XML")):
                problems.append(f"no element: {e}")
            return "refused", name, problems
        except MemoryError:
            raise                                   # classed by the worker: "memory"
        except Exception as e:                      # noqa: BLE001 (the point of the test)
            return "raw", name, [f"{type(e).__name__}: {str(e)[:300]}"]
        problems += _check_model(model)
        problems += _check_algorithms(rbd, DynamicsError, model, rng)
    return "loaded", name, problems


def _check_model(model):
    problems = []
    if any(SECRET in n for n in model.body_names + model.mesh_names) or \
            any((r, c) == SECRET_SHAPE for r, c in zip(getattr(model, "hfield_nrow", ()), getattr(model, "hfield_ncol", ()))):
        problems.append("a file outside the model folder was read")
    for field, value in vars(model).items():
        if not isinstance(value, np.ndarray) or value.dtype.kind != "f":
            continue
        bad = ~np.isfinite(value)
        if field == "geom_fluid":          # MuJoCo's NaN added mass of a flat geom on the world
            bad[model.geom_bodyid == 0] = False
        if bad.any():
            problems.append(f"{field} holds {value[bad].ravel()[0]}")
    return problems


def _check_algorithms(rbd, DynamicsError, model, rng):
    from rbdl_edu.configuration import random_qpos
    problems = []
    states = [(model.qpos0, np.zeros(model.nv))]
    states.append((random_qpos(model, rng), rng.normal(size=model.nv)))
    for q, qd in states:
        for name, f in (("crba", lambda: rbd.crba(model, q)),
                        ("rnea", lambda: rbd.rnea(model, q, qd, np.zeros(model.nv))),
                        ("aba", lambda: rbd.aba(model, q, qd, np.zeros(model.nv)))):
            try:
                out = f()
            except DynamicsError:
                continue
            except MemoryError:
                raise
            except Exception as e:                  # noqa: BLE001
                problems.append(f"{name}: {type(e).__name__}: {str(e)[:200]}")
                continue
            if not np.all(np.isfinite(out)):
                problems.append(f"{name} is not finite")
    try:
        data = rbd.Data(model)
        for c in rbd.collision.detect(model, data):
            if not (np.isfinite(c.dist) and np.all(np.isfinite(c.pos)) and np.all(np.isfinite(c.frame))):
                problems.append(f"collision: a contact that is not finite: {c}")
                break
    except Exception as e:                          # noqa: BLE001
        problems.append(f"collision: {type(e).__name__}: {str(e)[:200]}")
    return problems


# -- workers ------------------------------------------------------------------------------------
def _cpu_seconds():
    """The CPU time (user + system) this process has used so far."""
    import resource
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _cap_cpu(cpu_limit):
    """Let the calling process use ``cpu_limit`` more seconds of CPU time (``None``: no cap),
    by moving the soft ``RLIMIT_CPU``; past it the kernel sends ``SIGXCPU``, whose default
    action ends the process. Only the soft limit moves (a lowered hard limit could not be
    raised again for the next case). Returns False where there is no such limit."""
    try:
        import resource
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        soft = hard if cpu_limit is None else math.ceil(_cpu_seconds() + cpu_limit)
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
        return True
    except (ImportError, ValueError, OSError):
        return False


def _serve(conn, base, memory_limit, cpu_limit):
    """A worker: caps its memory, builds its model folder, then runs the cases it is sent,
    each under a fresh cap of ``cpu_limit`` seconds of its own CPU time."""
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))      # SIGXCPU's default action dumps core
    except (ImportError, ValueError, OSError):
        pass
    if hasattr(signal, "SIGXCPU"):
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)          # the kernel's CPU cap ends the worker
    folder = make_folder(base)
    all_seeds = seeds()
    import rbdl_edu  # noqa: F401  (imported before the first case's CPU time is capped)
    conn.send("ready")
    while True:
        case = conn.recv()
        if case is None:
            return
        _cap_cpu(cpu_limit)
        try:
            result = run_case(case, folder, all_seeds)
        except MemoryError:
            result = ("memory", "?", [f"MemoryError (more than {memory_limit / 2 ** 30:g} GiB)"])
        except BaseException as e:                  # noqa: BLE001
            result = ("raw", "?", [f"harness: {type(e).__name__}: {e}"])
        _cap_cpu(None)
        conn.send((case,) + result)


def _cpu_of(pid):
    """Seconds of CPU time process ``pid`` has used (Linux's ``/proc``), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _death(exitcode, cpu_limit):
    """``(status, problem)`` of a worker that ended, from how it ended."""
    if hasattr(signal, "SIGXCPU") and exitcode == -signal.SIGXCPU:
        return "hang", f"more than {cpu_limit:g} s of CPU time (the worker's RLIMIT_CPU): a runaway loop"
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        hint = " (the system's out-of-memory killer?)" if exitcode == -signal.SIGKILL else ""
        return "crash", f"the worker process died of {name}{hint}"
    return "crash", f"the worker process died (exit code {exitcode})"


class _Worker:
    def __init__(self, ctx, base, memory_limit, cpu_limit):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, base, memory_limit, cpu_limit), daemon=True)
        self.proc.start()
        child.close()
        self.case, self.started, self.ready = None, None, False

    def send(self, case):
        self.conn.send(case)
        self.case, self.started = case, time.monotonic()

    def kill(self):
        self.proc.kill()
        self.proc.join(60)
        self.conn.close()


def run(cases, workers=2, cpu_limit=CPU_LIMIT, memory_limit=MEMORY_LIMIT, safety_timeout=SAFETY_TIMEOUT,
        progress=None):
    """Run ``cases`` (an iterable of case numbers) on ``workers`` processes. Returns
    ``(results, failures, seconds)``: ``results`` counts the statuses, ``failures`` lists
    ``(case, status, seed name, problems)``.

    A case's status comes from what it did: ``"loaded"``/``"refused"`` (with its problems),
    ``"raw"`` (another exception), ``"memory"`` (past ``memory_limit`` bytes), ``"hang"``
    (past ``cpu_limit`` seconds of the worker's CPU time), ``"crash"`` (the worker died).
    ``"stalled"`` is not a verdict on the case: its worker answered nothing for
    ``safety_timeout`` seconds of wall time (blocked, or a starved machine) and was killed."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    ctx = multiprocessing.get_context("spawn")
    todo = list(cases)[::-1]
    results, failures = Counter(), []
    tmp = tempfile.mkdtemp(prefix="rbdl_fuzz_")
    pool, spawned = [], 0

    def spawn():
        nonlocal spawned
        spawned += 1
        return _Worker(ctx, os.path.join(tmp, f"w{spawned}"), memory_limit, cpu_limit)

    t0 = time.monotonic()
    try:
        pool = [spawn() for _ in range(workers)]
        while todo or any(w.case is not None for w in pool):
            for w in pool:
                if w.ready and w.case is None and todo:
                    w.send(todo.pop())
            ready = wait([w.conn for w in pool], timeout=0.5)
            for k, w in enumerate(pool):
                if w.conn in ready:
                    try:
                        msg = w.conn.recv()
                    except (EOFError, OSError):     # the worker ended: how tells what happened
                        w.proc.join(60)
                        if w.case is not None:
                            status, problem = _death(w.proc.exitcode, cpu_limit)
                            failures.append((w.case, status, "?", [problem]))
                            results[status] += 1
                        w.kill()
                        pool[k] = spawn()
                        continue
                    if msg == "ready":
                        w.ready = True
                        continue
                    case, status, seed, problems = msg
                    w.case = None
                    results[status] += 1
                    if status not in ("loaded", "refused") or problems:
                        failures.append((case, status, seed, problems))
                    if progress:
                        progress(sum(results.values()))
                elif w.case is not None and time.monotonic() - w.started > safety_timeout:
                    cpu = _cpu_of(w.proc.pid)
                    used = "" if cpu is None else f", having used {cpu:.1f} s of CPU in all,"
                    failures.append((w.case, "stalled", "?", [
                        f"INFRASTRUCTURE, not a verdict on the case: its worker answered nothing in "
                        f"{safety_timeout:g} s of wall time{used} and was killed by the harness's safety "
                        f"timeout (a case blocked without using CPU, e.g. reading a FIFO, or a machine "
                        f"too starved to run the suite); rerun the case alone: "
                        f"python tests/fuzz_models.py --start {w.case} --cases 1"]))
                    results["stalled"] += 1
                    w.kill()
                    pool[k] = spawn()
    finally:
        for w in pool:
            try:
                w.conn.send(None)
            except (OSError, BrokenPipeError):
                pass
            w.proc.join(10)
            if w.proc.is_alive():
                w.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    return results, failures, time.monotonic() - t0


def describe(case):
    """The seed and the mutated text of ``case`` (to reproduce a failure)."""
    all_seeds = seeds()
    rng = np.random.default_rng([SEED, case])
    kind, name, text = all_seeds[case % len(all_seeds)]
    return name, mutate(text, rng)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--show", type=int, help="print the mutant of this case and stop")
    args = parser.parse_args()
    if args.show is not None:
        print("\n".join(describe(args.show)))
        sys.exit()
    res, fails, seconds = run(range(args.start, args.start + args.cases), args.workers)
    print(f"{sum(res.values())} cases in {seconds:.0f} s: {dict(res)}")
    for f in fails[:50]:
        print(f)
