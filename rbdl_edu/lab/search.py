r"""A gait search with CMA-ES (``cma``): the trot's parameters tuned to get the mouse over an
obstacle (book, chapter 11; issue 23).

**Search space.** :data:`TROT_SEARCH` lists the trot's parameters the search may change, each
with its lab value and its range: the ovals' centres, half-stride, lift and press, the
frequency, the swing fraction, the hind pair's phase offset and the turn angles. The search
runs in the unit box :math:`z \in [-1, 1]^n`, :math:`p = p_0 + z\,\Delta p` (so every
parameter moves on the same scale); :func:`gait_from_z` turns a point into a
:class:`~rbdl_edu.lab.mouse.Gait`. A gait the legs cannot follow (a target out of reach or
out of an actuator's range) scores :data:`INFEASIBLE`.

**Trial.** :func:`obstacle_trial` starts the mouse before an obstacle
(:data:`~rbdl_edu.lab.OBSTACLES`), with the start spread by up to 1 cm and small random joint
velocities drawn from a seed, and trots with a fixed gait in slices of 0.1 s until both hind
feet are past the obstacle (*through*), or the torso moved less than 1 cm in the last second
(*stuck*), or ``seconds`` are up.

**Score** (lower is better, as CMA-ES minimises): over the starts,
:math:`f = -(\text{fraction through} + \text{mean progress in m})`; getting through counts
most, and between gaits that get through equally often the one that walks farther wins.

**CMA-ES** (Hansen's covariance matrix adaptation) samples a population from a Gaussian,
ranks it by score, and moves the mean towards the better samples while it adapts the
covariance to the directions that paid; :func:`search_gait` runs it from the lab's trot
(:math:`z = 0`) with step size ``sigma0`` and returns the best gait and the convergence
(the best and the median score of each generation). ``map`` evaluates a population: the
builtin ``map`` here, Ray tasks for a cluster (:mod:`rbdl_edu.lab.sweep`).

>>> gait_from_z(np.zeros(len(TROT_SEARCH))) == Gait()
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from rbdl_edu.lab import OBSTACLES, scene_path
from rbdl_edu.lab.engine import get_engine, run
from rbdl_edu.lab.mouse import LEGS, Gait, TrotController

#: (parameter, lab value, change at z = +-1): what the search may change
TROT_SEARCH = (
    ("freq", 1.5, 0.5),               # Hz
    ("stride", 0.03, 0.008),          # half-stride a of every oval, m
    ("lift", 0.01, 0.008),            # swing height above the centre, m
    ("press", 0.005, 0.004),          # stance depth below the centre, m
    ("fore_x0", 0.0, 0.01),           # fore ovals' centre, forwards of the shoulder, m
    ("fore_z0", -0.045, 0.006),       # fore ovals' centre, below the shoulder, m
    ("hind_x0", 0.0, 0.01),           # hind ovals' centre, forwards of the hip, m
    ("hind_z0", -0.05, 0.006),        # hind ovals' centre, below the hip, m
    ("swing", 0.4, 0.12),             # fraction of the period in the air
    ("hind_phase", 0.0, 0.6),         # hind pair's phase offset from the trot, rad
    ("turn_fore", 0.0, 0.25),         # fore ovals' lean, rad
    ("turn_hind", 0.0, 0.25),         # hind ovals' lean, rad
)
#: the score of a gait the legs cannot follow (worse than any walk)
INFEASIBLE = 1.0
#: the torso starts this far before the obstacle's near edge (m), as in MouseEnv
BEFORE = 0.06


def gait_from_z(z, base=Gait()):
    """The gait at point ``z`` of the search's unit box (:data:`TROT_SEARCH`)."""
    z = np.asarray(z, dtype=float).reshape(-1)
    if z.shape != (len(TROT_SEARCH),):
        raise ValueError(f"a point of the gait search has {len(TROT_SEARCH)} numbers "
                         f"({', '.join(p for p, _, _ in TROT_SEARCH)}), not shape {z.shape}")
    p = {name: v0 + dv * float(x) for (name, v0, dv), x in zip(TROT_SEARCH, z)}
    oval = dict(a=p["stride"], lift=p["lift"], press=p["press"])
    d = p["hind_phase"]
    return replace(base, freq=p["freq"], swing=p["swing"],
                   fore=replace(base.fore, x0=p["fore_x0"], z0=p["fore_z0"], **oval),
                   hind=replace(base.hind, x0=p["hind_x0"], z0=p["hind_z0"], **oval),
                   phases=(0.0, math.pi, math.pi + d, d),
                   turn_fore=p["turn_fore"], turn_hind=p["turn_hind"])


