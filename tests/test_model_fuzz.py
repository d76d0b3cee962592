"""Fuzzing the model compilers: corrupted and mutated model files either load or raise
``ModelError`` — never another exception, never a hang.

The seeds are the MJCF and URDF files of ``models/`` and two gymnasium assets; each case
applies a few random edits (seeded, so a failure reproduces) of the kinds a careless hand
or a broken tool makes: deleted or duplicated text, numbers replaced by junk, NaN, huge or
negative values, renamed tags and attributes, truncation, stray entities.
"""
from __future__ import annotations

import importlib.util
import re
import signal
from pathlib import Path

import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.io import ModelError

ROOT = Path(__file__).resolve().parents[1]
N_CASES = 240
TIME_LIMIT = 10          # seconds per file: anything slower counts as a hang

JUNK = ["", "nan", "inf", "-inf", "-1", "0", "1e308", "-1e308", "1e-320", "abc", "1 2", "1 2 3 4 5 6 7",
        "0 0 0", "true", "auto", "&#x41;", "  ", "1,2,3", "0x10", "-0", "1e400", "3.5.1"]
TAGS = ["body", "geom", "joint", "inertial", "site", "default", "include", "freejoint", "frame",
        "link", "mass", "inertia", "origin", "axis", "limit", "motor", "position", "key", "pair",
        "composite", "mujoco", "robot", "worldbody", "actuator", "weld", "fixed"]
ATTRS = ["pos", "quat", "euler", "axisangle", "xyaxes", "zaxis", "size", "fromto", "mass", "density",
         "diaginertia", "fullinertia", "range", "limited", "type", "class", "childclass", "axis",
         "ref", "armature", "joint", "gear", "ctrlrange", "xyz", "rpy", "value", "ixx", "file"]


def seeds():
    files = sorted((ROOT / "models").glob("*.xml")) + sorted((ROOT / "models").glob("*.urdf"))
    spec = importlib.util.find_spec("gymnasium")
    if spec is not None:
        assets = Path(spec.origin).parent / "envs" / "mujoco" / "assets"
        files += [assets / "hopper.xml", assets / "humanoid.xml"]
    return [f.read_text() for f in files]


def mutate(text, rng):
    """Apply 1-4 random edits to ``text``."""
    for _ in range(rng.integers(1, 5)):
        kind = rng.integers(10)
        n = len(text)
        if kind == 0 and n:                                  # delete a span
            a = rng.integers(n)
            text = text[:a] + text[a + rng.integers(1, 60):]
        elif kind == 1:                                      # duplicate a line
            lines = text.splitlines()
            k = rng.integers(len(lines))
            lines.insert(k, lines[k])
            text = "\n".join(lines)
        elif kind in (2, 3):                                 # replace an attribute value
            values = list(re.finditer(r'="([^"]*)"', text))
            if values:
                m = values[rng.integers(len(values))]
                text = text[:m.start(1)] + str(rng.choice(JUNK)) + text[m.end(1):]
        elif kind == 4:                                      # rename a tag
            tags = list(re.finditer(r"<(/?)([a-z_]+)", text))
            if tags:
                m = tags[rng.integers(len(tags))]
                text = text[:m.start(2)] + str(rng.choice(TAGS)) + text[m.end(2):]
        elif kind == 5:                                      # add an attribute
            tags = list(re.finditer(r"<([a-z_]+)", text))
            if tags:
                m = tags[rng.integers(len(tags))]
                attr = f' {rng.choice(ATTRS)}="{rng.choice(JUNK)}"'
                text = text[:m.end()] + attr + text[m.end():]
        elif kind == 6 and n:                                # truncate
            text = text[:rng.integers(n)]
        elif kind == 7:                                      # flip the sign of a number
            nums = list(re.finditer(r"(?<![\w.])(\d+\.?\d*)", text))
            if nums:
                m = nums[rng.integers(len(nums))]
                text = text[:m.start()] + "-" + text[m.start():]
        elif kind == 8:                                      # stray markup
            a = rng.integers(n + 1)
            stray = rng.choice(["<", ">", "&", "&lol;", "<!ENTITY x 'y'>", "<!-- ", "]]>", "\x00", "é"])
            text = text[:a] + str(stray) + text[a:]
        else:                                                # scale a number hugely
            nums = list(re.finditer(r"(?<![\w.])(\d+\.?\d*)", text))
            if nums:
                m = nums[rng.integers(len(nums))]
                text = text[:m.start()] + str(rng.choice(["1e300", "0", "1e-300", "99999999"])) + text[m.end():]
    return text


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def test_enough_seeds():
    assert len(seeds()) >= 10


@pytest.mark.parametrize("case", range(N_CASES))
def test_mutated_model_loads_or_raises_model_error(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                 # includes resolve here, not in the repository
    rng = np.random.default_rng(case)
    texts = seeds()
    text = mutate(texts[case % len(texts)], rng)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    try:
        rbd.load_model(text)
    except ModelError as e:
        assert str(e)                           # a message that says where
    except _Timeout:
        pytest.fail(f"case {case}: loading took more than {TIME_LIMIT} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
