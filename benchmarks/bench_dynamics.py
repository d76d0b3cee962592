"""Cost of rbdl_edu's ``rnea``, ``crba`` and ``aba`` next to Pinocchio and modern_robotics.

Three tables, each measured on models built by :func:`rbdl_edu.models.auto_tree` (random
hinge axes, so the chains are fully 3D) and rebuilt, body for body, in the other libraries.
Before anything is timed, each foreign model is checked against ours: ``rnea``, ``crba``
and ``aba`` must agree to 1e-9 (relative) at random states, so the timings compare the same
computation.

1. **Scaling on chains** of N = 4 ... 256 bodies (``auto_tree(N)``, ``bf = 1``): time per call
   of our ``rnea``, ``crba``, ``aba``, of Pinocchio's (``pinocchio.rnea/crba/aba``, the
   compiled reference, called from Python) and of modern_robotics' pure-Python
   ``InverseDynamics``, ``MassMatrix`` and ``ForwardDynamics``. The last lines fit the
   exponent ``k`` of ``t ~ N^k`` (log-log slope over N >= 16): about 1 for RNEA and ABA,
   about 2 for a dense CRBA on a chain (its M has N^2 nonzeros).
2. **Batching** on the 30-body tree ``auto_tree(30, bf=1.5)``: our functions on batches of
   1 ... 4096 states at once, time per state, against one Pinocchio call per state.
   The bar (issue 2): batched ``rnea`` per state within 10x of a Pinocchio ``rnea`` call.
3. **7-DOF chain** ``auto_tree(7)``: our unbatched ``rnea`` against
   ``modern_robotics.InverseDynamics``. The bar: ours is faster.

Times are medians over repeats of loops long enough to be measured (as ``timeit``), with
the garbage collector off during a loop, in CPU time of this process (``--wall`` for the
wall clock): on a shared machine other processes stretch the wall clock, not the CPU time.
Nothing here asserts a time: it is a report.

Run: ``make bench`` or ``python benchmarks/bench_dynamics.py`` (about 2 CPU-minutes; longer
in wall-clock time on a busy machine), or ``--quick`` (about half a CPU-minute).
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import timeit

# one thread everywhere, so the CPU time of the process is the time of the computation
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import rbdl_edu as rbd
from rbdl_edu.model.enums import HINGE, SLIDE
from rbdl_edu.models import auto_tree
from rbdl_edu.rotation import quat_to_mat

try:
    import pinocchio as pin
except ImportError:          # the report still runs, with the Pinocchio columns empty
    pin = None
try:
    import modern_robotics as mr
except ImportError:
    mr = None

TOL = 1e-9


# -- timing -----------------------------------------------------------------------------------
# The CPU time of this process by default: on a shared machine, other processes stretch the
# wall-clock time of a loop but not the CPU time it uses (``--wall`` measures wall time).
CLOCK = {"cpu": time.process_time, "wall": time.perf_counter}
clock = CLOCK["cpu"]


def calibrate(f, min_time):
    """``(number, t)``: how many calls of ``f()`` make a loop of at least ``min_time``, and
    the time per call of that loop (as ``timeit.Timer.autorange``). The first call is the
    warm-up; a call longer than ``min_time`` is its own loop."""
    timer = timeit.Timer(f, timer=clock)
    number, t = 1, timer.timeit(1)
    if t < min_time:                              # a short call: time it again, warm
        t = timer.timeit(1)
        while t < min_time:
            number = max(number * 2, int(number * min_time / max(t, 1e-9) * 1.1))
            t = timer.timeit(number)
    return number, t / number


def measure(cells, repeat, min_time):
    """Median seconds per call of each function in ``cells`` (a dict; ``None`` values are
    skipped): ``repeat`` loops each, calibrated once. The repeats go round all the cells in
    turn, so a busy spell on the machine spreads over many cells, one loop each, and the
    median drops it. Cells slower than a second get three loops."""
    loops = {k: calibrate(f, min_time) for k, f in cells.items() if f is not None}
    samples = {k: [t] for k, (n, t) in loops.items()}
    for r in range(repeat - 1):
        for k, (n, t) in loops.items():
            if t * n > 1.0 and r >= 2:
                continue
            samples[k].append(timeit.Timer(cells[k], timer=clock).timeit(n) / n)
    return {k: statistics.median(v) for k, v in samples.items()}


def fmt(t):
    """A time in s, ms, µs or ns with three significant digits; '—' for none."""
    if t is None or not np.isfinite(t):
        return "—"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if t >= scale:
            return f"{t / scale:.3g} {unit}"
    return f"{t / 1e-9:.3g} ns"


def ratio(a, b):
    return "—" if a is None or b is None else f"{a / b:.3g}×"


def slope(ns, ts, n_min=16):
    """Exponent k of t ~ N^k: least-squares slope of log t against log N over N >= n_min."""
    pts = [(n, t) for n, t in zip(ns, ts) if n >= n_min and t is not None]
    if len(pts) < 2:
        return None
    x, y = np.log([p[0] for p in pts]), np.log([p[1] for p in pts])
    return float(np.polyfit(x, y, 1)[0])


def progress(msg):
    """A progress note on stderr (the tables go to stdout)."""
    print(f"   ... {msg}", file=sys.stderr, flush=True)


def table(headers, rows, out=print):
    cols = list(zip(*([headers] + rows)))
    widths = [max(len(str(c)) for c in col) for col in cols]
    line = lambda r: "  ".join(str(c).rjust(w) for c, w in zip(r, widths))
    out(line(headers))
    out("  ".join("-" * w for w in widths))
    for r in rows:
        out(line(r))


# -- the same tree in Pinocchio and modern_robotics -------------------------------------------
def _pose(quat, pos):
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = quat_to_mat(np.asarray(quat, float)), pos
    return T


def _check_model(model):
    for i in range(1, model.nbody):
        if model.body_jntnum[i] != 1 or model.jnt_type[model.body_jntadr[i]] not in (HINGE, SLIDE):
            raise ValueError("the benchmark builders take one hinge or slide per body")
    if np.any(np.asarray(model.dof_armature) != 0):
        raise ValueError("the benchmark builders take no armature")


def to_pinocchio(model):
    """A ``pinocchio.Model`` of the same tree; its ``q`` is ours minus ``qpos0`` (joint ``ref``).

    Pinocchio puts each body's frame at its joint: the joint of body ``i`` sits at
    ``jnt_pos`` in our body frame, so the placement in the parent's joint frame is
    ``T(-p_parent) · T(body_quat, body_pos) · T(p_i)`` and the inertia's center of mass moves
    to ``body_ipos - p_i``.
    """
    _check_model(model)
    pm = pin.Model()
    pm.gravity = pin.Motion(np.concatenate([np.asarray(model.opt.gravity, float), np.zeros(3)]))
    joint_id, joint_pos = {0: 0}, {0: np.zeros(3)}
    for i in range(1, model.nbody):
        j = model.body_jntadr[i]
        p, a, parent = np.asarray(model.jnt_pos[j], float), np.asarray(model.jnt_axis[j], float), model.body_parentid[i]
        if model.jnt_type[j] == SLIDE:
            p = np.zeros(3)       # a slide's anchor does not matter
        T = _pose([1, 0, 0, 0], -joint_pos[parent]) @ _pose(model.body_quat[i], model.body_pos[i]) \
            @ _pose([1, 0, 0, 0], p)
        jm = (pin.JointModelRevoluteUnaligned if model.jnt_type[j] == HINGE else pin.JointModelPrismaticUnaligned)(a)
        jid = pm.addJoint(joint_id[parent], jm, pin.SE3(T[:3, :3], T[:3, 3]), model.jnt_names[j])
        Ri = quat_to_mat(np.asarray(model.body_iquat[i], float))
        Ic = Ri @ np.diag(np.asarray(model.body_inertia[i], float)) @ Ri.T
        pm.appendBodyToJoint(jid, pin.Inertia(float(model.body_mass[i]), np.asarray(model.body_ipos[i], float) - p, Ic),
                             pin.SE3.Identity())
        joint_id[i], joint_pos[i] = jid, p
    # our DOF k is Pinocchio's velocity index perm[k] (both number bodies depth first)
    perm = np.array([pm.joints[joint_id[model.dof_bodyid[k]]].idx_v for k in range(model.nv)])
    assert np.array_equal(perm, np.arange(model.nv)), "DOF order differs from Pinocchio's"
    return pm


def to_modern_robotics(model):
    """``(Mlist, Glist, Slist)`` of the same serial chain for modern_robotics, in the space
    frame at the home configuration ``q = qpos0``; its ``θ`` is ours minus ``qpos0``.

    Link frame ``{i}`` is body ``i``'s center of mass with principal axes, so ``G_i`` is
    ``diag(I_i, m_i, m_i, m_i)``; the screw axis of hinge ``i`` is ``[ω; -ω × p]`` with ``ω``
    its world axis and ``p`` its world anchor.
    """
    _check_model(model)
    if not np.array_equal(model.body_parentid[1:], np.arange(model.nbody - 1)):
        raise ValueError("modern_robotics takes a serial chain")
    T_body, C_prev = [np.eye(4)], np.eye(4)
    Mlist, Glist, S = [], [], []
    for i in range(1, model.nbody):
        j = model.body_jntadr[i]
        T = T_body[model.body_parentid[i]] @ _pose(model.body_quat[i], model.body_pos[i])
        T_body.append(T)
        C = T @ _pose(model.body_iquat[i], model.body_ipos[i])
        Mlist.append(np.linalg.inv(C_prev) @ C)
        C_prev = C
        m = float(model.body_mass[i])
        Glist.append(np.diag(np.concatenate([np.asarray(model.body_inertia[i], float), [m, m, m]])))
        a = T[:3, :3] @ np.asarray(model.jnt_axis[j], float)
        if model.jnt_type[j] == HINGE:
            p = T[:3, :3] @ np.asarray(model.jnt_pos[j], float) + T[:3, 3]
            S.append(np.concatenate([a, -np.cross(a, p)]))
        else:
            S.append(np.concatenate([np.zeros(3), a]))
    Mlist.append(np.eye(4))                     # end-effector frame (no tip force)
    return np.array(Mlist), np.array(Glist), np.array(S).T


def random_state(model, rng, batch=()):
    q = model.qpos0 + rng.uniform(-1.0, 1.0, batch + (model.nq,))
    qd, qdd, tau = rng.normal(size=(3,) + batch + (model.nv,))
    return q, qd, qdd, tau


def _close(name, ours, theirs, what):
    err = np.abs(ours - theirs).max()
    scale = max(1.0, np.abs(theirs).max())
    if not err <= TOL * scale:
        raise AssertionError(f"{what}: {name} differs from ours by {err:.3g} (scale {scale:.3g}); not timing")


def verify_pinocchio(model, pm, trials=3, seed=1):
    data, rng = pm.createData(), np.random.default_rng(seed)
    for _ in range(trials):
        q, qd, qdd, tau = random_state(model, rng)
        qp = q - model.qpos0
        M = pin.crba(pm, data, qp)
        M = np.triu(M) + np.triu(M, 1).T
        _close("pinocchio.rnea", rbd.rnea(model, q, qd, qdd), pin.rnea(pm, data, qp, qd, qdd), model)
        _close("pinocchio.crba", rbd.crba(model, q), M, model)
        _close("pinocchio.aba", rbd.aba(model, q, qd, tau), pin.aba(pm, data, qp, qd, tau), model)


def verify_modern_robotics(model, mlist, trials=3, seed=2):
    Mlist, Glist, Slist = mlist
    g, rng = np.asarray(model.opt.gravity, float), np.random.default_rng(seed)
    for _ in range(trials):
        q, qd, qdd, tau = random_state(model, rng)
        th = q - model.qpos0
        _close("mr.InverseDynamics", rbd.rnea(model, q, qd, qdd),
               mr.InverseDynamics(th, qd, qdd, g, np.zeros(6), Mlist, Glist, Slist), model)
        if model.nv <= 16:                       # O(N^2) Python: check the small ones
            _close("mr.MassMatrix", rbd.crba(model, q), mr.MassMatrix(th, Mlist, Glist, Slist), model)
            _close("mr.ForwardDynamics", rbd.aba(model, q, qd, tau),
                   mr.ForwardDynamics(th, qd, tau, g, np.zeros(6), Mlist, Glist, Slist), model)


# -- the three sections ------------------------------------------------------------------------
def bench_chains(ns, repeat, min_time, mr_max, out=print):
    out("1. Chains of N hinges (auto_tree(N), bf=1): time per call; fitted exponent over N >= 16")
    out("   (modern_robotics MassMatrix/ForwardDynamics call InverseDynamics N times: timed up to "
        f"N = {mr_max})\n")
    algos = ("rnea", "crba", "aba")
    cells = {}
    for n in ns:
        model = auto_tree(n)
        q, qd, qdd, tau = random_state(model, np.random.default_rng(n))
        cells["ours", "rnea", n] = lambda model=model, q=q, qd=qd, qdd=qdd: rbd.rnea(model, q, qd, qdd)
        cells["ours", "crba", n] = lambda model=model, q=q: rbd.crba(model, q)
        cells["ours", "aba", n] = lambda model=model, q=q, qd=qd, tau=tau: rbd.aba(model, q, qd, tau)
        if pin is not None:
            pm = to_pinocchio(model)
            verify_pinocchio(model, pm)
            data, qp = pm.createData(), q - model.qpos0
            cells["pin", "rnea", n] = lambda pm=pm, data=data, qp=qp, qd=qd, qdd=qdd: pin.rnea(pm, data, qp, qd, qdd)
            cells["pin", "crba", n] = lambda pm=pm, data=data, qp=qp: pin.crba(pm, data, qp)
            cells["pin", "aba", n] = lambda pm=pm, data=data, qp=qp, qd=qd, tau=tau: pin.aba(pm, data, qp, qd, tau)
        if mr is not None:
            ml = to_modern_robotics(model)
            verify_modern_robotics(model, ml)
            th, g, F = q - model.qpos0, np.asarray(model.opt.gravity, float), np.zeros(6)
            cells["mr", "rnea", n] = lambda th=th, qd=qd, qdd=qdd, g=g, F=F, ml=ml: mr.InverseDynamics(th, qd, qdd, g, F, *ml)
            if n <= mr_max:
                cells["mr", "crba", n] = lambda th=th, ml=ml: mr.MassMatrix(th, *ml)
                cells["mr", "aba", n] = lambda th=th, qd=qd, tau=tau, g=g, F=F, ml=ml: mr.ForwardDynamics(th, qd, tau, g, F, *ml)
    progress(f"{len(cells)} cells built and checked; timing")
    t = measure(cells, repeat, min_time)
    res = {(lib, a): [t.get((lib, a, n)) for n in ns] for lib in ("ours", "pin", "mr") for a in algos}
    rows = [[n] + [fmt(res[lib, a][k]) for a in algos for lib in ("ours", "pin", "mr")] for k, n in enumerate(ns)]
    headers = ["N"] + [f"{lib} {a}" for a in algos for lib in ("ours", "pin", "mr")]
    table(headers, rows, out)
    out("")
    def fit(lib, a, last_two=False):
        pts = [(n, t) for n, t in zip(ns, res[lib, a]) if t is not None]
        if last_two:
            pts = pts[-2:]
        k = slope(*zip(*pts)) if pts else None
        return "—" if k is None else f"{k:.2f}"
    exps = [["exponent, fit over N >= 16"] + [fit(lib, a) for a in algos for lib in ("ours", "pin", "mr")],
            ["local slope, last two N"] + [fit(lib, a, True) for a in algos for lib in ("ours", "pin", "mr")]]
    table(["t ~ N^k"] + headers[1:], exps, out)
    out("")
    last = ns[-1]
    out(f"   at N = {last}: ours / Pinocchio = " + ", ".join(
        f"{a} {ratio(res['ours', a][-1], res['pin', a][-1])}" for a in algos))
    out("")
    return res


def bench_batched(batches, repeat, min_time, out=print):
    model = auto_tree(30, bf=1.5)
    out(f"2. Batched, on the 30-body branched tree auto_tree(30, bf=1.5) (nv = {model.nv}): "
        "time per state\n")
    rng = np.random.default_rng(30)
    algos = ("rnea", "crba", "aba")
    cells = {}
    if pin is not None:
        pm = to_pinocchio(model)
        verify_pinocchio(model, pm)
        data = pm.createData()
        q, qd, qdd, tau = random_state(model, rng)
        qp = q - model.qpos0
        cells["pin", "rnea"] = lambda qp=qp, qd=qd, qdd=qdd: pin.rnea(pm, data, qp, qd, qdd)
        cells["pin", "crba"] = lambda qp=qp: pin.crba(pm, data, qp)
        cells["pin", "aba"] = lambda qp=qp, qd=qd, tau=tau: pin.aba(pm, data, qp, qd, tau)
        # the batched functions agree with Pinocchio state by state
        q, qd, qdd, tau = random_state(model, rng, (8,))
        tb = rbd.rnea(model, q, qd, qdd)
        for b in range(8):
            _close("pinocchio.rnea (batched)", tb[b], pin.rnea(pm, data, q[b] - model.qpos0, qd[b], qdd[b]), model)
    for B in batches:
        q, qd, qdd, tau = random_state(model, rng, (B,))
        cells[B, "rnea"] = lambda q=q, qd=qd, qdd=qdd: rbd.rnea(model, q, qd, qdd)
        cells[B, "crba"] = lambda q=q: rbd.crba(model, q)
        cells[B, "aba"] = lambda q=q, qd=qd, tau=tau: rbd.aba(model, q, qd, tau)
    progress("timing the batches")
    t = measure(cells, repeat, min_time)
    pin_t = {a: t["pin", a] for a in algos if ("pin", a) in t}
    per_state = {(B, a): t[B, a] / B for B in batches for a in algos}
    rows = [[B] + [fmt(per_state[B, a]) for a in algos] + [ratio(per_state[B, a], pin_t.get(a)) for a in algos]
            for B in batches]
    table(["batch", "rnea/state", "crba/state", "aba/state", "rnea ÷ pin", "crba ÷ pin", "aba ÷ pin"],
          rows, out)
    out("")
    if pin_t:
        out("   Pinocchio, one call from Python: " + ", ".join(f"{a} {fmt(pin_t[a])}" for a in algos))
        B = batches[-1]
        r = per_state[B, "rnea"] / pin_t["rnea"]
        out(f"   BAR  batched rnea per state at batch {B} / Pinocchio rnea per call = {r:.3g}× "
            f"(bar: within 10×) -> {'MET' if r <= 10 else 'MISSED'}")
    out("")
    return per_state, pin_t


def bench_7dof(repeat, min_time, out=print):
    model = auto_tree(7)
    out("3. 7-DOF chain auto_tree(7): unbatched inverse dynamics, time per call\n")
    q, qd, qdd, tau = random_state(model, np.random.default_rng(7))
    cells = {"ours": lambda: rbd.rnea(model, q, qd, qdd)}
    if mr is not None:
        ml = to_modern_robotics(model)
        verify_modern_robotics(model, ml)
        th, g, F = q - model.qpos0, np.asarray(model.opt.gravity, float), np.zeros(6)
        cells["mr"] = lambda: mr.InverseDynamics(th, qd, qdd, g, F, *ml)
    if pin is not None:
        pm = to_pinocchio(model)
        verify_pinocchio(model, pm)
        data, qp = pm.createData(), q - model.qpos0
        cells["pin"] = lambda: pin.rnea(pm, data, qp, qd, qdd)
    t = measure(cells, repeat, min_time)
    ours, t_mr, t_pin = t["ours"], t.get("mr"), t.get("pin")
    rows = [["rbdl_edu.rnea", fmt(ours), "1×"]]
    if t_mr is not None:
        rows.append(["modern_robotics.InverseDynamics", fmt(t_mr), ratio(t_mr, ours)])
    if t_pin is not None:
        rows.append(["pinocchio.rnea", fmt(t_pin), ratio(t_pin, ours)])
    table(["7-DOF inverse dynamics", "per call", "÷ ours"], rows, out)
    out("")
    if t_mr is not None:
        r = ours / t_mr
        out(f"   BAR  rbdl_edu.rnea / modern_robotics.InverseDynamics = {r:.3g}× "
            f"(bar: < 1, ours faster) -> {'MET' if r < 1 else 'MISSED'}")
    out("")
    return ours, t_mr, t_pin


def _git_state():
    """The commit of the checkout rbdl_edu is imported from, and whether rbdl_edu/ has local edits."""
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(rbd.__file__)))
    try:
        head = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--", "rbdl_edu"], capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "(not a git checkout)"
    return f"commit {head}" + (" with uncommitted edits in rbdl_edu/" if dirty else "")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer sizes and repeats (about a minute)")
    ap.add_argument("--wall", action="store_true", help="time by the wall clock, not the process's CPU time")
    args = ap.parse_args(argv)
    global clock
    clock = CLOCK["wall" if args.wall else "cpu"]
    if args.quick:
        ns, batches, repeat, min_time, mr_max = (4, 8, 16, 32, 64), (1, 16, 256, 4096), 3, 0.03, 16
    else:
        ns, batches, repeat, min_time, mr_max = (4, 8, 16, 32, 64, 128, 256), (1, 4, 16, 64, 256, 1024, 4096), 5, 0.1, 64
    t0 = time.perf_counter()
    print("rbdl_edu dynamics benchmark" + (" (--quick)" if args.quick else ""))
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"pinocchio {pin.__version__ if pin else 'missing'}, "
          f"modern_robotics {getattr(mr, '__version__', '1.1.1') if mr else 'missing'}; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    print(f"rbdl_edu from {os.path.dirname(rbd.__file__)} at {_git_state()}")
    print(f"{'wall-clock' if args.wall else 'CPU'} time of this process, "
          f"median of {repeat} repeats, each loop >= {min_time} s; ours/pin/mr = rbdl_edu / Pinocchio / "
          "modern_robotics; every foreign model is checked equal to ours (1e-9) before timing\n")
    bench_chains(ns, repeat, min_time, mr_max)
    bench_batched(batches, repeat, min_time)
    bench_7dof(repeat, min_time)
    print(f"total {time.perf_counter() - t0:.0f} s, load average now {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
