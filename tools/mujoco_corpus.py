"""How much of a folder of MuJoCo models rbdl_edu loads, and how much of that simulates as MuJoCo.

The corpus is kept OUTSIDE the project (nothing of it is committed or fetched here): point the
script at any folder of MJCF files, e.g. MuJoCo's own ``model/`` and ``test/`` trees exported
into a scratch folder::

    mkdir -p /tmp/mjcorpus
    git -C <a mujoco checkout> archive HEAD model test | tar -x -C /tmp/mjcorpus
    nice -n 10 python tools/mujoco_corpus.py /tmp/mjcorpus

For every ``*.xml`` under the folder that ``mujoco.MjModel.from_xml_path`` (the oracle,
``mujoco==4.0.0``) loads (include-only fragments and files whose assets are missing fail there
and are not counted), :func:`rbdl_edu.load_model` is tried. Refusals are grouped by the first
characters of the ``ModelError``'s reason. Each loaded model is stepped by both engines for
``--steps`` steps from the default state (``qpos0``, zero velocity), once with zero ``ctrl`` and
once with a fixed seeded random ``ctrl`` inside each actuator's ``ctrlrange`` (``[-1, 1]`` where
unlimited); it simulates "as MuJoCo" when ``qpos`` agrees within ``--rtol`` relative
(``|ours - theirs| <= rtol max(1, |theirs|)``) after the last step in both runs, with neither
engine diverging. A per-file ``signal.alarm`` stops a model that takes too long (counted as
such). Single process by design (the machine is shared).
"""
from __future__ import annotations

import argparse
import collections
import os
import signal
import sys
import time
import traceback
import warnings

import mujoco
import numpy as np

import rbdl_edu as rbd


class TimeLimit(Exception):
    """A file ran past its time limit."""


STAGE = ["mujoco"]        # where a file is when its time runs out: "mujoco", "load" or "step"


def _alarm(signum, frame):
    raise TimeLimit()


def _ctrl(m, rng):
    lo, hi = np.full(m.nu, -1.0), np.full(m.nu, 1.0)
    lim = np.asarray(m.actuator_ctrllimited, bool)
    lo[lim], hi[lim] = m.actuator_ctrlrange[lim, 0], m.actuator_ctrlrange[lim, 1]
    return rng.uniform(lo, hi)


def _run_mujoco(m, ctrl, steps):
    d = mujoco.MjData(m)
    d.ctrl[:] = ctrl
    for _ in range(steps):
        mujoco.mj_step(m, d)
    bad = any(d.warning[w].number for w in (mujoco.mjtWarning.mjWARN_BADQPOS, mujoco.mjtWarning.mjWARN_BADQVEL,
                                             mujoco.mjtWarning.mjWARN_BADQACC))
    return d.qpos.copy(), bad or not np.all(np.isfinite(d.qpos)), d.ncon


def _run_ours(model, ctrl, steps):
    data = rbd.Data(model)
    data.ctrl[:] = ctrl
    rbd.step(model, data, steps)
    bad = bool(getattr(data, "warning", None)) and any(
        k in ("qpos", "qvel", "qacc") for k in _warning_kinds(data.warning))
    return np.array(data.qpos, float), bad or not np.all(np.isfinite(data.qpos)), len(data.contact)


def _warning_kinds(w):
    try:
        return [k for k in w if (w[k] if isinstance(w, dict) else True)]
    except TypeError:
        return [str(w)]


