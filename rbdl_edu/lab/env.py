r"""``MouseEnv``: the mouse as a ``gymnasium`` environment, for reinforcement learning with the
tools students already know (book, chapter 11).

=============  ================================================================================
state          the sensors: ``data.sensordata`` (a copy), ``nsensordata`` numbers; which sensor
               sits where is ``env.sensor_slices`` (``{"imu_gyro": slice(29, 32), ...}``)
action         ``action="gait"`` (default): eight gait parameters scaled to :math:`[-1, 1]`
               (:data:`GAIT_ACTION`; all zeros is the lab's trot), the trot controller
               turns them into joint targets every simulation step;
               ``action="joints"``: the twelve joint targets directly, each actuator's
               ``ctrlrange`` scaled to :math:`[-1, 1]`, in the model's actuator order;
               ``action="residual"``: corrections to the lab's trot, every simulation step
               the trot's targets plus ``residual_scale`` radians times the action (the
               controller's order, :attr:`TrotController.names`), kept in ``ctrlrange``
               (as both engines clamp a limited control anyway); all zeros is the trot
reward         forward progress: how far the IMU moved along :math:`x` during the step
               (metres), so an episode's return is the distance travelled
terminated     the mouse fell over: its body's up axis points below the horizon
truncated      ``episode_seconds`` of simulated time have passed
=============  ================================================================================

One environment step lasts ``control_dt`` seconds (``round(control_dt / timestep)``
simulation steps). ``reset`` puts the mouse in the keyframe ``"stand"`` (where the trot
begins) with small random velocities of the joints below the free one (``noise``, from the
environment's seeded random generator, so a seed repeats an episode exactly).

**Terrain and obstacle, per episode.** ``scene`` names the ground (a key of
:data:`~rbdl_edu.lab.SCENES`, or an MJCF path); ``obstacle`` (a key of
:data:`~rbdl_edu.lab.OBSTACLES`: ``"plank"``, ``"bar"``, ...) starts the mouse 6 cm before
that obstacle, in its scene, with the start spread uniformly by ``start_spread`` metres.
Either may be a list: each ``reset`` then draws one from the environment's random generator
(a seed repeats the draw). ``reset(options={"scene": ..., "obstacle": ..., "start": x})``
chooses for one episode instead. ``info`` says what was chosen (``"scene"``,
``"obstacle"``) and, with an obstacle, whether both hind feet are past it (``"past"``).
Every scene is loaded once, when first drawn.

**Engine.** ``engine="rbdl_edu"`` (the default) or ``"mujoco"`` (the same controller on MuJoCo
4.0, a few hundred times faster; the two agree to round-off), or any simulator with the
interface of :mod:`rbdl_edu.lab.engine`. An engine that does not simulate contacts is refused
(``NotImplementedError``): the mouse would fall through the ground.

**Bad input.** An unknown engine or scene or obstacle, an action of the wrong shape or outside
the box :math:`[-1, 1]` (or not finite) are ``ValueError``\ s naming what was expected: an
action is never clipped silently.

``gymnasium.make("rbdl_edu/Mouse-v0", engine=...)`` makes one too (see
:mod:`rbdl_edu.lab.registration`), wrapped as gymnasium wraps every environment, and
``gymnasium.make_vec("rbdl_edu/Mouse-v0", num_envs=N, vectorization_mode="async", ...)``
runs ``N`` mice in ``N`` processes.

There is no on-screen rendering (``render_mode`` must be ``None``): no window, no GLFW; draw
the logged poses with the book's 3D views (the ``viz`` package) instead.

>>> GAIT_ACTION[0], len(GAIT_ACTION)
(('freq', 1.5, 0.5), 8)
>>> gait_from_action(np.zeros(8)) == Gait()          # zero action: the lab's trot
True
"""
from __future__ import annotations

import os
from dataclasses import replace

import gymnasium
import numpy as np

from rbdl_edu.lab import OBSTACLES, SCENES, scene_path
from rbdl_edu.lab.engine import (between_observations, forwarded_state, get_engine, require_contacts,
                                  step_after_forward)
from rbdl_edu.lab.mouse import LEGS, Gait, TrotController
from rbdl_edu.lab.registration import ENV_ID  # noqa: F401 (the id, where the tests look for it)

#: the torso starts this far before an obstacle's near edge (m): the fore feet 5 to 65 mm from it
BEFORE_OBSTACLE = 0.06

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


def _choices(what, value, known):
    """``value`` (a name or a list of names) as a tuple of names of ``known``, checked."""
    names = (value,) if isinstance(value, (str, os.PathLike)) else tuple(value)
    if not names:
        raise ValueError(f"no {what} to choose from: give one of {sorted(known)} or a list of them")
    return names


