r"""``MouseEnv``: the mouse as a ``gymnasium`` environment, for reinforcement learning with the
tools students already know (book, chapter 11).

=============  ================================================================================
state          the sensors: ``data.sensordata`` (a copy), ``nsensordata`` numbers; which sensor
               sits where is ``env.sensor_slices`` (``{"imu_gyro": slice(29, 32), ...}``)
action         ``action="gait"`` (default): eight gait parameters scaled to :math:`[-1, 1]`
               (:data:`GAIT_ACTION`; all zeros is the lab's trot), the trot controller
               turns them into joint targets every simulation step;
               ``action="joints"``: the twelve joint targets directly, each actuator's
               ``ctrlrange`` scaled to :math:`[-1, 1]`, in the model's actuator order
reward         forward progress: how far the IMU moved along :math:`x` during the step
               (metres), so an episode's return is the distance travelled
terminated     the mouse fell over: its body's up axis points below the horizon
truncated      ``episode_seconds`` of simulated time have passed
=============  ================================================================================

One environment step lasts ``control_dt`` seconds (``round(control_dt / timestep)``
simulation steps). ``reset`` puts the mouse in the keyframe ``"stand"`` (where the trot
begins) with small random velocities of the joints below the free one (``noise``, from the
environment's seeded random generator, so a seed repeats an episode exactly).

**Engine.** The default engine is rbdl_edu itself, contacts and all; pass ``engine=`` any
simulator with the interface of :mod:`rbdl_edu.lab.engine` (the tests also pass MuJoCo through
``tests/mujoco_engine.py``). An engine that does not simulate contacts is refused
(``NotImplementedError``): the mouse would fall through the ground.

``gymnasium.make("rbdl_edu/Mouse-v0", engine=...)`` makes one too (registered when this module
is imported), wrapped as gymnasium wraps every environment.

There is no on-screen rendering (``render_mode`` must be ``None``): no window, no GLFW; draw
the logged poses with the book's 3D views (the ``viz`` package) instead.

>>> GAIT_ACTION[0], len(GAIT_ACTION)
(('freq', 1.5, 0.5), 8)
>>> gait_from_action(np.zeros(8)) == Gait()          # zero action: the lab's trot
True
"""
from __future__ import annotations

from dataclasses import replace

import gymnasium
import numpy as np

import rbdl_edu
from rbdl_edu.lab import SCENES, scene_path
from rbdl_edu.lab.engine import require_contacts
from rbdl_edu.lab.mouse import Gait, TrotController

#: the gait action: (parameter, value at action 0, change at action ±1)
GAIT_ACTION = (
    ("freq", 1.5, 0.5),             # gait frequency, Hz: 1 ... 2
    ("stride", 0.03, 0.005),        # half-stride a of every oval, m: 25 ... 35 mm
    ("lift", 0.01, 0.006),          # swing height above the centre, m: 4 ... 16 mm
    ("fore_z0", -0.045, 0.005),     # fore ovals' centre below the shoulders, m
    ("hind_z0", -0.05, 0.005),      # hind ovals' centre below the hips, m
    ("swing", 0.4, 0.1),            # fraction of the period in the air: 0.3 ... 0.5
    ("spine_amplitude", 0.0, 0.3),  # spine swing, rad (negative: the other phase); the tail follows
    ("steer", 0.0, 0.2),            # left strides shorter (positive) or longer
)


def gait_from_action(action, base=Gait()):
    """The :class:`~rbdl_edu.lab.mouse.Gait` of a gait action (eight numbers in [-1, 1],
    clipped), every other parameter from ``base``. Every action in the box gives a gait the
    legs can reach within their joint ranges (``tests/test_lab.py`` checks the corners)."""
    a = np.clip(np.asarray(action, dtype=float).reshape(-1), -1, 1)
    if a.shape != (len(GAIT_ACTION),):
        raise ValueError(f"a gait action has {len(GAIT_ACTION)} numbers "
                         f"({', '.join(p for p, _, _ in GAIT_ACTION)}), not shape {np.shape(action)}")
    p = {name: float(v0 + dv * x) for (name, v0, dv), x in zip(GAIT_ACTION, a)}
    fore = replace(base.fore, z0=p["fore_z0"], a=p["stride"], lift=p["lift"])
    hind = replace(base.hind, z0=p["hind_z0"], a=p["stride"], lift=p["lift"])
    return replace(base, freq=p["freq"], fore=fore, hind=hind, swing=p["swing"],
                   spine_amplitude=p["spine_amplitude"], tail_amplitude=p["spine_amplitude"],
                   steer=p["steer"])


