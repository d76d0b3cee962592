"""Fuzzing the model compilers: 10,000 mutated MJCF and URDF models either load into a model
whose numbers are finite and whose dynamics and contacts are finite (or refused with the
library's own :class:`~rbdl_edu.tree.DynamicsError`), or raise
:class:`~rbdl_edu.io.errors.ModelError` naming the file, line and element; never another
exception, a NaN, a hang, a blow-up of memory, or a file read from outside the model's folder.

The mutants, the model folder they live in and the checks are in ``tests/fuzz_models.py``
(``python tests/fuzz_models.py --cases N`` runs it alone; ``--show K`` prints case ``K``).
Two worker processes are reused for all cases, each with an address-space cap and, per case, a
cap on its own CPU time (``RLIMIT_CPU``); a case that passes either, or kills its worker, fails
and its worker is replaced. No verdict depends on the wall clock: a loaded machine runs the
cases more slowly, with the same results. Only a worker silent for the harness's generous
wall-clock safety timeout (:data:`fuzz_models.SAFETY_TIMEOUT`) is killed on time, and that is
reported as an infrastructure failure ("stalled"), apart from the cases' verdicts. The cases
are seeded: a failure names its case number, which reproduces it.

``RBDL_EDU_FUZZ_CASES`` changes the number of cases (default 10,000, also under
``RBDL_EDU_FAST=1``: the whole run takes well under the ten minutes CI allows it).
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import fuzz_models  # noqa: E402

N_CASES = int(os.environ.get("RBDL_EDU_FUZZ_CASES", "10000"))


def test_enough_seeds_of_both_formats():
    kinds = [kind for kind, _, _ in fuzz_models.seeds()]
    assert kinds.count("xml") >= 15 and kinds.count("urdf") >= 4


def test_mutants_load_or_raise_model_error():
    t0 = time.monotonic()
    results, failures, seconds = fuzz_models.run(range(N_CASES), workers=2)
    report = (f"{N_CASES} mutants in {seconds:.0f} s ({time.monotonic() - t0:.0f} s with start-up): "
              f"{dict(results)}")
    print(report)
    lines = [f"case {case} ({seed}, {status}): {'; '.join(problems)}"
             for case, status, seed, problems in failures[:20]]
    stalled = [f"case {case}: {'; '.join(problems)}" for case, status, _, problems in failures
               if status == "stalled"]
    assert not stalled, ("INFRASTRUCTURE FAILURE (the harness's wall-clock safety timeout, not a "
                         "verdict on the models): " + report + "\n" + "\n".join(stalled[:20]))
    assert not failures, report + "\n" + "\n".join(lines)
    assert sum(results.values()) == N_CASES
    # the mutants exercise both paths: enough load (and run the algorithms), enough are refused
    assert results["loaded"] > 0.15 * N_CASES and results["refused"] > 0.3 * N_CASES, report


def test_the_harness_catches_hangs_and_blowups():
    """The harness itself: a case that loops forever (case -1) or allocates without bound
    (case -2) fails alone, classed by what it did (the worker's CPU-time cap, the memory cap),
    its worker replaced, and the cases after it still run. Nothing here depends on how fast
    the machine is: only CPU time and memory decide, and the safety timeout is the default."""
    results, failures, _ = fuzz_models.run([-1, -2, 0, 1, 2], workers=1, cpu_limit=5,
                                           memory_limit=2 * 2 ** 30)
    statuses = {case: status for case, status, _, _ in failures}
    assert statuses.get(-1) == "hang" and statuses.get(-2) in ("memory", "crash"), failures
    assert "CPU time" in failures[0][3][0], failures
    assert sum(results[s] for s in ("loaded", "refused")) == 3, (results, failures)
    assert "stalled" not in results, failures


def test_the_safety_timeout_reports_a_blocked_worker_as_infrastructure():
    """A case blocked without using CPU (case -3 sleeps) never reaches a CPU cap; the
    wall-clock safety timeout kills its worker and says so as an infrastructure failure,
    never as a "hang" verdict. (Case -3 never finishes, so however loaded the machine, the
    short timeout here is always what ends it.)"""
    results, failures, _ = fuzz_models.run([-3], workers=1, safety_timeout=3)
    assert [(case, status) for case, status, _, _ in failures] == [(-3, "stalled")], failures
    assert failures[0][3][0].startswith("INFRASTRUCTURE"), failures
