"""The simulation options (MuJoCo's ``mjOption``): :class:`Option`, read from ``<option>``,
and the names of the ``<flag>`` switches it may turn off (:data:`DISABLE_FLAGS`) or on
(:data:`ENABLE_FLAGS`). A :class:`~rbdl_edu.model.model.Model` holds one as ``model.opt``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: the ``<option><flag>`` switches: on by default (``disableflags`` turns them off) ...
DISABLE_FLAGS = frozenset({
    "constraint", "equality", "frictionloss", "limit", "contact", "spring", "damper", "gravity",
    "clampctrl", "warmstart", "filterparent", "actuation", "refsafe", "sensor", "midphase",
    "eulerdamp", "autoreset", "nativeccd", "island", "multiccd", "passive"})
#: ... and off by default (``enableflags`` turns them on)
ENABLE_FLAGS = frozenset({"override", "energy", "fwdinv", "invdiscrete", "sleep"})


@dataclass(frozen=True)
class Option:
    """Simulation options (MuJoCo's ``mjOption``), read from ``<option>``.

    ``integrator``, ``cone``, ``solver`` and ``jacobian`` are the names MJCF uses
    (``"Euler"``, ``"pyramidal"``, ``"Newton"``, ``"auto"``); ``disableflags`` and
    ``enableflags`` are sets of flag names (``{"gravity"}``) rather than bit masks.
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
    disableflags: frozenset = frozenset()
    enableflags: frozenset = frozenset()

    def disabled(self, flag: str) -> bool:
        """True if ``<flag name="disable"/>`` switched ``flag`` off.

        >>> Option(disableflags=frozenset({"gravity"})).disabled("gravity")
        True
        """
        if flag not in DISABLE_FLAGS:
            raise ValueError(f"unknown flag {flag!r}; expected one of {sorted(DISABLE_FLAGS)}")
        return flag in self.disableflags

    def enabled(self, flag: str) -> bool:
        """True if ``<flag name="enable"/>`` switched the optional ``flag`` on."""
        if flag not in ENABLE_FLAGS:
            raise ValueError(f"unknown flag {flag!r}; expected one of {sorted(ENABLE_FLAGS)}")
        return flag in self.enableflags
