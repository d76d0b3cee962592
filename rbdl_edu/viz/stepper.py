r"""Step through RNEA body by body (book chapter 5).

:func:`rnea_trace` turns what :func:`rbdl_edu.rnea.rnea_passes` computes -- the real RNEA,
not a copy -- into steps, one body at a time: the forward pass (``v``, ``a``, the force a
body needs) and the backward pass (``τ_i = S_iᵀ f_i``, ``f_λ += λX_i* f_i``).

:func:`rnea_stepper` shows the trace: a step slider, the current equation with its numbers,
and a picture of the model with the current body's vectors drawn at its origin (the linear
parts of velocity, acceleration and force as arrows in the plane of the picture, the angular
parts about the axis out of it as turning arrows). Every picture and every equation is made
in advance and the slider picks one of each through ``jslink``, so the stepper works on the
static page exactly as with a kernel.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import io

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch

from rbdl_edu.kinematics import forward_kinematics
from rbdl_edu.rnea import rnea_passes
from rbdl_edu.viz.plots import draw_planar
from rbdl_edu.viz.style import DPI

COLORS = {"v": ("#9ecae1", "#1f77b4"), "a": ("#a1d99b", "#2ca02c"), "f": ("#fcae91", "#d62728")}


@dataclass
class Step:
    """One step: ``phase`` ('forward' or 'backward'), ``body``, the ``equation`` (HTML),
    and the spatial vectors it shows (``{'v'|'a'|'f': (6,) in body coordinates}``)."""
    phase: str
    body: int
    equation: str
    vectors: dict = field(default_factory=dict)


def _fmt(x):
    return "[" + ", ".join(f"{float(c): .3f}" for c in np.ravel(x)) + "]"


def rnea_trace(model, q, qd, qdd):
    """The steps of RNEA at ``(q, qd, qdd)``: a forward-pass step per body (``v``, ``a``, ``f``)
    then a backward-pass step per body (``τ_i = S_iᵀ f_i``, ``f_λ += λX_i* f_i``).

    Returns ``(steps, tau)``, ``tau`` being ``rnea(model, q, qd, qdd)``.

    >>> from rbdl_edu.models import double_pendulum
    >>> steps, tau = rnea_trace(double_pendulum(), [0.1, 0.2], [0.3, 0.0], [0.0, 0.0])
    >>> [(s.phase, s.body) for s in steps]
    [('forward', 1), ('forward', 2), ('backward', 2), ('backward', 1)]
    """
    P = rnea_passes(model, np.asarray(q, float), np.asarray(qd, float), np.asarray(qdd, float))
    parent, steps = model.body_parentid, []
    for i in range(1, model.nbody):
        eq = (f"<b>forward pass, body {i}</b> ({model.body_names[i]}), parent λ = {parent[i]}<br>"
              f"v<sub>{i}</sub> = <sup>{i}</sup>X<sub>λ</sub> v<sub>λ</sub> + S<sub>{i}</sub> q̇<sub>{i}</sub>"
              f" = {_fmt(P.v[i])}<br>"
              f"a<sub>{i}</sub> = <sup>{i}</sup>X<sub>λ</sub> a<sub>λ</sub> + S<sub>{i}</sub> q̈<sub>{i}</sub>"
              f" + c<sub>J</sub> + v<sub>{i}</sub> × v<sub>J</sub> = {_fmt(P.a[i])}<br>"
              f"f<sub>{i}</sub> = I<sub>{i}</sub> a<sub>{i}</sub> + v<sub>{i}</sub> ×* I<sub>{i}</sub> v<sub>{i}</sub>"
              f" = {_fmt(P.fB[i])}")
        steps.append(Step("forward", i, eq, {"v": P.v[i], "a": P.a[i], "f": P.fB[i]}))
    for i in range(model.nbody - 1, 0, -1):
        eq = (f"<b>backward pass, body {i}</b> ({model.body_names[i]})<br>"
              f"τ<sub>{i}</sub> = S<sub>{i}</sub><sup>T</sup> f<sub>{i}</sub> = {_fmt(P.S[i].T @ P.f[i])}<br>")
        if parent[i] > 0:
            eq += (f"f<sub>{parent[i]}</sub> += <sup>{parent[i]}</sup>X<sub>{i}</sub><sup>*</sup> f<sub>{i}</sub>"
                   f" = (<sup>{i}</sup>X<sub>{parent[i]}</sub>)<sup>T</sup> f<sub>{i}</sub>")
        else:
            eq += "the rest of f goes to the world (the base reaction)"
        steps.append(Step("backward", i, eq, {"f": P.f[i]}))
    if model.dof_armature.any():
        steps[-1].equation += "<br>τ += armature · q̈ (the rotors' inertia on M's diagonal)"
    steps[-1].equation += f"<br><b>τ = {_fmt(P.tau)}</b> (= rnea(model, q, qd, qdd))"
    return steps, P.tau


PLANE = {"xz": (0, 2, 1), "xy": (0, 1, 2), "yz": (1, 2, 0)}      # (across, up, out of the picture)


def step_picture(model, q, step, xpos, xmat, lengths, plane="xz", limits=None):
    """PNG bytes: ``model`` at ``q`` drawn in ``plane`` (:func:`draw_planar`) with ``step``'s vectors at
    the body origin: each linear part as an arrow in the plane (its component out of the plane
    is not drawn), each angular part's component about the axis out of the picture as a turning
    arrow. ``lengths`` gives, per key, the drawn length of a unit vector."""
    h, v, out = PLANE[plane]
    fig = Figure(figsize=(4.6, 3.6), layout="constrained")
    ax = fig.subplots()
    draw_planar(model, q, ax=ax, plane=plane, color="0.55", show_com=False)
    i, R = step.body, np.asarray(xmat[step.body])
    o = np.asarray(xpos[i])
    for k, key in enumerate(("f", "a", "v")):              # the force first, thickest: arrows along
        if key not in step.vectors:                         # one line stay visible, one on the other
            continue
        vec, (light, dark) = step.vectors[key], COLORS[key]
        lin, ang = R @ vec[3:], R @ vec[:3]
        tip = o + lengths[key] * lin
        ax.annotate("", (tip[h], tip[v]), (o[h], o[v]), annotation_clip=False,
                    arrowprops=dict(arrowstyle="-|>", color=dark, lw=4.0 - 1.2 * k, mutation_scale=18 - 3 * k))
        turn = ang[out] * (1 if plane != "xz" else -1)        # counter-clockwise on the page is positive
        if abs(turn) > 1e-9:
            r = (0.1 + 0.05 * k) * lengths["span"]
            a0, a1 = np.radians(20 + 120 * k), np.radians(20 + 120 * k) + np.sign(turn) * np.radians(100)
            ax.add_patch(FancyArrowPatch((o[h] + r * np.cos(a0), o[v] + r * np.sin(a0)),
                                         (o[h] + r * np.cos(a1), o[v] + r * np.sin(a1)),
                                         connectionstyle=f"arc3,rad={0.45 * np.sign(turn)}", arrowstyle="-|>",
                                         mutation_scale=16, color=light, lw=2.5))
    if limits is not None:
        ax.set_xlim(*limits[0]); ax.set_ylim(*limits[1])
    ax.set_aspect("equal")
    ax.set_title(f"{step.phase} pass, body {i} ({model.body_names[i]})")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def rnea_stepper(model, q, qd, qdd, plane="xz"):
    """A widget to step through RNEA at ``(q, qd, qdd)`` body by body: a slider, the step's
    equation and a picture of the step's vectors (:func:`step_picture`), both chosen by the
    slider through ``jslink``, so it works on the static page too.

    Returns an ipywidgets ``VBox`` with ``.slider`` (the step), ``.steps`` (from
    :func:`rnea_trace`), ``.pictures`` (PNG bytes, one per step) and ``.tau``.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rbdl_edu.models import double_pendulum
    >>> w = rnea_stepper(double_pendulum(), [0.1, 0.2], [0.3, 0.0], [0.0, 0.0])
    >>> w.slider.max, len(w.steps), len(set(w.pictures))
    (3, 4, 4)
    """
    steps, tau = rnea_trace(model, q, qd, qdd)
    q = np.asarray(q, float)
    xpos, xmat = forward_kinematics(model, q)
    h, v, _ = PLANE[plane]
    scratch = Figure().subplots()                      # where the drawn model reaches (links, not only origins)
    draw_planar(model, q, ax=scratch, plane=plane, show_com=False)
    scratch.autoscale()
    pts = np.array([scratch.get_xlim(), scratch.get_ylim()]).T
    span = float(max(np.ptp(pts, axis=0).max(), 0.2))
    biggest = {key: max([np.linalg.norm(s.vectors[key][3:]) for s in steps if key in s.vectors] + [1e-12])
               for key in COLORS}
    lengths = {key: 0.3 * span / b for key, b in biggest.items()}        # the largest arrow: 30 % of the model
    lengths["span"] = span
    pad = 0.35 * span
    limits = ((pts[:, 0].min() - pad, pts[:, 0].max() + pad), (pts[:, 1].min() - pad, pts[:, 1].max() + pad))
    pictures = [step_picture(model, q, s, xpos, xmat, lengths, plane, limits) for s in steps]
    slider = widgets.IntSlider(value=0, min=0, max=len(steps) - 1, description="step")
    text = widgets.Stack([widgets.HTML(s.equation) for s in steps], selected_index=0)
    images = widgets.Stack([widgets.Image(value=p, format="png") for p in pictures], selected_index=0)
    links = [widgets.jslink((slider, "value"), (text, "selected_index")),
             widgets.jslink((slider, "value"), (images, "selected_index"))]
    legend = widgets.HTML("at the body origin: <span style='color:#1f77b4'>■</span> velocity, "
                          "<span style='color:#2ca02c'>■</span> acceleration, "
                          "<span style='color:#d62728'>■</span> force; straight arrows: the linear parts "
                          "(in the plane of the picture), light turning arrows: the angular parts (about the "
                          "axis out of it). All scaled to fit; the numbers are in the equations.")
    box = widgets.VBox([slider, text, images, legend])
    box.slider, box.steps, box.pictures, box.tau, box._links = slider, steps, pictures, tau, links
    return box
