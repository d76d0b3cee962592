"""The gait search with CMA-ES (issue 23): the search space, a short seeded search that
improves on the lab's trot, and the committed result (``models/mouse/plank_gait.json``, made
by ``tools/search_gait.py``) getting over the 20 mm plank from starts it never saw, on MuJoCo
and, for one start, the same on rbdl_edu.
"""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from rbdl_edu.lab import MODEL_DIR, Gait
from rbdl_edu.lab.search import INFEASIBLE, TROT_SEARCH, gait_from_z, obstacle_trial, score, search_gait

FAST = os.environ.get("RBDL_EDU_FAST") == "1"
COMMITTED = json.loads((MODEL_DIR / "plank_gait.json").read_text())


def test_search_space():
    n = len(TROT_SEARCH)
    assert gait_from_z(np.zeros(n)) == Gait()
    g = gait_from_z(np.eye(n)[9])                                   # the hind pair's phase offset
    assert g.phases == pytest.approx((0.0, np.pi, np.pi + 0.6, 0.6))
    with pytest.raises(ValueError, match="12 numbers"):
        gait_from_z(np.zeros(8))
    # a gait the legs cannot follow scores worse than any walk: a corner of the box where the
    # hind ovals sit low, far back and leaning, with long strides (a foot 70.04 mm from its hip)
    low = np.array([1, 1, 1, -1, -1, -1, -1, -1, -1, 1, 1, 1], dtype=float)
    with pytest.raises(ValueError, match="out of reach|ctrlrange"):
        obstacle_trial(gait_from_z(low), 0)
    assert score(low, [0]) == INFEASIBLE > score(np.zeros(n), [0])


def test_bad_names_are_errors_not_infeasible_gaits():
    # an unknown engine or obstacle, or a point of the wrong size, must not score as a gait the
    # legs cannot follow (the search would go on, every gait "infeasible")
    n = len(TROT_SEARCH)
    with pytest.raises(ValueError, match="unknown engine 'bullet'"):
        score(np.zeros(n), [0], engine="bullet")
    with pytest.raises(ValueError, match=r"no obstacle 'wall'; the obstacles are \['arc', 'bar'"):
        score(np.zeros(n), [0], obstacle="wall")
    with pytest.raises(ValueError, match="12 numbers"):
        score(np.zeros(8), [0])
    with pytest.raises(ValueError, match="no obstacle 'wall'"):
        obstacle_trial(Gait(), 0, obstacle="wall")
    with pytest.raises(ValueError, match="unknown engine 'bullet'"):
        search_gait(seeds=[0], engine="bullet", generations=1, popsize=2)


def test_a_short_cma_search_improves_on_the_trot():
    # RBDL_EDU_FAST: 3 generations of 6 gaits on 2 starts (else 6 on 3); the verdicts are the same
    generations, seeds = (3, [0, 1]) if FAST else (6, [0, 1, 2])
    r = search_gait(seeds=seeds, generations=generations, popsize=6, sigma0=0.3, seed=3)
    evaluations, best, median = r.history.T
    assert len(r.history) == generations and evaluations[-1] == 1 + 6 * generations
    assert np.all(np.diff(best) <= 0)                                # the best so far never gets worse
    assert r.score == best[-1] == score(r.z, seeds)                  # the result is its score, again
    assert r.score < score(np.zeros(len(TROT_SEARCH)), seeds) - 0.1  # better than the lab's trot
    assert r.gait == gait_from_z(r.z) and np.all(np.abs(r.z) <= 1)


def test_the_committed_gait_gets_over_the_plank():
    z = np.array(COMMITTED["z"])
    gait = gait_from_z(z)
    assert COMMITTED["parameters"] == [p for p, _, _ in TROT_SEARCH]
    assert gait.freq == pytest.approx(COMMITTED["gait"]["freq"], abs=1e-12)
    rows = np.array(COMMITTED["history"]["rows"])
    assert np.all(np.diff(rows[:, 1]) <= 0) and rows[-1, 1] == COMMITTED["score"]
    held_out = COMMITTED["held_out_seeds"]
    assert not set(held_out) & set(COMMITTED["train_seeds"])
    best = [obstacle_trial(gait, s).outcome for s in held_out]
    trot = [obstacle_trial(Gait(), s).outcome for s in held_out]
    assert best == COMMITTED["held_out"]["best gait, mujoco"] and trot == COMMITTED["held_out"]["lab trot, mujoco"]
    assert best.count("through") >= 8 and trot.count("through") <= 1


def test_the_committed_gait_does_the_same_on_rbdl_edu():
    # sim-to-sim: the first held-out start on both engines (rbdl_edu: a few seconds of walking)
    gait, s = gait_from_z(COMMITTED["z"]), COMMITTED["held_out_seeds"][0]
    a, b = obstacle_trial(gait, s, engine="mujoco"), obstacle_trial(gait, s, engine="rbdl_edu")
    assert a.outcome == b.outcome == "through" == COMMITTED["held_out"]["best gait, rbdl_edu"][0]
    assert a.seconds == b.seconds and a.progress == pytest.approx(b.progress, abs=1e-9)
