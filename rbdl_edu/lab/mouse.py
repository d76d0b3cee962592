r"""The mouse's trot: oval foot paths, phases between the legs, and the controller that turns
them into joint targets every step (book, chapter 11).

**Foot paths.** Each foot follows an oval in its leg's plane (hip frame, :math:`x` forward,
:math:`z` up; :mod:`~rbdl_edu.lab.legs`). The oval has a centre :math:`(x_0, z_0)`, a
half-stride :math:`a`, and two different halves: the upper one (the swing, the foot in the
air, moving forwards) rises :math:`b_\uparrow` above the centre, the lower one (the stance,
the foot on the ground pushing the body forwards) dips :math:`b_\downarrow` below it. With
:math:`\alpha` running from 0 to :math:`2\pi` around the oval,

.. math::
    x = x_0 - a\cos\alpha, \qquad
    z = z_0 + b\,\sin\alpha, \quad b = b_\uparrow \text{ for } \alpha < \pi,\; b_\downarrow \text{ after}.

The swing takes the fraction ``swing`` of the gait period, the stance the rest.

**Trot.** One period of the gait lasts :math:`1/f` seconds, ``steps_per_period``
:math:`N = \mathrm{round}(1 / (f\,\Delta t))` simulation steps. Leg :math:`i` is ahead of the
gait's clock by ``phases[i]``, i.e. by :math:`\mathrm{round}(N \varphi_i / 2\pi)` steps; the trot's phases
``(0, π, π, 0)`` for (fore-left, fore-right, hind-left, hind-right) move the diagonal pairs
together, half a period apart. The gait frequency the simulation really runs is
:math:`1 / (N \Delta t)` (``TrotController.frequency``).

**Turning.** ``turn_fore``/``turn_hind`` rotate the target about the hip in the leg's plane
(:math:`x' = x\cos\theta - z\sin\theta`, :math:`z' = z\cos\theta + x\sin\theta`): the oval
leans, which pushes the body up or down as well as forwards (the lab's own knob).
``steer`` shortens the strides of one side and lengthens the other's, so the mouse walks
in a curve (positive: to its left); ``spine_offset`` bends the spine towards a side.

**Spine mode.** With ``spine_amplitude > 0`` the spine swings sideways at the gait frequency,
``spine_phase`` ahead of the clock, the tail swings against it and the neck undoes the
spine's turn so the head keeps looking ahead.

Every target is checked against the actuator's ``ctrlrange`` when the controller is made (a
whole period of them), and a foot target out of the leg's reach is a ``ValueError``.

The controller only needs what every engine offers (:mod:`rbdl_edu.lab.engine`): actuators
by name (``model.id("actuator", name)``), ``model.actuator_ctrlrange``,
``model.opt.timestep`` and ``data.ctrl``.

>>> import rbdl_edu as rbd
>>> from rbdl_edu.lab import scene_path
>>> model = rbd.load_model(scene_path("flat")); data = rbd.Data(model)
>>> trot = TrotController(model, Gait())          # 1.5 Hz, 5 ms steps
>>> trot.steps_per_period, round(trot.frequency, 4)
(133, 1.5038)
>>> trot(data)                        # writes data.ctrl for this step, then counts it
>>> np.round(np.degrees(data.ctrl[:2]), 2)       # hip and knee of the fore-left leg
array([-73.1 ,  78.82])
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from rbdl_edu.lab.legs import LEG, leg_ik

#: the legs in the order of ``Gait.phases``: fore-left, fore-right, hind-left, hind-right
LEGS = ("fl", "fr", "rl", "rr")
#: +1: the knee bends backwards (fore legs), -1: forwards (hind legs)
KNEE = {"fl": 1, "fr": 1, "rl": -1, "rr": -1}
#: +1 for the legs on the mouse's left
SIDE = {"fl": 1, "fr": -1, "rl": 1, "rr": -1}


@dataclass(frozen=True)
class Oval:
    r"""An oval foot path in the hip frame: centre ``(x0, z0)``, half-stride ``a``, height
    ``lift`` of the upper half (swing) and depth ``press`` of the lower half (stance), metres."""
    x0: float
    z0: float
    a: float = 0.03
    lift: float = 0.01
    press: float = 0.005

    def point(self, alpha):
        r"""The point at angle ``alpha`` (radians, a float or an array; the upper half for
        :math:`\alpha \in [0, \pi)`).

        >>> Oval(0.0, -0.045).point(np.pi / 2)          # top of the swing
        (0.0, -0.035)
        """
        alpha = np.mod(alpha, 2 * math.pi)
        b = np.where(alpha < math.pi, self.lift, self.press)
        x, z = self.x0 - self.a * np.cos(alpha), self.z0 + b * np.sin(alpha)
        return _out(x), _out(z)


@dataclass(frozen=True)
class Gait:
    r"""Parameters of the trot (angles in radians, lengths in metres, frequency in hertz).

    The defaults are the lab's trot: fore ovals centred 45 mm and hind ovals 50 mm below the
    hips, 30 mm half-stride, 10 mm lift, 5 mm press, at 1.5 Hz, the feet in the air for 40 % of
    the period (so both diagonal pairs stand together for a moment twice per period).
    """
    freq: float = 1.5
    fore: Oval = Oval(0.0, -0.045)
    hind: Oval = Oval(0.0, -0.050)
    phases: tuple = (0.0, math.pi, math.pi, 0.0)
    swing: float = 0.4
    turn_fore: float = 0.0
    turn_hind: float = 0.0
    steer: float = 0.0
    spine_amplitude: float = 0.0
    spine_phase: float = 0.0
    spine_offset: float = 0.0
    tail_amplitude: float = 0.0
    head_pitch: float = 0.0

    def __post_init__(self):
        if not self.freq > 0:
            raise ValueError(f"gait frequency must be positive, not {self.freq}")
        if not 0 < self.swing < 1:
            raise ValueError(f"swing must be a fraction of the period in (0, 1), not {self.swing}")
        if len(self.phases) != 4:
            raise ValueError(f"phases needs one phase per leg {LEGS}, got {len(self.phases)}")
        if not -1 < self.steer < 1:
            raise ValueError(f"steer must be in (-1, 1), not {self.steer}")


def foot_target(gait, leg, phase):
    r"""Where leg ``leg``'s foot should be (hip frame) at gait phase ``phase`` (radians, a
    float or an array).

    The swing covers phases :math:`[0, 2\pi s)`, the stance the rest of the period.

    >>> foot_target(Gait(), "fl", 0.0)              # start of the swing: behind, at the centre's height
    (-0.03, -0.045)
    """
    s = gait.swing
    phase = np.mod(phase, 2 * math.pi)
    # the swing is the oval's upper half, the stance its lower half, each at its own pace
    alpha = np.where(phase < 2 * math.pi * s, phase / (2 * s),
                     math.pi + (phase - 2 * math.pi * s) / (2 * (1 - s)))
    oval = gait.fore if leg in ("fl", "fr") else gait.hind
    # steering: one side strides shorter, the other longer
    oval = replace(oval, a=oval.a * (1 - SIDE[leg] * gait.steer))
    x, z = oval.point(alpha)
    # turning: rotate the target about the hip in the leg's plane
    theta = gait.turn_fore if leg in ("fl", "fr") else gait.turn_hind
    if theta:
        x, z = math.cos(theta) * x - math.sin(theta) * z, math.cos(theta) * z + math.sin(theta) * x
    return _out(x), _out(z)


def _out(x):
    """A float for a 0-d result (rounded to 15 digits, without a negative zero), else the array."""
    x = np.asarray(x)
    return round(float(x), 15) + 0.0 if x.ndim == 0 else x


class TrotController:
    """Joint targets of the trot for every simulation step.

    Parameters
    ----------
    model
        A mouse model (any engine, see :mod:`rbdl_edu.lab.engine`) with actuators named
        ``hip_<leg>``, ``knee_<leg>``, ``spine``, ``tail``, ``neck``, ``head``.
    gait : Gait
    leg : Leg
        Link lengths for the inverse kinematics (the model's, see ``mouse.xml``).

    Call it once per simulation step, ``controller(data)``: it writes ``data.ctrl`` and
    counts the step. ``targets(k)`` gives the targets of step ``k`` without side effects;
    ``table`` ``(12, steps_per_period)`` holds a whole period of them (what the call reads).
    """

    def __init__(self, model, gait=Gait(), leg=LEG):
        self.model, self.leg = model, leg
        self.timestep = float(model.opt.timestep)
        names = [f"{j}_{leg_}" for leg_ in LEGS for j in ("hip", "knee")] + ["spine", "tail", "neck", "head"]
        self.names = tuple(names)
        self.ids = np.array([model.id("actuator", n) for n in names])
        # each target's actuator range (model constants, read once): low, high, limited
        self._lo, self._hi = np.array(model.actuator_ctrlrange, dtype=float)[self.ids].T
        self._limited = np.asarray(model.actuator_ctrllimited, bool)[self.ids]
        self.step = 0
        self.set_gait(gait)

    def set_gait(self, gait):
        """Switch to ``gait`` at the same fraction of the period (the legs do not jump in
        phase); check a whole period of its targets against the legs' reach and the
        actuators' ranges. A gait that fails leaves the controller as it was. The gait it
        already runs (a constant action, every environment step) keeps its table."""
        if gait == getattr(self, "gait", None):      # equal parameters: the same period of targets
            self.step %= self.steps_per_period
            return
        before = dict(self.__dict__)
        old = getattr(self, "steps_per_period", None)
        self.gait = gait
        N = max(2, round(1.0 / (gait.freq * self.timestep)))
        if old is not None:
            self.step = round(self.step % old / old * N)
        self.steps_per_period = N
        # phases become whole numbers of steps
        self.step_diff = [round(N * p / (2 * math.pi)) for p in gait.phases]
        self.spine_diff = round(N * gait.spine_phase / (2 * math.pi))
        try:
            # the targets repeat every period: compute one period once, check it, look it up
            self.table = self.targets(np.arange(N))
            self._check_ranges()
        except ValueError:
            self.__dict__.update(before)
            raise

    @property
    def frequency(self):
        """The gait frequency the simulation runs: one period every ``steps_per_period`` steps (Hz)."""
        return 1.0 / (self.steps_per_period * self.timestep)

    def targets(self, k):
        """The joint targets at step ``k`` (radians), in the order of ``self.names``:
        ``(12,)``, or ``(12, n)`` for an array of ``n`` steps."""
        N, g = self.steps_per_period, self.gait
        k = np.asarray(k)
        out = []
        for i, leg in enumerate(LEGS):
            # the step number becomes this leg's phase
            phase = 2 * math.pi * ((k + self.step_diff[i]) % N) / N
            out.extend(leg_ik(*foot_target(g, leg, phase), knee=KNEE[leg], leg=self.leg))
        wave = np.sin(2 * math.pi * ((k + self.spine_diff) % N) / N)
        spine = g.spine_offset + g.spine_amplitude * wave
        out.extend([spine, -g.tail_amplitude * wave, -spine, np.full(k.shape, g.head_pitch)])
        return np.array(np.broadcast_arrays(*out), dtype=float)

    def __call__(self, data):
        """Write this step's targets into ``data.ctrl`` and count the step."""
        data.ctrl[self.ids] = self.table[:, self.step % self.steps_per_period]
        self.step += 1

    def reset(self):
        """Back to step 0 of the gait."""
        self.step = 0

    def _check_ranges(self):
        lo, hi, limited = self._lo, self._hi, self._limited
        q = self.table                                               # a whole period
        out = limited[:, None] & ((q < lo[:, None] - 1e-12) | (q > hi[:, None] + 1e-12))
        if out.any():
            i, k = np.unravel_index(np.argmax(out), out.shape)
            raise ValueError(f"gait {self.gait}: the target {np.degrees(q[i, k]):.4g} deg of actuator "
                             f"{self.names[i]!r} at step {k} of the period is outside its ctrlrange "
                             f"[{np.degrees(lo[i]):.4g}, {np.degrees(hi[i]):.4g}] deg")
