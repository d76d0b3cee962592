"""Sweeps on a local Ray (issue 23): four gait searches as Ray tasks, and a worker that dies
mid-sweep, which costs that trial only (Ray retries it; a trial that keeps dying is reported
as failed, with the reason), beside a trial that raises (reported with its exception, not
retried). One Ray for the whole file: starting it is most of the file's time.
"""
from __future__ import annotations

import functools
import os

import numpy as np
import pytest
import ray

from rbdl_edu.lab.search import TROT_SEARCH, score
from rbdl_edu.lab.sweep import gait_trial, ray_map, start_ray, sweep


@pytest.fixture(scope="module")
def local_ray():
    start_ray(num_cpus=2)
    yield ray
    ray.shutdown()


def test_a_sweep_of_four_gait_searches(local_ray):
    seeds = [0, 1]
    configs = [dict(seed=seed, sigma0=sigma0, generations=2, popsize=4, seeds=seeds)
               for seed in (1, 2) for sigma0 in (0.2, 0.4)]
    rows = sweep(gait_trial, configs)
    assert [r["status"] for r in rows] == ["ok"] * 4 and [r["config"] for r in rows] == configs
    trot = score(np.zeros(len(TROT_SEARCH)), seeds)
    for r in rows:
        best = np.array(r["result"]["history"])[:, 1]
        assert np.all(np.diff(best) <= 0) and r["result"]["score"] == best[-1] <= trot
    # a worker's result is what this process computes (the simulation is deterministic)
    assert rows[0]["result"]["score"] == gait_trial(**configs[0])["score"]
    assert len({r["result"]["score"] for r in rows}) > 1                # the trials differ
    # ray_map: the same numbers as map
    points = [np.zeros(len(TROT_SEARCH)), np.full(len(TROT_SEARCH), 0.1)]
    assert ray_map(functools.partial(score, seeds=seeds), points) == [score(p, seeds) for p in points]


def test_a_dead_worker_loses_its_trial_only(local_ray, tmp_path):
    marker = str(tmp_path / "attempts")

    def trial(kind, marker):                                # pickled by value into the workers
        with open(marker, "a") as f:
            f.write(kind + "\n")
        with open(marker) as f:
            attempts = f.read().split().count(kind)
        if kind == "doomed" or (kind == "flaky" and attempts == 1):
            os._exit(1)                                     # the worker process dies
        if kind == "raises":
            raise ValueError("unknown engine 'bullet'")      # a bad configuration: no retry
        return kind

    kinds = ("fine", "flaky", "doomed", "raises")
    rows = sweep(trial, [dict(kind=k, marker=marker) for k in kinds], max_retries=1)
    assert [r["status"] for r in rows] == ["ok", "ok", "failed", "failed"]
    assert [r["result"] for r in rows] == ["fine", "flaky", None, None]
    assert [r["config"]["kind"] for r in rows] == list(kinds)
    assert rows[0]["error"] is None and rows[1]["error"] is None
    assert "WorkerCrashedError" in rows[2]["error"] and "after 1 retries" in rows[2]["error"]
    assert "ValueError" in rows[3]["error"] and "unknown engine 'bullet'" in rows[3]["error"]
    attempts = open(marker).read().split()
    assert [attempts.count(k) for k in kinds] == [1, 2, 2, 1]            # a death is retried, an error not
