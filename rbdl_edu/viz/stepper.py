r"""Step through RNEA body by body (book chapter 5).

:func:`rnea_trace` turns what :func:`rbdl_edu.rnea.rnea_passes` computes -- the real RNEA,
not a copy -- into steps, one body at a time: the forward pass (``v``, ``a``, the force a
body needs) and the backward pass (``τ_i = S_iᵀ f_i``, ``f_λ += λX_i* f_i``).

:func:`rnea_stepper` shows the trace: a 3D view with the current body's spatial velocity,
acceleration and force drawn as arrows at its origin (angular part light, linear part
dark), the current equation with its numbers, and a step slider. The text follows the
slider on the static page too (``jslink`` to a ``Stack``); the arrows follow it when a
kernel runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import ipywidgets as widgets
import numpy as np

from rbdl_edu.kinematics import forward_kinematics
from rbdl_edu.rnea import rnea_passes
from rbdl_edu.viz import geometry as geo
from rbdl_edu.viz.framing import model_bounds
from rbdl_edu.viz.scene import scene

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


def step_arrows(step, xpos, xmat, extent):
    """World-frame arrows for a step: for each spatial vector ``[angular; linear]`` in body
    coordinates, the angular part (light) and the linear part (dark) at the body origin."""
    i, R, out = step.body, np.asarray(xmat[step.body]), []
    for key, vec in step.vectors.items():
        light, dark = COLORS[key]
        for part, color in ((vec[:3], light), (vec[3:], dark)):
            n = float(np.linalg.norm(part))
            if n > 1e-9:
                length = 0.35 * extent * min(1.0, 0.3 + 0.7 * np.tanh(n))   # readable, monotone in |x|
                out.append(geo.arrow(xpos[i], R @ part / n, color, scale=length, radius=0.012 * extent))
    return out


def rnea_stepper(model, q, qd, qdd, width=600, height=400):
    """A widget to step through RNEA at ``(q, qd, qdd)`` body by body.

    Returns an ipywidgets ``VBox`` with ``.view`` (the 3D scene), ``.slider`` (the step),
    ``.steps`` (from :func:`rnea_trace`) and ``.tau``.

    >>> from rbdl_edu.models import double_pendulum
    >>> w = rnea_stepper(double_pendulum(), [0.1, 0.2], [0.3, 0.0], [0.0, 0.0])
    >>> w.slider.max, len(w.steps)
    (3, 4)
    """
    steps, tau = rnea_trace(model, q, qd, qdd)
    xpos, xmat = forward_kinematics(model, np.asarray(q, float))
    center, size = model_bounds(model, xpos, xmat)       # leave room for the arrows
    view = scene(model, q, width=width, height=height, show_joints=False, opacity=0.5,
                 bounds=(center, 1.6 * size))
    slider = widgets.IntSlider(value=0, min=0, max=len(steps) - 1, description="step")
    text = widgets.Stack([widgets.HTML(s.equation) for s in steps], selected_index=0)
    link = widgets.jslink((slider, "value"), (text, "selected_index"))
    legend = widgets.HTML("arrows at the body origin: <span style='color:#1f77b4'>■</span> velocity, "
                          "<span style='color:#2ca02c'>■</span> acceleration, "
                          "<span style='color:#d62728'>■</span> force (light: angular part / moment). "
                          "<small style='color:#666'>The text follows the slider here; the arrows follow it "
                          "when the notebook runs.</small>")

    def show(k):
        view.set_overlay(step_arrows(steps[k], xpos, xmat, view.extent))

    slider.observe(lambda change: show(change["new"]), names="value")
    show(0)
    box = widgets.VBox([view, slider, text, legend])
    box.view, box.slider, box.steps, box.tau, box._link = view, slider, steps, tau, link
    return box