class MouseEnv(gymnasium.Env):
    """The mouse walking in a scene; see the module docstring for state, action and reward.

    Parameters
    ----------
    scene : str
        A scene name (:data:`rbdl_edu.lab.SCENES`) or a path to an MJCF file with the mouse.
    engine : optional
        The simulator (default: ``rbdl_edu``; see :mod:`rbdl_edu.lab.engine`).
    action : {"gait", "joints"}
    control_dt, episode_seconds, noise : float
        Seconds per environment step, seconds per episode, standard deviation of the initial
        joint velocities (rad/s).
    render_mode : None
    """
    metadata = {"render_modes": []}

    def __init__(self, scene="flat", engine=None, action="gait", control_dt=0.1, episode_seconds=10.0,
                 noise=0.01, render_mode=None):
        engine = rbdl_edu if engine is None else engine
        require_contacts(engine)
        if render_mode is not None:
            raise ValueError(f"MouseEnv draws nothing on screen: render_mode must be None, not {render_mode!r}")
        if action not in ("gait", "joints"):
            raise ValueError(f"action must be 'gait' or 'joints', not {action!r}")
        self.render_mode, self.engine, self.action_kind = None, engine, action
        path = scene_path(scene) if scene in SCENES else scene
        self.model = engine.load_model(path)
        self.data = engine.Data(self.model)
        m = self.model
        self.n_substeps = max(1, round(control_dt / m.opt.timestep))
        self.max_steps = round(episode_seconds / (self.n_substeps * m.opt.timestep))
        self.noise = float(noise)
        self.trot = TrotController(m, Gait())
        self.sensor_slices = {n: slice(int(m.sensor_adr[s]), int(m.sensor_adr[s] + m.sensor_dim[s]))
                              for s, n in enumerate(m.sensor_names)}
        self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, (m.nsensordata,), np.float64)
        n_act = len(GAIT_ACTION) if action == "gait" else m.nu
        self.action_space = gymnasium.spaces.Box(-1.0, 1.0, (n_act,), np.float32)
        self.actuator_names = tuple(m.actuator_names)
        self._steps = 0

    # -- helpers -------------------------------------------------------------------------------
    def _obs(self):
        return np.array(self.data.sensordata, dtype=np.float64)

    def _x(self):
        return float(self.data.sensor("com_pos").data[0])

    def _upright(self):
        w, x, y, z = self.data.sensor("com_quat").data
        return 1 - 2 * (x * x + y * y) > 0            # the body's z axis, seen from the world, points up

    def _info(self):
        return {"time": float(self.data.time), "x": self._x(), "gait": self.trot.gait}

    # -- the gymnasium API ---------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        """Back to the keyframe ``"stand"``, the trot at its first step, small random joint
        velocities; returns ``(observation, info)``."""
        super().reset(seed=seed)
        e, m, d = self.engine, self.model, self.data
        e.reset(m, d, "stand")
        d.qvel[6:] = self.np_random.normal(scale=self.noise, size=m.nv - 6)
        self.trot.set_gait(Gait())
        self.trot.reset()
        e.forward(m, d)
        self._steps = 0
        return self._obs(), self._info()

    def step(self, action):
        """Apply ``action`` for ``control_dt`` seconds; returns ``(observation, reward,
        terminated, truncated, info)``."""
        e, m, d = self.engine, self.model, self.data
        action = np.asarray(action, dtype=float)
        if action.shape != self.action_space.shape:
            raise ValueError(f"action shape {action.shape}, expected {self.action_space.shape}")
        if self.action_kind == "gait":
            self.trot.set_gait(gait_from_action(action))
        else:
            lo, hi = np.asarray(m.actuator_ctrlrange, dtype=float).T
            ctrl = lo + (np.clip(action, -1, 1) + 1) / 2 * (hi - lo)
        x0 = self._x()
        for _ in range(self.n_substeps):
            if self.action_kind == "gait":
                self.trot(d)
            else:
                d.ctrl[:] = ctrl
            e.step(m, d)
        e.forward(m, d)                                # sensors at the new state
        self._steps += 1
        reward = self._x() - x0
        terminated = not self._upright()
        truncated = self._steps >= self.max_steps
        return self._obs(), reward, terminated, truncated, self._info()


#: the id under which ``gymnasium.make`` finds the environment
ENV_ID = "rbdl_edu/Mouse-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point="rbdl_edu.lab.env:MouseEnv")
