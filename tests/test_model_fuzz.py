"""Fuzzing the model compilers: 10,000 mutated MJCF and URDF models either load into a model
whose numbers are finite and whose dynamics and contacts are finite (or refused with the
library's own :class:`~rbdl_edu.tree.DynamicsError`), or raise
:class:`~rbdl_edu.io.errors.ModelError` naming the file, line and element; never another
exception, a NaN, a hang, a blow-up of memory, or a file read from outside the model's folder.

The mutants, the model folder they live in and the checks are in ``tests/fuzz_models.py``
(``python tests/fuzz_models.py --cases N`` runs it alone; ``--show K`` prints case ``K``).
Two worker processes are reused for all cases, each with an address-space cap; one that
takes longer than the time cap on a case, or dies, is killed and replaced, and its case
fails. The cases are seeded: a failure names its case number, which reproduces it.

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
    assert not failures, report + "\n" + "\n".join(lines)
    assert sum(results.values()) == N_CASES
    # the mutants exercise both paths: enough load (and run the algorithms), enough are refused
    assert results["loaded"] > 0.15 * N_CASES and results["refused"] > 0.3 * N_CASES, report


def test_the_harness_catches_hangs_and_blowups():
    """The harness itself: a case that hangs (case -1) or allocates without bound (case -2)
    fails alone, its worker replaced, and the cases after it still run."""
    results, failures, _ = fuzz_models.run([-1, -2, 0, 1, 2], workers=1, time_limit=5,
                                           memory_limit=2 * 2 ** 30)
    statuses = {case: status for case, status, _, _ in failures}
    assert statuses.get(-1) == "hang" and statuses.get(-2) in ("raw", "crash"), failures
    assert sum(results[s] for s in ("loaded", "refused")) == 3, results