@dataclass
class Trial:
    """What one trial did: ``outcome`` ("through", "stuck", "walking"), ``progress`` (m)."""
    outcome: str
    progress: float
    seconds: float


_MODELS = {}


def _model(engine, scene):
    key = (id(engine), scene)
    if key not in _MODELS:
        model = engine.load_model(scene_path(scene))
        _MODELS[key] = (model, engine.Data(model))
    return _MODELS[key]


def _obstacle(name):
    if name not in OBSTACLES:
        raise ValueError(f"no obstacle {name!r}; the obstacles are {sorted(OBSTACLES)}")
    return OBSTACLES[name]


def obstacle_trial(gait, seed, obstacle="plank", engine="mujoco", seconds=4.0, spread=0.01, noise=0.01):
    """Trot with ``gait`` from start ``seed`` before ``obstacle``; see the module docstring.
    Raises ``ValueError`` if the legs cannot follow the gait."""
    engine = get_engine(engine)
    o = _obstacle(obstacle)
    model, data = _model(engine, o.scene)
    trot = TrotController(model, gait)                       # checks the gait first
    rng = np.random.default_rng(seed)
    engine.reset(model, data, "stand")
    data.qpos[0] += o.near - BEFORE + rng.uniform(-1, 1) * spread
    data.qvel[6:] = rng.normal(scale=noise, size=model.nv - 6)
    engine.forward(model, data)
    x = [float(data.sensor("com_pos").data[0])]
    while data.time < seconds - 1e-9:
        run(engine, model, data, trot, 0.1)
        engine.forward(model, data)
        x.append(float(data.sensor("com_pos").data[0]))
        if min(data.site(f"foot_{leg}").xpos[0] for leg in LEGS[2:]) > o.far:
            return Trial("through", x[-1] - x[0], float(data.time))
        if len(x) > 10 and x[-1] - x[-11] < 0.01:
            return Trial("stuck", x[-1] - x[0], float(data.time))
    return Trial("walking", x[-1] - x[0], float(data.time))


def score(z, seeds, obstacle="plank", engine="mujoco", seconds=4.0):
    """The search's score of point ``z`` over the starts ``seeds`` (lower is better). An unknown
    engine or obstacle, or a point of the wrong size, is a ``ValueError`` (not an infeasible gait)."""
    gait, engine, _ = gait_from_z(z), get_engine(engine), _obstacle(obstacle)
    try:
        trials = [obstacle_trial(gait, s, obstacle, engine, seconds) for s in seeds]
    except ValueError:                                       # the legs cannot follow this gait
        return INFEASIBLE
    return -(np.mean([t.outcome == "through" for t in trials]) + np.mean([t.progress for t in trials]))


@dataclass
class SearchResult:
    """The best point and gait, its score, and the convergence (one row per generation:
    evaluations so far, best score so far, the generation's median score)."""
    z: np.ndarray
    gait: Gait
    score: float
    history: np.ndarray


def search_gait(seeds=range(10), obstacle="plank", engine="mujoco", generations=20, popsize=12, sigma0=0.3,
                seed=1, seconds=4.0, map=map, verbose=False):
    """CMA-ES over :data:`TROT_SEARCH` from the lab's trot; ``seeds``: the starts each gait is
    scored on; ``seed``: CMA-ES's own random seed; ``map(f, points)``: how a population is
    evaluated. Returns a :class:`SearchResult`."""
    import cma                                               # the lab extra

    n = len(TROT_SEARCH)
    es = cma.CMAEvolutionStrategy(np.zeros(n), sigma0, {
        "bounds": [-1, 1], "popsize": popsize, "seed": seed, "verbose": -9, "maxiter": generations})
    seeds, history = list(seeds), []
    best_z, best_f = np.zeros(n), score(np.zeros(n), seeds, obstacle, engine, seconds)
    evaluations = 1
    while not es.stop():
        points = es.ask()
        f = list(map(_Scorer(seeds, obstacle, engine, seconds), points))
        es.tell(points, f)
        evaluations += len(points)
        k = int(np.argmin(f))
        if f[k] < best_f:
            best_z, best_f = np.array(points[k]), float(f[k])
        history.append((evaluations, best_f, float(np.median(f))))
        if verbose:
            print(f"generation {len(history):3d}: best {best_f:.3f}, median {np.median(f):.3f}", flush=True)
    return SearchResult(best_z, gait_from_z(best_z), best_f, np.array(history))


@dataclass(frozen=True)
class _Scorer:
    """``score`` with its settings fixed (a picklable function of one point, for Ray)."""
    seeds: list
    obstacle: str
    engine: str
    seconds: float

    def __call__(self, z):
        return score(z, self.seeds, self.obstacle, self.engine, self.seconds)
