"""The simulation options (MuJoCo's ``mjOption``): :class:`Option`, read from ``<option>``,
and the names of the ``<flag>`` switches it may turn off (:data:`DISABLE_FLAGS`) or on
(:data:`ENABLE_FLAGS`). A :class:`~rbdl_edu.model.model.Model` holds one as ``model.opt``.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field

import numpy as np

#: the ``<option><flag>`` switches: on by default (``disableflags`` turns them off) ...
DISABLE_FLAGS = frozenset({
    "constraint", "equality", "frictionloss", "limit", "contact", "spring", "damper", "gravity",
    "clampctrl", "warmstart", "filterparent", "actuation", "refsafe", "sensor", "midphase",
    "eulerdamp", "autoreset", "nativeccd", "island", "multiccd", "passive"})
#: ... and off by default (``enableflags`` turns them on)
ENABLE_FLAGS = frozenset({"override", "energy", "fwdinv", "invdiscrete", "sleep"})
#: the options that take a name, and the names they take
CHOICES = {"integrator": frozenset({"Euler", "RK4", "implicit", "implicitfast"}), "cone": frozenset({"pyramidal", "elliptic"}),
           "solver": frozenset({"PGS", "CG", "Newton"}), "jacobian": frozenset({"dense", "sparse", "auto"})}
#: the options that are vectors, and their sizes
VECTORS = {"gravity": 3, "wind": 3, "magnetic": 3, "o_solref": 2, "o_solimp": 5, "o_friction": 5}


@dataclass(frozen=True)
class Option:
    """Simulation options (MuJoCo's ``mjOption``), read from ``<option>``.

    ``integrator``, ``cone``, ``solver`` and ``jacobian`` are the names MJCF uses
    (``"Euler"``, ``"pyramidal"``, ``"Newton"``, ``"auto"``); ``disableflags`` and
    ``enableflags`` are sets of flag names (``{"gravity"}``) rather than bit masks, and
    ``actuatorgroupdisable`` the set of actuator groups (0 to 30) switched off (MuJoCo's
    ``disableactuator`` bits).
    """
    timestep: float = 0.002
    gravity: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, -9.81]))
    wind: np.ndarray = field(default_factory=lambda: np.zeros(3))
    magnetic: np.ndarray = field(default_factory=lambda: np.array([0.0, -0.5, 0.0]))
    density: float = 0.0
    viscosity: float = 0.0
    impratio: float = 1.0
    o_margin: float = 0.0
    o_solref: np.ndarray = field(default_factory=lambda: np.array([0.02, 1.0]))
    o_solimp: np.ndarray = field(default_factory=lambda: np.array([0.9, 0.95, 0.001, 0.5, 2.0]))
    o_friction: np.ndarray = field(default_factory=lambda: np.array([1.0, 1.0, 0.005, 0.0001, 0.0001]))
    integrator: str = "Euler"
    cone: str = "pyramidal"
    jacobian: str = "auto"
    solver: str = "Newton"
    iterations: int = 100
    tolerance: float = 1e-8
    ls_iterations: int = 50
    ls_tolerance: float = 0.01
    noslip_iterations: int = 0
    noslip_tolerance: float = 1e-6
    ccd_iterations: int = 35
    ccd_tolerance: float = 1e-6
    sleep_tolerance: float = 1e-3
    disableflags: frozenset = frozenset()
    enableflags: frozenset = frozenset()
    actuatorgroupdisable: frozenset = frozenset()

    def __post_init__(self):
        """Every option set in code is checked as the MJCF reader checks ``<option>``: names
        and flags against the valid ones (listed in the error), numbers finite.

        >>> Option(cone="Elliptic")
        Traceback (most recent call last):
            ...
        ValueError: option cone='Elliptic' is not one of ['elliptic', 'pyramidal']
        >>> Option(disableflags={"gravty"})          # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        ValueError: unknown disable flag 'gravty'; did you mean 'gravity'? The flags: ['actuation', ...]
        """
        for name, valid in CHOICES.items():
            if getattr(self, name) not in valid:
                raise ValueError(f"option {name}={getattr(self, name)!r} is not one of {sorted(valid)}")
        for name, valid in (("disableflags", DISABLE_FLAGS), ("enableflags", ENABLE_FLAGS)):
            flags = getattr(self, name)
            if isinstance(flags, str):
                raise TypeError(f"option {name} is a set of flag names, not the string {flags!r}")
            flags = frozenset(flags)
            for flag in sorted(flags - valid):
                near = difflib.get_close_matches(flag, valid, n=1)
                raise ValueError(f"unknown {name[:-5]} flag {flag!r}; "
                                 + (f"did you mean {near[0]!r}? " if near else "")
                                 + f"The flags: {sorted(valid)}")
            object.__setattr__(self, name, flags)
        groups = frozenset(self.actuatorgroupdisable)
        if any(isinstance(g, bool) or not float(g).is_integer() or not 0 <= g <= 30 for g in groups):
            raise ValueError(f"option actuatorgroupdisable={sorted(groups)!r}: groups are whole numbers 0 to 30")
        object.__setattr__(self, "actuatorgroupdisable", frozenset(int(g) for g in groups))
        for name, size in VECTORS.items():
            x = np.array(getattr(self, name))                # SymPy symbols stay (a symbolic g)
            x = x if x.dtype == object else x.astype(float)
            if x.shape != (size,) or (x.dtype != object and not np.all(np.isfinite(x))):
                raise ValueError(f"option {name} must be {size} finite numbers, not {getattr(self, name)!r}")
            object.__setattr__(self, name, x)
        for name in ("timestep", "density", "viscosity", "impratio", "o_margin", "tolerance", "ls_tolerance",
                     "noslip_tolerance", "ccd_tolerance", "sleep_tolerance"):
            if not np.isfinite(float(getattr(self, name))):
                raise ValueError(f"option {name}={getattr(self, name)} must be a finite number")
        if not self.timestep > 0:
            raise ValueError(f"option timestep={self.timestep} must be positive")
        if not self.impratio > 0:
            raise ValueError(f"option impratio={self.impratio} must be positive")
        for name in ("iterations", "ls_iterations", "noslip_iterations", "ccd_iterations"):
            n = getattr(self, name)
            if isinstance(n, bool) or not float(n).is_integer() or n < 0:
                raise ValueError(f"option {name}={n!r} must be a whole number >= 0")

    def disabled(self, flag: str) -> bool:
        """True if ``<flag name="disable"/>`` switched ``flag`` off.

        >>> Option(disableflags=frozenset({"gravity"})).disabled("gravity")
        True
        """
        if flag not in DISABLE_FLAGS:
            raise ValueError(f"unknown flag {flag!r}; expected one of {sorted(DISABLE_FLAGS)}")
        return flag in self.disableflags

    def actuator_disabled(self, group) -> bool:
        """True if actuators of ``group`` are switched off (``actuatorgroupdisable``); a group
        outside 0..30 always acts, as in MuJoCo.

        >>> Option(actuatorgroupdisable={1, 3}).actuator_disabled(3)
        True
        """
        return 0 <= group <= 30 and int(group) in self.actuatorgroupdisable

    def enabled(self, flag: str) -> bool:
        """True if ``<flag name="enable"/>`` switched the optional ``flag`` on."""
        if flag not in ENABLE_FLAGS:
            raise ValueError(f"unknown flag {flag!r}; expected one of {sorted(ENABLE_FLAGS)}")
        return flag in self.enableflags
