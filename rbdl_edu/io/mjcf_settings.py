"""``<compiler>`` and ``<option>``: the settings that change how an MJCF file compiles and
how it simulates.

>>> from rbdl_edu.io.xmlread import parse_xml
>>> read_compiler([parse_xml('<compiler angle="radian" eulerseq="ZYX"/>')]).eulerseq
'ZYX'
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field, fields

import numpy as np

from rbdl_edu.io.mjcf_defaults import check_attributes
from rbdl_edu.io.orientation import check_eulerseq
from rbdl_edu.model.option import DISABLE_FLAGS


@dataclass(frozen=True)
class LengthRangeOptions:
    """``<compiler><lengthrange>`` (MuJoCo's ``mjLROpt``): which actuators get a length range
    after compiling, and the simulation that finds it
    (:func:`rbdl_edu.simulation.lengthrange.set_length_ranges`, which the loader runs).

    ``mode``: the actuators that need one (``none``, ``muscle``, ``muscleuser``, ``all``);
    ``useexisting``: keep a range given (lower < upper); ``uselimit``: copy a limited joint's
    or tendon's range. Any other is found by simulating, for ``inttotal`` seconds at
    ``timestep`` each way, the model pushed along the actuator with acceleration ``accel``
    (the force at most ``maxforce`` if positive), velocities damped with time constant
    ``timeconst``; the range is the lengths' extremes over the last ``interval`` seconds, which
    must have settled to within ``tolrange`` of the range."""
    mode: str = "muscle"
    useexisting: bool = True
    uselimit: bool = False
    accel: float = 20.0
    maxforce: float = 0.0
    timeconst: float = 1.0
    timestep: float = 0.01
    inttotal: float = 10.0
    interval: float = 2.0
    tolrange: float = 0.05


#: a compiled model -> the length-range options of the file it came from (the loader's
#: next step; a model compiled otherwise gets the defaults)
_LENGTHRANGE = weakref.WeakKeyDictionary()


def remember_lengthrange(model, options):
    """Record the ``<compiler><lengthrange>`` options ``model`` was compiled with; returns it."""
    _LENGTHRANGE[model] = options
    return model


def lengthrange_options(model):
    """The :class:`LengthRangeOptions` ``model`` was compiled with (the defaults if not from MJCF)."""
    return _LENGTHRANGE.get(model, LengthRangeOptions())


@dataclass
class CompilerSettings:
    """The ``<compiler>`` attributes that change the compiled model."""
    degrees: bool = True                 # angle="degree" (MJCF's default)
    eulerseq: str = "xyz"
    inertiafromgeom: str = "auto"        # "true", "false", "auto": only bodies without <inertial>
    inertiagrouprange: tuple = (0, 5)    # geom groups that count for inertia
    autolimits: bool = True              # a range given means limited="true"
    boundmass: float = 0.0
    boundinertia: float = 0.0
    balanceinertia: bool = False
    settotalmass: float = -1.0
    meshdir: str = ""
    assetdir: str = ""
    lengthrange: LengthRangeOptions = field(default_factory=LengthRangeOptions)


def read_compiler(sections):
    """The :class:`CompilerSettings` of all ``<compiler>`` elements (later ones win)."""
    s = CompilerSettings()
    for node in sections:
        check_attributes(node)
        for child in node.children:
            if child.tag != "lengthrange":
                raise child.error(f"<{child.tag}> inside <compiler> is not supported")
            s.lengthrange = _read_lengthrange(child, s.lengthrange)
        s.degrees = node.keyword("angle", ("degree", "radian"), "degree" if s.degrees else "radian") == "degree"
        if node.has("eulerseq"):
            s.eulerseq = check_eulerseq(node, node.get("eulerseq"))
        s.inertiafromgeom = node.keyword("inertiafromgeom", ("true", "false", "auto"), s.inertiafromgeom)
        if node.has("inertiagrouprange"):
            s.inertiagrouprange = tuple(int(v) for v in node.floats("inertiagrouprange", 2))
        s.autolimits = node.bool("autolimits", s.autolimits)
        s.boundmass = node.float("boundmass", s.boundmass)
        s.boundinertia = node.float("boundinertia", s.boundinertia)
        s.balanceinertia = node.bool("balanceinertia", s.balanceinertia)
        s.settotalmass = node.float("settotalmass", s.settotalmass)
        s.meshdir = node.get("meshdir", s.meshdir)
        s.assetdir = node.get("assetdir", s.assetdir)
        if node.keyword("coordinate", ("local", "global"), "local") == "global":
            raise node.error("global coordinates are not supported (nor by MuJoCo >= 2.3.3)",
                             "coordinate")
        # settings that would change the tree or its inertias in ways not reproduced here
        for flag in ("fusestatic", "discardvisual", "alignfree"):
            if node.bool(flag, False):
                raise node.error(f'{flag}="true" is not supported', flag)
    return s


def _read_lengthrange(node, before):
    """``<lengthrange>``'s attributes over ``before`` (a :class:`LengthRangeOptions`)."""
    check_attributes(node)
    values = {}
    for f in fields(LengthRangeOptions):
        old = getattr(before, f.name)
        if f.name == "mode":
            values[f.name] = node.keyword("mode", ("none", "muscle", "muscleuser", "all"), old)
        elif isinstance(old, bool):
            values[f.name] = node.bool(f.name, old)
        else:
            values[f.name] = node.float(f.name, old)
    return LengthRangeOptions(**values)


def read_option(sections):
    """Keyword arguments for :class:`~rbdl_edu.model.Option` from all ``<option>`` elements
    (later ones win)."""
    opt = dict(gravity=np.array([0.0, 0.0, -9.81]), timestep=0.002)
    disabled, enabled = set(), set()
    for node in sections:
        check_attributes(node)
        for key in ("timestep", "impratio", "tolerance", "density", "viscosity", "o_margin",
                    "ls_tolerance", "noslip_tolerance", "ccd_tolerance", "sleep_tolerance"):
            if node.has(key):
                opt[key] = node.float(key)
        for key in ("iterations", "ls_iterations", "noslip_iterations", "ccd_iterations"):
            if node.has(key):
                opt[key] = node.int(key)
        for key, n in (("gravity", 3), ("wind", 3), ("magnetic", 3), ("o_solref", 2), ("o_solimp", 5),
                       ("o_friction", 5)):
            if node.has(key):
                opt[key] = node.floats(key, n)
        if node.get("actuatorgroupdisable", "").strip():
            groups = node.floats("actuatorgroupdisable")
            if np.any(groups != np.round(groups)) or np.any(groups < 0) or np.any(groups > 30) or len(groups) > 31:
                raise node.error("actuatorgroupdisable takes at most 31 actuator groups, whole numbers 0 to 30",
                                 "actuatorgroupdisable")
            opt["actuatorgroupdisable"] = frozenset(opt.get("actuatorgroupdisable", frozenset())) | \
                frozenset(int(g) for g in groups)
        if node.has("timestep") and opt["timestep"] <= 0:
            raise node.error("timestep must be positive", "timestep")
        opt["integrator"] = node.keyword("integrator", ("Euler", "RK4", "implicit", "implicitfast"),
                                         opt.get("integrator", "Euler"))
        opt["cone"] = node.keyword("cone", ("pyramidal", "elliptic"), opt.get("cone", "pyramidal"))
        opt["solver"] = node.keyword("solver", ("PGS", "CG", "Newton"), opt.get("solver", "Newton"))
        opt["jacobian"] = node.keyword("jacobian", ("dense", "sparse", "auto"), opt.get("jacobian", "auto"))
        for flag in node.children:
            if flag.tag != "flag":
                raise flag.error(f"<{flag.tag}> inside <option> is not supported")
            check_attributes(flag)
            for name in flag.attrib:
                value = flag.keyword(name, ("enable", "disable"))
                if name in DISABLE_FLAGS:
                    (disabled.add if value == "disable" else disabled.discard)(name)
                else:
                    (enabled.add if value == "enable" else enabled.discard)(name)
    opt["disableflags"], opt["enableflags"] = frozenset(disabled), frozenset(enabled)
    return opt
