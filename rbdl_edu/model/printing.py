r"""A compiled model as text, laid out as MuJoCo's ``mj_printModel`` lays out its file (book,
section 2.9).

A :class:`~rbdl_edu.model.model.Model` is a few dozen sizes and a few hundred arrays. Printed
object by object, it reads as a description of the model *after* the compiler: every default
filled in, every address computed, every inertia diagonalized. The layout is MuJoCo's, so that
the two dumps can be read side by side (and compared line by line):

* a header: the model's name, the sizes that are not zero (``SIZES``), the options
  (``OPTION``), the total mass, ``qpos0`` and ``qpos_spring``;
* then one block per object, ``BODY 0:`` ... ``JOINT 0:`` ... ``DOF 0:`` ..., each with the
  object's ``name`` and one line per array of its kind: the array's name, padded to 21
  characters, and the object's row of numbers.

Numbers are written as MuJoCo writes them: a real with ``"% -9.2g"`` (two significant
digits), an integer with ``" %d"``, each followed by a space; a negative zero is written
``0`` (MuJoCo writes ``-0``). An array's kind is the size its
first dimension counts (``body_pos (nbody, 3)``: a body's), read from the field's shape in
:class:`Model`, so a field added to the model is printed without touching this module.

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><body name="arm"><joint name="hinge"/>
...   <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05" mass="2"/></body></worldbody></mujoco>''')
>>> print(object_text(model, "body", "arm").splitlines()[:3])
['BODY 1:', '  name                  arm', '  body_parentid         0 ']
>>> for line in object_text(model, "body", 1).splitlines():
...     if "mass" in line:
...         print(line.rstrip())
  body_mass             2
  body_subtreemass      2
"""
from __future__ import annotations

import sys
from dataclasses import fields

import numpy as np

from rbdl_edu.model.model import SIZES, Model

#: MuJoCo's number formats (``engine_print.c``)
FLOAT_FORMAT = "% -9.2g"
INT_FORMAT = " %d"
NAME_WIDTH = 21
#: the size that counts a kind of object -> the kind (as ``model.id`` names it) and its header,
#: in the order of MuJoCo's file
KINDS = {"nbody": ("body", "BODY"), "njnt": ("joint", "JOINT"), "nv": ("dof", "DOF"),
         "ngeom": ("geom", "GEOM"), "nsite": ("site", "SITE"), "ncam": ("camera", "CAMERA"),
         "nmesh": ("mesh", "MESH"), "nhfield": ("hfield", "HFIELD"), "nmat": ("material", "MATERIAL"),
         "npair": ("pair", "PAIR"), "nexclude": ("exclude", "EXCLUDE"), "neq": ("equality", "EQUALITY"),
         "ntendon": ("tendon", "TENDON"), "nwrap": ("wrap", "WRAP"), "nactuator": ("actuator", "ACTUATOR"),
         "nsensor": ("sensor", "SENSOR"), "nkey": ("keyframe", "KEY")}
_BY_KIND = {kind: size for size, (kind, _) in KINDS.items()}


def _number(x, float_format):
    """One number as MuJoCo prints it, with its trailing space."""
    if isinstance(x, (bool, np.bool_, int, np.integer)):
        return INT_FORMAT % int(x) + " "
    try:
        return float_format % (float(x) + 0.0) + " "          # + 0.0: no "-0"
    except TypeError:                     # a symbolic model: the expression as SymPy writes it
        return f"{x} "


def _row(name, values, float_format):
    """``name`` padded as MuJoCo pads it, then the values."""
    return f"{name:<{NAME_WIDTH}}" + "".join(_number(x, float_format) for x in np.ravel(values))


def _arrays(size):
    """The names of the model's arrays whose rows are objects counted by ``size``, in the
    order of :class:`Model`; and the name list of those objects (``body_names``), if any."""
    arrays, names = [], None
    for f in fields(Model):
        shape = f.metadata.get("shape")
        if not shape or shape[0] != size:
            continue
        if f.metadata.get("dtype") is str:
            names = f.name
        else:
            arrays.append(f.name)
    return arrays, names


