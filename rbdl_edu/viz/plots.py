r"""Matplotlib helpers: planar drawings of a model, time plots, matrix patterns.

Planar models of the book move in the x-z plane (:mod:`rbdl_edu.models`), so
:func:`draw_planar` projects onto x (right) and z (up) unless told otherwise.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from rbdl_edu.kinematics import com_positions, forward_kinematics
from rbdl_edu.model.enums import CAPSULE, CYLINDER
from rbdl_edu.rotation import quat_to_mat

_AXES = {"x": 0, "y": 1, "z": 2}


def _ax(ax):
    if ax is None:
        _, ax = plt.subplots(figsize=(4, 4))
    return ax


def draw_planar(model, q, ax=None, plane="xz", color="C1", show_com=True, alpha=1.0, label=None):
    """Draw ``model`` at ``q`` projected on ``plane`` ('xz', 'xy' or 'yz'): each body as a line
    from its parent's origin to its own, capsules and cylinders as thick segments, joints as
    circles and centers of mass as crossed markers. Returns the axes.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rbdl_edu.models import double_pendulum
    >>> ax = draw_planar(double_pendulum(), [0.5, 0.5])
    >>> len(ax.lines) > 0
    True
    """
    ax = _ax(ax)
    h, v = _AXES[plane[0]], _AXES[plane[1]]
    xpos, xmat = forward_kinematics(model, np.asarray(q, dtype=float))
    for i in range(1, model.nbody):
        p = model.body_parentid[i]
        ax.plot([xpos[p, h], xpos[i, h]], [xpos[p, v], xpos[i, v]], color="0.6", lw=1, zorder=1, alpha=alpha)
    for g in range(model.ngeom):
        t, b = int(model.geom_type[g]), int(model.geom_bodyid[g])
        if t in (CAPSULE, CYLINDER) and b > 0:
            c = xpos[b] + xmat[b] @ np.asarray(model.geom_pos[g], float)
            axis = xmat[b] @ quat_to_mat(np.asarray(model.geom_quat[g], float))[:, 2]
            ends = np.stack([c - model.geom_size[g][1] * axis, c + model.geom_size[g][1] * axis])
            ax.plot(ends[:, h], ends[:, v], color=color, lw=6, solid_capstyle="round", zorder=2, alpha=alpha,
                    label=label)
            label = None                              # one legend entry per model
    ax.plot(xpos[1:, h], xpos[1:, v], "o", mfc="white", mec="k", ms=7, zorder=3, alpha=alpha)
    if show_com:
        com = com_positions(model, np.asarray(q, dtype=float))
        ax.plot(com[1:, h], com[1:, v], "x", color="k", ms=6, zorder=4, alpha=alpha)
    ax.set_aspect("equal")
    ax.set_xlabel(plane[0])
    ax.set_ylabel(plane[1])
    return ax


def plot_trajectory(t, x, labels=None, ax=None, ylabel=None):
    """Plot the columns of ``x (T, n)`` against ``t (T,)`` with a legend. Returns the axes.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_trajectory(np.linspace(0, 1, 5), np.zeros((5, 2)), labels=["q1", "q2"])
    >>> [l.get_label() for l in ax.lines]
    ['q1', 'q2']
    """
    ax = _ax(ax)
    x = np.asarray(x, dtype=float).reshape(len(t), -1)
    labels = labels or [f"x{k}" for k in range(x.shape[1])]
    for k in range(x.shape[1]):
        ax.plot(t, x[:, k], label=labels[k])
    ax.set_xlabel("t")
    if ylabel:
        ax.set_ylabel(ylabel)
    ax.legend(loc="best")
    ax.grid(True, alpha=0.3)
    return ax


def plot_matrix(M, ax=None, title=None, annotate=None):
    """Show a matrix with its zero pattern: nonzeros coloured by magnitude, exact zeros white,
    values written in when it is small (``annotate``: default for ``n <= 8``). Returns the axes.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_matrix(np.eye(3))
    >>> len(ax.texts)
    9
    """
    ax = _ax(ax)
    M = np.asarray(M, dtype=float)
    shown = np.ma.masked_where(np.abs(M) < 1e-12, np.abs(M))
    ax.imshow(shown, cmap="Blues", vmin=0)
    n, m = M.shape
    if annotate if annotate is not None else max(n, m) <= 8:
        dark = 0.6 * np.abs(M).max()               # white text on the darker cells
        for r in range(n):
            for c in range(m):
                ax.text(c, r, f"{M[r, c]:.2g}", ha="center", va="center", fontsize=8,
                        color="white" if abs(M[r, c]) > dark else "black")
    ax.set_xticks(range(m))
    ax.set_yticks(range(n))
    if title:
        ax.set_title(title)
    return ax


def plot_cost(n, seconds, labels, ax=None, title="cost vs bodies"):
    """Log-log plot of run times ``seconds`` (a list of arrays, one per method) against the
    number of bodies ``n``. Returns the axes.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_cost([2, 4, 8], [[1e-4, 2e-4, 4e-4]], ["aba"])
    >>> ax.get_xscale()
    'log'
    """
    ax = _ax(ax)
    for s, lab in zip(seconds, labels):
        ax.loglog(n, s, "o-", label=lab)
    ax.set_xlabel("bodies N")
    ax.set_ylabel("seconds per call")
    ax.set_title(title)
    ax.legend(loc="best")
    ax.grid(True, which="both", alpha=0.3)
    return ax


__all__ = ["draw_planar", "plot_trajectory", "plot_matrix", "plot_cost"]