class MouseEnv(gymnasium.Env):
    """The mouse walking in a scene; see the module docstring for state, action, reward, the
    choice of terrain and obstacle, and the engines.

    Parameters
    ----------
    scene : str or list of str
        A scene name (:data:`rbdl_edu.lab.SCENES`) or a path to an MJCF file with the mouse;
        a list: one drawn per episode.
    engine : str or engine
        ``"rbdl_edu"`` (default) or ``"mujoco"`` (:data:`rbdl_edu.lab.engine.ENGINES`), or an
        engine object (:mod:`rbdl_edu.lab.engine`).
    action : {"gait", "joints", "residual"}
    residual_scale : float
        Radians per unit of a residual action.
    control_dt, episode_seconds, noise : float
        Seconds per environment step, seconds per episode, standard deviation of the initial
        joint velocities (rad/s).
    obstacle : None, str or list of str
        Start before this obstacle (:data:`rbdl_edu.lab.OBSTACLES`), in its scene (``scene``
        is then not used); a list: one drawn per episode.
    start_spread : float
        With an obstacle: the start moves by up to this many metres either way (drawn).
    render_mode : None
    """
    metadata = {"render_modes": []}

    def __init__(self, scene="flat", engine="rbdl_edu", action="gait", control_dt=0.1, episode_seconds=10.0,
                 noise=0.01, obstacle=None, start_spread=0.01, residual_scale=0.3, render_mode=None):
        engine = get_engine(engine)
        require_contacts(engine)
        if render_mode is not None:
            raise ValueError(f"MouseEnv draws nothing on screen: render_mode must be None, not {render_mode!r}")
        if action not in ("gait", "joints", "residual"):
            raise ValueError(f"action must be 'gait', 'joints' or 'residual', not {action!r}")
        self.render_mode, self.engine, self.action_kind = None, engine, action
        self.control_dt, self.episode_seconds = float(control_dt), float(episode_seconds)
        self.noise, self.start_spread = float(noise), float(start_spread)
        self.residual_scale = float(residual_scale)
        self.scenes = _choices("scene", scene, SCENES)
        self.obstacles = None if obstacle is None else _choices("obstacle", obstacle, OBSTACLES)
        for o in self.obstacles or ():
            self._check_obstacle(o)
        self._loaded = {}                                  # scene -> (model, data, trot)
        first = OBSTACLES[self.obstacles[0]].scene if self.obstacles else self.scenes[0]
        self._use(first)
        m = self.model
        self.sensor_slices = {n: slice(int(m.sensor_adr[s]), int(m.sensor_adr[s] + m.sensor_dim[s]))
                              for s, n in enumerate(m.sensor_names)}
        missing = [n for n in ("com_pos", "com_quat") if n not in self.sensor_slices]
        if missing:
            raise ValueError(f"scene {first!r} has no sensor {missing[0]!r}: MouseEnv's reward and termination "
                             f"read it (the lab's mouse has it; this model's sensors: {sorted(self.sensor_slices)})")
        # where reward and termination read ``sensordata`` (the same in every scene, checked)
        self._com_x, self._com_quat = self.sensor_slices["com_pos"].start, self.sensor_slices["com_quat"]
        self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, (m.nsensordata,), np.float64)
        n_act = len(GAIT_ACTION) if action == "gait" else m.nu if action == "joints" else len(self.trot.ids)
        self.action_space = gymnasium.spaces.Box(-1.0, 1.0, (n_act,), np.float32)
        self.actuator_names = tuple(m.actuator_names)
        self.obstacle, self._steps, self._forwarded = None, 0, None
        drawn = [OBSTACLES[o].scene for o in self.obstacles] if self.obstacles else self.scenes
        for name in drawn:                                 # every scene exists, the same mouse in each
            self._use(name)
        self._use(first)

    # -- scenes --------------------------------------------------------------------------------
    @staticmethod
    def _check_obstacle(name):
        if name not in OBSTACLES:
            raise ValueError(f"no obstacle {name!r}; the obstacles are {sorted(OBSTACLES)}")

    def _use(self, scene):
        """Make ``scene`` the current one (loading it the first time)."""
        if scene not in self._loaded:
            if scene in SCENES:
                path = scene_path(scene)
            elif os.path.isfile(scene):
                path = scene
            else:
                raise ValueError(f"no scene {scene!r}: the lab's scenes are {sorted(SCENES)}, "
                                 "and no MJCF file has that path")
            model = self.engine.load_model(path)
            if hasattr(self, "sensor_slices") and tuple(model.sensor_names) != tuple(self.sensor_slices):
                raise ValueError(f"scene {scene!r} has other sensors than {self.scenes[0]!r}: "
                                 "the observation would change size or meaning between episodes")
            n_sub = max(1, round(self.control_dt / model.opt.timestep))
            ctrlrange = np.array(model.actuator_ctrlrange, dtype=float).T       # (2, nu): low, high
            self._loaded[scene] = (model, between_observations(self.engine, model), self.engine.Data(model),
                                   TrotController(model, Gait()), n_sub, ctrlrange)
        self.scene = scene
        self.model, self._stepping, self.data, self.trot, self.n_substeps, (self._lo, self._hi) = self._loaded[scene]
        self.max_steps = round(self.episode_seconds / (self.n_substeps * self.model.opt.timestep))

    # -- helpers -------------------------------------------------------------------------------
    def _obs(self):
        return np.array(self.data.sensordata, dtype=np.float64)

    def _x(self):
        return float(self.data.sensordata[self._com_x])           # sensor "com_pos", x

    def _upright(self):
        w, x, y, z = self.data.sensordata[self._com_quat]         # sensor "com_quat"
        return 1 - 2 * (x * x + y * y) > 0            # the body's z axis, seen from the world, points up

    def _info(self):
        info = {"time": float(self.data.time), "x": self._x(), "gait": self.trot.gait,
                "scene": self.scene, "obstacle": self.obstacle}
        if self.obstacle is not None:
            hind = [self.data.site(f"foot_{leg}").xpos[0] for leg in LEGS[2:]]
            info["past"] = bool(min(hind) > OBSTACLES[self.obstacle].far)
        return info

    # -- the gymnasium API ---------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        """Back to the keyframe ``"stand"`` (in the scene and before the obstacle chosen for
        this episode), the trot at its first step, small random joint velocities; returns
        ``(observation, info)``. ``options``: ``{"scene": name, "obstacle": name or None,
        "start": torso x in m}``, each optional."""
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - {"scene", "obstacle", "start"}
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}; known: 'scene', 'obstacle', 'start'")
        rng = self.np_random
        if "obstacle" in options:
            obstacle = options["obstacle"]
        else:
            obstacle = None if self.obstacles is None else self.obstacles[rng.integers(len(self.obstacles))]
        if obstacle is not None:
            self._check_obstacle(obstacle)
            o = OBSTACLES[obstacle]
            scene = o.scene
            start = o.near - BEFORE_OBSTACLE + rng.uniform(-1, 1) * self.start_spread
        else:
            scene = options.get("scene", self.scenes[rng.integers(len(self.scenes))] if len(self.scenes) > 1
                                else self.scenes[0])
            start = 0.0
        start = float(options.get("start", start))
        self._use(scene)
        self.obstacle = obstacle
        e, m, d = self.engine, self.model, self.data
        e.reset(m, d, "stand")
        d.qpos[0] += start
        d.qvel[6:] = rng.normal(scale=self.noise, size=m.nv - 6)
        self.trot.set_gait(Gait())
        self.trot.reset()
        e.forward(m, d)
        self._forwarded = forwarded_state(e, d)
        self._steps = 0
        return self._obs(), self._info()

    def step(self, action):
        """Apply ``action`` for ``control_dt`` seconds; returns ``(observation, reward,
        terminated, truncated, info)``."""
        e, m, d = self.engine, self.model, self.data
        action = np.asarray(action, dtype=float)
        if action.shape != self.action_space.shape:
            raise ValueError(f"action shape {action.shape}, expected {self.action_space.shape} "
                             f"({self.action_kind!r} actions)")
        if not np.all(np.abs(action) <= 1):               # NaN fails this too
            i = int(np.argmax(~(np.abs(action) <= 1)))
            raise ValueError(f"action[{i}] = {float(action[i])!r} is outside the action box [-1, 1] "
                             "(MouseEnv clips nothing: clip or squash the policy's output)")
        lo, hi = self._lo, self._hi
        ids = self.trot.ids
        if self.action_kind == "gait":
            self.trot.set_gait(gait_from_action(action))
        elif self.action_kind == "joints":
            ctrl = lo + (action + 1) / 2 * (hi - lo)
        else:                                          # the same correction every simulation step
            correction, lo_ids, hi_ids = self.residual_scale * action, lo[ids], hi[ids]
        x0 = self._x()
        # the last forward (reset's or the last step's) was at this state: the first simulation
        # step need not run its position and velocity stages again (only the controls change)
        forwarded = self._forwarded is not None and self._forwarded == forwarded_state(e, d)
        for k in range(self.n_substeps):
            if self.action_kind == "gait":
                self.trot(d)
            elif self.action_kind == "joints":
                d.ctrl[:] = ctrl
            else:                                      # the trot, corrected
                self.trot(d)
                # kept in ctrlrange (np.clip's arithmetic; its Python wrapper costs more than the arithmetic)
                d.ctrl[ids] = np.minimum(np.maximum(d.ctrl[ids] + correction, lo_ids), hi_ids)
            # (the model without its sensors on rbdl_edu: they are read once, below)
            if k == 0 and forwarded:
                step_after_forward(e, self._stepping, d)
            else:
                e.step(self._stepping, d)
        # sensors at the new state (a step computes them at the state it starts from): one
        # forward more per environment step, whose position and velocity stages the next
        # step's first simulation step reuses
        e.forward(m, d)
        self._forwarded = forwarded_state(e, d)
        self._steps += 1
        reward = self._x() - x0
        terminated = not self._upright()
        truncated = self._steps >= self.max_steps
        return self._obs(), reward, terminated, truncated, self._info()
