"""Past one machine: the gait search and its sweeps as Ray tasks (book, chapter 11; issue 23).

Ray runs Python functions as *tasks* on a pool of worker processes, on this machine or on a
cluster, with the same code:

* here: :func:`start_ray` calls ``ray.init()``, which starts a local Ray with one worker per
  core (two on the book's machine);
* on a cluster: ``ray start --head`` on one machine, ``ray start --address HEAD:6379`` on the
  others, then ``start_ray("auto")`` (``ray.init(address="auto")``) in the script; nothing
  else changes.

:func:`ray_map` is a ``map`` whose calls run as tasks (``search_gait(map=ray_map)`` scores a
population in parallel). :func:`sweep` runs one trial per configuration as a task and
collects what each did: a worker that dies (a killed process, a node lost) is retried by Ray
``max_retries`` times, and a trial that still fails is reported as failed, with the reason,
while the others keep their results. :func:`gait_trial` is one trial of a sweep of the gait
search (a CMA-ES seed, a step size, ...).

Ray is an optional dependency (the ``lab`` extra): it is imported when a function here runs.
"""
from __future__ import annotations

import os
import re
import time

from rbdl_edu.lab.search import search_gait


def start_ray(address=None, num_cpus=None, tries=3):
    """``ray.init`` once: a local Ray (``address=None``; ``num_cpus`` workers, default one per
    core) or the cluster at ``address`` (``"auto"``: the one ``ray start`` made here).

    Ray waits a fixed 30 s for its own processes to start; on a loaded machine that can be too
    short, so a local start that times out is tried again, ``tries`` times in all. No usage
    statistics are sent (``RAY_USAGE_STATS_ENABLED=0``)."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    for attempt in range(tries):
        if ray.is_initialized():
            break
        try:
            ray.init(address=address, num_cpus=num_cpus if address is None else None, include_dashboard=False,
                     log_to_driver=False, configure_logging=False)
        except Exception as e:                             # Ray raises a bare Exception on a slow start
            ray.shutdown()
            if "timed out during startup" not in str(e) or address is not None or attempt == tries - 1:
                raise
    return ray


def _call(f, x):
    return f(x)


def ray_map(f, items):
    """``list(map(f, items))`` with each call a Ray task (``f`` must pickle: a module-level
    function or a dataclass instance)."""
    import ray

    task = ray.remote(_call)
    return ray.get([task.remote(f, x) for x in items])


def sweep(trial, configs, max_retries=1):
    """Run ``trial(**config)`` for every configuration as a Ray task (Ray started first with
    :func:`start_ray`). Returns one dict per configuration, in order: ``config``, ``status``
    (``"ok"`` or ``"failed"``), ``result`` (``trial``'s return value, or ``None``),
    ``error`` (why it failed: the worker died after ``max_retries`` retries, or the trial
    raised: the exception, not retried), ``seconds`` (wall time until it was collected)."""
    import ray
    from ray.exceptions import RayError, RayTaskError

    task = ray.remote(max_retries=max_retries, retry_exceptions=False)(_trial)
    start = time.perf_counter()
    refs = [task.remote(trial, dict(c)) for c in configs]
    out = []
    for config, ref in zip(configs, refs):
        try:
            row = {"status": "ok", "result": ray.get(ref), "error": None}
        except RayTaskError as e:                           # the trial raised: not retried
            cause = e.cause if isinstance(e.cause, BaseException) else e
            row = {"status": "failed", "result": None,
                   "error": f"{type(cause).__name__}: {_first_line(cause)} (raised by the trial)"}
        except RayError as e:                               # the worker (or its node) died, every retry too
            kind = type(e).__name__
            died = any(w in kind for w in ("Crashed", "Died", "Worker", "Node", "OutOfMemory"))
            row = {"status": "failed", "result": None, "error": f"{kind}: {_first_line(e)}"
                   + (f" (after {max_retries} retries of a dead worker)" if died else "")}
        row.update(config=dict(config), seconds=time.perf_counter() - start)
        out.append(row)
    return out


def _first_line(e):
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(e)).strip()       # without the terminal's colours
    return text.splitlines()[0] if text else type(e).__name__


def _trial(trial, config):
    return trial(**config)


def gait_trial(seed=1, sigma0=0.3, generations=10, popsize=8, seeds=range(5), obstacle="plank",
               engine="mujoco"):
    """One trial of a sweep of the gait search: its best score, point and convergence."""
    r = search_gait(seeds=seeds, obstacle=obstacle, engine=engine, generations=generations, popsize=popsize,
                    sigma0=sigma0, seed=seed)
    return {"score": r.score, "z": r.z.tolist(), "history": r.history.tolist()}
