r"""Diagrams drawn from a model: its kinematic tree, the passes of the recursive algorithms,
composite bodies, and frames in the plane.

Every picture is computed from the model's own arrays (``body_parentid``, ``body_dofadr``,
``jnt_qposadr``, ...), so a diagram can never disagree with the model it shows.

=================================  ===========================================================
``tree_layout(model)``             node positions: the root on top, children below their parent
``draw_tree(model)``               bodies as numbered nodes with ``λ(i)``, dof and ``qpos``
                                   addresses, joints on the edges
``draw_passes(model, passes)``     the sweeps of RNEA, CRBA or ABA as arrows along the edges,
                                   numbered in the order the algorithm visits the bodies
``draw_composites(model)``         the nested subtrees whose composite inertias CRBA adds up
``draw_planar_frames(...)``        two frames in the plane and the velocity of a turning body
=================================  ===========================================================
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from rbdl_edu.model.enums import BALL, FREE, HINGE, SLIDE

_KIND = {FREE: "free", BALL: "ball", SLIDE: "slide", HINGE: "hinge"}


def _ax(ax, size=(6, 4)):
    if ax is None:
        _, ax = plt.subplots(figsize=size)
    return ax


def children(model, i):
    """Bodies whose parent is ``i``, in index order.

    >>> from rbdl_edu.models import branched_tree
    >>> children(branched_tree(), 1)
    [2, 4]
    """
    return [k for k in range(1, model.nbody) if int(model.body_parentid[k]) == i]


def depth(model, i):
    """Number of edges from the world to body ``i``.

    >>> from rbdl_edu.models import double_pendulum
    >>> depth(double_pendulum(), 2)
    2
    """
    d = 0
    while i > 0:
        i, d = int(model.body_parentid[i]), d + 1
    return d


def subtree(model, i):
    """Body ``i`` and all its descendants (the bodies beyond its joint), in index order.

    >>> from rbdl_edu.models import branched_tree
    >>> subtree(branched_tree(), 4)
    [4, 5]
    """
    out = [i]
    for k in range(i + 1, model.nbody):            # parents come before children
        if int(model.body_parentid[k]) in out:
            out.append(k)
    return out


def tree_layout(model):
    """Positions ``(nbody, 2)``: body ``i`` at height ``-depth(i)``; leaves spread left to right
    in depth-first order and every parent centered over its children.

    >>> from rbdl_edu.models import branched_tree
    >>> tree_layout(branched_tree())
    array([[ 0.5,  0. ],
           [ 0.5, -1. ],
           [ 0. , -2. ],
           [ 0. , -3. ],
           [ 1. , -2. ],
           [ 1. , -3. ]])
    """
    pos = np.zeros((model.nbody, 2))
    next_leaf = [0.0]

    def place(i):
        kids = children(model, i)
        for k in kids:
            place(k)
        pos[i] = (np.mean([pos[k, 0] for k in kids]) if kids else next_leaf[0], -depth(model, i))
        if not kids:
            next_leaf[0] += 1.0

    place(0)
    return pos


def dof_label(model, i):
    """``'dof 3'``, ``'dofs 0-2'`` or ``'no dof'`` for body ``i`` (its ``body_dofadr`` range).

    >>> from rbdl_edu.models import floating_base, double_pendulum
    >>> [dof_label(floating_base(double_pendulum()), i) for i in range(4)]
    ['no dof', 'dofs 0-5', 'dof 6', 'dof 7']
    """
    n, a = int(model.body_dofnum[i]), int(model.body_dofadr[i])
    if n == 0:
        return "no dof"
    return f"dof {a}" if n == 1 else f"dofs {a}-{a + n - 1}"


def joint_label(model, i):
    """The joints of body ``i``: ``'hinge elbow (qpos 4)'``, one per line; ``'welded'`` if none."""
    rows = []
    for j in range(int(model.body_jntadr[i]), int(model.body_jntadr[i]) + int(model.body_jntnum[i])):
        adr = int(model.jnt_qposadr[j])
        rows.append(f"{_KIND[int(model.jnt_type[j])]} {model.jnt_names[j]} (qpos {adr})")
    return "\n".join(rows) if rows else "welded"


def draw_tree(model, ax=None, addresses=True, node_color="#f4e3c1", title=None, node_size=420):
    """Draw the kinematic tree: a numbered node per body (the world is 0), an edge to its
    parent labelled with the joints, and beside each node its name, ``λ(i) = body_parentid[i]``
    and its dof addresses. Returns the axes.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rbdl_edu.models import branched_tree
    >>> ax = draw_tree(branched_tree())
    >>> sum("λ(" in t.get_text() for t in ax.texts)
    5
    """
    pos = tree_layout(model)
    width = max(np.ptp(pos[:, 0]), 1.0)
    ax = _ax(ax, size=(3.0 + 2.6 * width, 1.0 + 1.0 * np.ptp(pos[:, 1])))
    for i in range(1, model.nbody):
        p = int(model.body_parentid[i])
        ax.plot(*zip(pos[p], pos[i]), color="0.45", lw=1.5, zorder=1)
        if addresses:                           # the joint, on the outer side of its edge
            left = pos[i, 0] <= pos[p, 0]
            ax.annotate(joint_label(model, i), 0.5 * (pos[p] + pos[i]), xytext=(-9 if left else 9, 0),
                        textcoords="offset points", ha="right" if left else "left", va="center",
                        fontsize=8.5, color="#8a4b08")
    for i in range(model.nbody):
        ax.scatter(*pos[i], s=node_size, color="0.85" if i == 0 else node_color, edgecolor="0.3", zorder=2)
        ax.text(*pos[i], str(i), ha="center", va="center", fontsize=10 * min(1.0, (node_size / 420) ** 0.5),
                weight="bold", zorder=3)
        label = str(model.body_names[i])
        if addresses and i > 0:
            label += f"\nλ({i}) = {int(model.body_parentid[i])}\n{dof_label(model, i)}"
        ax.annotate(label, pos[i], xytext=(13, 0), textcoords="offset points", ha="left", va="center",
                    fontsize=9, zorder=3)
    ax.set_xlim(pos[:, 0].min() - 0.75, pos[:, 0].max() + 0.75)
    ax.set_ylim(pos[:, 1].min() - 0.45, 0.45)
    ax.set_axis_off()
    if title:
        ax.set_title(title)
    return ax


def draw_passes(model, passes, ax=None, title=None):
    """The sweeps of a recursive algorithm as arrows along the tree's edges.

    ``passes`` is a list of ``(direction, label, color)`` with direction ``"out"`` (root to
    leaves: bodies ``1, 2, ..., n-1`` in order) or ``"in"`` (leaves to root: ``n-1, ..., 1``).
    Each arrow is numbered with the step at which the pass handles that edge's child body;
    the passes sit side by side along every edge. Returns the axes.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rbdl_edu.models import branched_tree
    >>> ax = draw_passes(branched_tree(), [("out", "v, a, f", "C0"), ("in", "τ, f", "C3")])
    >>> len(ax.patches)                             # one arrow per body and pass
    10
    """

    pos = tree_layout(model)
    ax = draw_tree(model, ax=ax, addresses=False, node_color="white")
    offsets = np.linspace(-0.07, 0.07, len(passes)) * (len(passes) - 1) if len(passes) > 1 else [0.0]
    for (direction, label, color), off in zip(passes, offsets):
        order = list(range(1, model.nbody)) if direction == "out" else list(range(model.nbody - 1, 0, -1))
        for step, i in enumerate(order, start=1):
            a, b = pos[int(model.body_parentid[i])], pos[i]
            d = b - a
            n = np.array([-d[1], d[0]]) / np.linalg.norm(d)
            start, end = a + 0.3 * d + off * n, a + 0.7 * d + off * n
            if direction == "in":
                start, end = end, start
            ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=12, color=color, lw=1.6,
                                         zorder=4))
            mid = 0.5 * (start + end) + 0.07 * np.sign(off or 1.0) * n
            ax.text(*mid, str(step), color=color, fontsize=8.5, ha="center", va="center", zorder=5,
                    bbox=dict(boxstyle="circle,pad=0.1", fc="white", ec="none", alpha=0.8))
        ax.plot([], [], color=color, lw=2, label=f"{'root → leaves' if direction == 'out' else 'leaves → root'}: "
                                              f"{label}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), fontsize=10, frameon=False)
    if title:
        ax.set_title(title)
    return ax


def draw_composites(model, ax=None, title=None):
    """The composite bodies of CRBA: for every body ``i`` a shaded box around its subtree,
    labelled :math:`I^C_i`; boxes nest as subtrees do, and a box holds its children's boxes.
    Returns the axes.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rbdl_edu.models import branched_tree
    >>> ax = draw_composites(branched_tree())
    >>> len(ax.patches)                             # one box per moving body
    5
    """

    pos = tree_layout(model)
    ax = draw_tree(model, ax=ax, addresses=False, node_color="white")
    colors = ["#d9e8f5", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6"]
    for i in range(1, model.nbody):
        sub = pos[subtree(model, i)]
        pad = 0.3 - 0.045 * depth(model, i)
        lo, hi = sub.min(axis=0) - pad, sub.max(axis=0) + pad
        lo[0] -= 0.32                           # room on the left for the label, beside the node, not under it
        ax.add_patch(FancyBboxPatch(lo, *(hi - lo), boxstyle="round,pad=0.02,rounding_size=0.15",
                                    color=colors[min(depth(model, i) - 1, len(colors) - 1)], alpha=0.45,
                                    zorder=0, lw=0))
        ax.text(lo[0] + 0.05, hi[1] - 0.05, f"$I^C_{{{i}}}$", fontsize=11, ha="left", va="top", color="#08306b")
    if title:
        ax.set_title(title)
    return ax


def draw_planar_frames(ax, omega, center, frames, points=(), span=2.0, n=9):
    r"""A body turning at ``omega`` (rad/s, about the axis out of the page) around ``center``
    in the plane, drawn as its velocity field :math:`v_P = \omega \times (P - c)` (grey
    arrows), with frames drawn as labelled axes ``frames = {name: (origin (2,), angle)}``
    and the velocity of the body point under each frame's origin in colour. ``points``
    adds labelled dots ``(name, (2,))``. Returns the axes.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = draw_planar_frames(None, 1.0, [1.0, 0.0], {"A": ([0.0, 0.0], 0.0)})
    >>> ax.get_aspect()
    1.0
    """
    ax = _ax(ax, size=(5, 5))
    center = np.asarray(center, float)

    def v(p):                                   # ω ẑ × (p − c), in the plane
        r = np.asarray(p, float) - center
        return omega * np.array([-r[1], r[0]])

    g = np.linspace(-span, span, n)
    X, Y = np.meshgrid(g + center[0], g + center[1])
    V = np.array([[v((x, y)) for x, y in zip(rx, ry)] for rx, ry in zip(X, Y)])
    ax.quiver(X, Y, V[..., 0], V[..., 1], color="0.75", angles="xy", scale_units="xy", scale=2.2 * abs(omega),
              width=0.004)
    ax.plot(*center, "o", color="k", ms=6)
    ax.annotate("spin axis", center, xytext=(8, -14), textcoords="offset points", fontsize=9)
    colors = ["C0", "C3", "C2", "C1"]
    for (name, (origin, angle)), color in zip(frames.items(), colors):
        o = np.asarray(origin, float)
        R = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        for k, axis_name in enumerate("xy"):
            tip = o + 0.7 * R[:, k]
            ax.annotate("", tip, o, arrowprops=dict(arrowstyle="-|>", color=color, lw=1.8))
            ax.text(*(o + 0.8 * R[:, k]), f"${axis_name}_{name}$", color=color, fontsize=10, ha="center",
                    va="center")
        vo = v(o)
        tip = o + vo / (2.2 * abs(omega))
        ax.annotate("", tip, o, arrowprops=dict(arrowstyle="-|>", color=color, lw=2.5))
        u = vo / max(np.linalg.norm(vo), 1e-12)             # the label just beyond the arrow's tip
        ax.annotate(f"$v_{{O_{name}}}$", tip, xytext=(14 * u[0], 14 * u[1]), textcoords="offset points",
                    color=color, fontsize=11, ha="center", va="center")
        ax.text(*(o - [0.35, 0.3]), f"$O_{name}$", color=color, fontsize=11)
    for name, p in points:
        ax.plot(*p, "o", color="k", ms=4)
        ax.text(p[0] + 0.08, p[1] + 0.08, name, fontsize=10)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    return ax


__all__ = ["tree_layout", "draw_tree", "draw_passes", "draw_composites", "draw_planar_frames", "children",
           "subtree", "depth"]