def object_text(model, kind, i, float_format=FLOAT_FORMAT):
    """The block of one object: ``kind`` is ``"body"``, ``"joint"``, ``"dof"``, ... (the
    first names of :data:`KINDS`), ``i`` its id or its name.

    >>> import rbdl_edu as rbd
    >>> object_text(rbd.load_model("<mujoco/>"), "joint", 0)
    Traceback (most recent call last):
    ...
    IndexError: joint 0 does not exist: the model has 0
    """
    if kind not in _BY_KIND:
        raise ValueError(f"unknown kind of object {kind!r}; the kinds are {sorted(_BY_KIND)}")
    size = _BY_KIND[kind]
    n = getattr(model, size)
    arrays, names = _arrays(size)
    if isinstance(i, str):
        if names is None or i not in getattr(model, names):
            raise KeyError(f"no {kind} named {i!r}")
        i = list(getattr(model, names)).index(i)
    if not 0 <= i < n:
        raise IndexError(f"{kind} {i} does not exist: the model has {n}")
    lines = [f"{KINDS[size][1]} {i}:"]
    if names is not None:
        lines.append(f"  {'name':<{NAME_WIDTH}} {getattr(model, names)[i]}")
    for a in arrays:
        values = getattr(model, a)
        if values is not None and np.size(values[i]):
            lines.append("  " + _row(a, values[i], float_format))
    if kind == "actuator":                 # one pair of rows per control, as MuJoCo 4.0
        adr = int(model.actuator_ctrladr[i])
        for c in range(adr, adr + int(model.actuator_ctrlnum[i])):
            lines += ["  " + _row(a, getattr(model, a)[c], float_format)
                      for a in ("actuator_ctrllimited", "actuator_ctrlrange")]
        adr = int(model.actuator_outadr[i])           # then the rows of each force output
        for o in range(adr, adr + int(model.actuator_outnum[i])):
            lines += ["  " + _row(a, getattr(model, a)[o], float_format) for a in _arrays("nout")[0]]
    return "\n".join(lines) + "\n"


def model_text(model, kinds=None, float_format=FLOAT_FORMAT):
    """The whole dump: the header and a block for every object (only the kinds named in
    ``kinds``, e.g. ``["body", "joint"]``, if given)."""
    out = [f"model name     {model.name}", "", "SIZES"]
    out += ["  " + f"{s:<{NAME_WIDTH - 2}}" + INT_FORMAT % getattr(model, s) for s in SIZES if getattr(model, s)]
    out += ["", "OPTION"]
    for f in fields(model.opt):
        value = getattr(model.opt, f.name)
        if isinstance(value, str):                        # integrator, cone, ...: MJCF's names
            text = f" {value}"
        elif isinstance(value, frozenset):                # flags and groups switched: their names
            text = " " + (" ".join(str(v) for v in sorted(value)) or "-")
        else:
            text = "".join(_number(x, float_format) for x in np.ravel(value))
        out.append("  " + f"{f.name:<{NAME_WIDTH - 2}}" + text)
    out += ["", _row("totalmass", [np.sum(model.body_mass)], float_format), "",
            _row("qpos0", model.qpos0, float_format), "", _row("qpos_spring", model.qpos_spring, float_format), ""]
    for size, (kind, _) in KINDS.items():
        if kinds is None or kind in kinds:
            out += [object_text(model, kind, i, float_format) for i in range(getattr(model, size))]
    return "\n".join(out)


def print_model(model, filename=None, kinds=None, float_format=FLOAT_FORMAT):
    """Write :func:`model_text` to ``filename``, or print it (MuJoCo's ``mj_printModel``)."""
    text = model_text(model, kinds, float_format)
    if filename is None:
        sys.stdout.write(text + "\n")
    else:
        with open(filename, "w") as f:
            f.write(text + "\n")