def check_file(path, steps, rtol, seed):
    """One file's verdict: ("mujoco_fails", msg) | ("refused", group, msg) | ("error", msg)
    | ("match", info) | ("mismatch", info)."""
    STAGE[0] = "mujoco"
    try:
        m = mujoco.MjModel.from_xml_path(path)
    except Exception as e:   # noqa: BLE001 - MuJoCo's own refusal: not in the corpus
        return ("mujoco_fails", str(e).splitlines()[0][:80])
    STAGE[0] = "load"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = rbd.load_model(path)
    except rbd.ModelError as e:
        reason = " ".join(str(e.reason).split())
        return ("refused", reason[:60], str(e)[:200])
    except TimeLimit:
        raise
    except Exception as e:   # noqa: BLE001 - a crash is a bug: report it as such
        return ("error", f"load: {type(e).__name__}: {str(e)[:120]}")
    STAGE[0] = "step"
    rng = np.random.default_rng(seed)
    runs = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for ctrl in (np.zeros(m.nu), _ctrl(m, rng)):
                q_mj, bad_mj, ncon_mj = _run_mujoco(m, ctrl, steps)
                q, bad, ncon = _run_ours(model, ctrl, steps)
                err = float(np.abs(q - q_mj).max(initial=0.0)) / max(1.0, float(np.abs(q_mj).max(initial=0.0)))
                runs.append(dict(err=err, bad=bad, bad_mj=bad_mj, ncon=ncon, ncon_mj=ncon_mj))
    except TimeLimit:
        raise
    except Exception as e:   # noqa: BLE001
        return ("error", f"step: {type(e).__name__}: {str(e)[:120]}")
    ok = all(r["err"] <= rtol and not r["bad"] and not r["bad_mj"] for r in runs)
    info = dict(nq=m.nq, nv=m.nv, nu=m.nu, runs=runs)
    return ("match" if ok else "mismatch", info)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folder")
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--rtol", type=float, default=1e-6)
    p.add_argument("--timeout", type=int, default=20, help="seconds per file")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, choices=[1], help="single process only")
    p.add_argument("--limit", type=int, default=0, help="at most this many files (0: all)")
    p.add_argument("--budget", type=float, default=0, help="stop starting files after this many seconds (0: none)")
    p.add_argument("--only", help="a text file of paths (relative to the folder), one a line: just these")
    p.add_argument("--verbose", "-v", action="store_true")
    a = p.parse_args(argv)
    files = sorted(os.path.join(r, f) for r, _, fs in os.walk(a.folder) for f in fs if f.endswith(".xml"))
    if a.only:
        keep = {line.strip() for line in open(a.only) if line.strip()}
        files = [f for f in files if os.path.relpath(f, a.folder) in keep]
    if a.limit:
        files = files[:a.limit]
    signal.signal(signal.SIGALRM, _alarm)
    results = {}
    t0 = time.time()
    for i, f in enumerate(files):
        if a.budget and time.time() - t0 > a.budget:
            print(f"budget of {a.budget:.0f} s spent: {len(files) - i} files not tried", flush=True)
            files = files[:i]
            break
        rel = os.path.relpath(f, a.folder)
        signal.alarm(a.timeout)
        try:
            r = check_file(f, a.steps, a.rtol, a.seed)
        except TimeLimit:
            r = ("timeout", f"{STAGE[0]}: over {a.timeout} s")
        except Exception as e:   # noqa: BLE001
            r = ("error", f"tool: {type(e).__name__}: {e}\n{traceback.format_exc(limit=2)}")
        finally:
            signal.alarm(0)
        results[rel] = r
        if a.verbose:
            print(f"[{i + 1}/{len(files)} {time.time() - t0:.0f}s] {r[0]:12s} {rel}"
                  + (f"  {r[1]}" if r[0] != "match" and r[0] != "mismatch" else
                     "  " + " ".join(f"err={x['err']:.2g} ncon={x['ncon']}/{x['ncon_mj']}"
                                     + (" DIVERGED" if x["bad"] else "") + (" MJ-DIVERGED" if x["bad_mj"] else "")
                                     for x in r[1]["runs"])), flush=True)
    report(results, len(files), time.time() - t0)


def report(results, nfiles, seconds):
    kinds = collections.Counter(r[0] for r in results.values())
    stage = lambda r: r[1].split(":")[0] if r[0] in ("error", "timeout") else r[0]   # noqa: E731
    loaded_mj = nfiles - kinds["mujoco_fails"] - sum(1 for r in results.values() if stage(r) == "mujoco")
    loaded = kinds["match"] + kinds["mismatch"] + sum(1 for r in results.values() if stage(r) == "step")
    pct = lambda a, b: f"{100 * a / b:.0f} %" if b else "n/a"   # noqa: E731
    print(f"\n{nfiles} xml files in {seconds:.0f} s; MuJoCo 4.0 loads {loaded_mj}")
    print(f"rbdl_edu loads {loaded} of them ({pct(loaded, loaded_mj)}); refused {kinds['refused']}, "
          f"load errors {sum(1 for r in results.values() if r[0] == 'error' and r[1].startswith('load'))}")
    print(f"simulate as MuJoCo (qpos rel {'<='} tol after the run, ctrl 0 and random): {kinds['match']} of {loaded} "
          f"({pct(kinds['match'], loaded)}); mismatch {kinds['mismatch']}, step errors "
          f"{sum(1 for r in results.values() if r[0] == 'error' and r[1].startswith('step'))}, timeouts {kinds['timeout']}")
    groups = collections.defaultdict(list)
    for f, r in results.items():
        if r[0] == "refused":
            groups[r[1]].append(f)
    print("\nrefusal groups (count, reason, files):")
    for g, fs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(fs):3d}  {g}\n        {', '.join(fs[:4])}{' ...' if len(fs) > 4 else ''}")
    print("\nerrors and timeouts:")
    for f, r in results.items():
        if r[0] in ("error", "timeout"):
            print(f"  {f}: {r[0]} {r[1].splitlines()[0]}")
    print("\nmismatches (largest error first; err and ncon ours/MuJoCo for ctrl 0 | random ctrl):")
    mism = [(max(x["err"] for x in r[1]["runs"]), f, r[1]) for f, r in results.items() if r[0] == "mismatch"]
    for e, f, info in sorted(mism, key=lambda t: -t[0] if np.isfinite(t[0]) else -np.inf):
        runs = " | ".join(f"{x['err']:.2g} {x['ncon']}/{x['ncon_mj']}" + (" DIV" if x["bad"] else "")
                          + (" MJDIV" if x["bad_mj"] else "") for x in info["runs"])
        print(f"  {f}  nv={info['nv']} nu={info['nu']}  {runs}")


if __name__ == "__main__":
    sys.exit(main())
