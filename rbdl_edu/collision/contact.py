"""The contact record (MuJoCo's ``mjContact``) and the frame built around a contact normal.

A narrowphase function returns *pre-contacts* ``(dist, pos, normal, tangent)``; the driver
turns each into a :class:`Contact` by attaching the geom ids and the mixed parameters
(:mod:`rbdl_edu.collision.pair_params`) and by completing the frame with :func:`make_frame`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from rbdl_edu.rotation import cross


@dataclass
class Contact:
    """One contact point between ``geom1`` and ``geom2``.

    Fields
    ------
    geom1, geom2 : int
        Geom ids; ``geom_type[geom1] <= geom_type[geom2]`` (MuJoCo orders every pair by type).
    dist : float
        Signed distance between the surfaces: ``> 0`` apart, ``< 0`` penetrating.
    pos : (3,) array
        Contact point, midway between the two surfaces along the normal.
    frame : (3, 3) array
        Rows are the normal ``n`` (from ``geom1`` towards ``geom2``) and two tangents.
    friction : (5,) array
        ``[slide, slide, spin, roll, roll]`` (MuJoCo's 5-D friction).
    solref (2,), solimp (5,)
        The mixed constraint parameters.
    includemargin : float
        The distance below which the contact makes constraint rows: the geom pair's
        ``margin`` (MuJoCo 4.0; :func:`~rbdl_edu.collision.pair_params.pair_margin_gap`).
    gap : float
        How far beyond ``includemargin`` the contact is still detected and reported.
    dim : int
        The contact's dimension (the geoms' or pair's ``condim``): 1 (normal only), 3 (+
        sliding friction), 4 (+ spin), 6 (+ rolling); an elliptic cone has ``dim`` rows.
    solreffriction (2,)
        ``solref`` of the friction rows of an elliptic cone (a ``<pair>``'s
        ``solreffriction``); ``(0, 0)``: as ``solref``.
    adhesion : float
        The force with which the contact pulls (MuJoCo 4.0's geom ``adhesion``; the geoms'
        sum or the pair's, :func:`~rbdl_edu.collision.pair_params.mix_adhesion`): a passive
        pull along the normal and a shifted reference acceleration of its normal row
        (:func:`~rbdl_edu.smooth.adhesion.adhesion_forces`,
        :func:`~rbdl_edu.constraint.impedance.adhesion_reference`).
    exclude : bool
        True when ``dist >= includemargin`` (inside the gap ``[includemargin, includemargin
        + gap)``: reported, but no constraint; MuJoCo 4 detects up to ``margin + gap``),
        unless the contact is adhesive: then it keeps rows in the gap, the normal one only
        (``dim = 1``, set by the driver), and pulls across it.

    Filled when the constraint rows are made (:mod:`rbdl_edu.constraint.rows`):

    efc_address : int
        The contact's first row in ``efc_*``; ``-1``: no rows (excluded, or no dof moves it).
    mu : float
        Friction of the regularized cone, ``friction[0] * sqrt(R[1] / R[0])``.

    (MuJoCo's ``H``, an elliptic cone's Hessian, is the solver's own here:
    :class:`~rbdl_edu.constraint.state.SolverState`'s ``cone_H``.)
    """
    geom1: int
    geom2: int
    dist: float
    pos: np.ndarray
    frame: np.ndarray
    friction: np.ndarray = field(default_factory=lambda: np.zeros(5))
    solref: np.ndarray = field(default_factory=lambda: np.zeros(2))
    solimp: np.ndarray = field(default_factory=lambda: np.zeros(5))
    includemargin: float = 0.0
    gap: float = 0.0
    dim: int = 3
    solreffriction: np.ndarray = field(default_factory=lambda: np.zeros(2))
    efc_address: int = -1
    mu: float = 0.0
    adhesion: float = 0.0

    @property
    def normal(self) -> np.ndarray:
        """The first row of ``frame``: the unit normal from ``geom1`` towards ``geom2``."""
        return self.frame[0]

    @property
    def exclude(self) -> bool:
        return self.dist >= self.includemargin and not self.adhesion

    def __repr__(self):
        return (f"Contact(geom1={self.geom1}, geom2={self.geom2}, dist={self.dist:.6g}, "
                f"pos={np.round(self.pos, 6).tolist()}, normal={np.round(self.normal, 6).tolist()})")


def make_frame(normal, tangent=None) -> np.ndarray:
    """A right-handed orthonormal frame whose first row is ``normal`` (MuJoCo's ``mju_makeFrame``).

    The second row is ``tangent`` made orthogonal to the normal; if no tangent is given
    (or it is zero) it starts from ``(0, 1, 0)``, or ``(0, 0, 1)`` when the normal is
    close to the y axis; a tangent along the normal gives ``(1, 0, 0)`` (as MuJoCo). The
    third row is ``n × t``.

    >>> make_frame([0, 0, 1])
    array([[ 0.,  0.,  1.],
           [ 0.,  1.,  0.],
           [-1.,  0.,  0.]])
    """
    n = np.asarray(normal, dtype=float)
    n = n / math.sqrt(n @ n)                  # (|n| as np.linalg.norm computes it, without its overhead)
    t = np.zeros(3) if tangent is None else np.array(tangent, dtype=float)
    if t @ t < 0.25:
        t = np.array([0.0, 1.0, 0.0]) if -0.5 < n[1] < 0.5 else np.array([0.0, 0.0, 1.0])
    # Gram-Schmidt: t ← (t - (n·t) n) / |…|; a tangent along the normal leaves nothing:
    # then (1, 0, 0), as MuJoCo's mju_normalize3 makes a zero vector
    t = t - n * (n @ t)
    length = math.sqrt(t @ t)
    t = t / length if length >= 1e-15 else np.array([1.0, 0.0, 0.0])
    return np.array([n, t, cross(n, t)])


_AXES = np.eye(3)


def make_frames(normals, tangents):
    """:func:`make_frame` of many contacts at once: ``normals (C, 3)``, ``tangents (C, 3)``
    (a zero row: none) → frames ``(C, 3, 3)``, each step on all rows.

    >>> make_frames(np.array([[0, 0, 2.0], [0, 1, 0]]), np.zeros((2, 3)))[:, 1]
    array([[0., 1., 0.],
           [0., 0., 1.]])
    """
    n = normals / np.sqrt(np.einsum("ci,ci->c", normals, normals))[:, None]
    t = tangents
    none = np.einsum("ci,ci->c", t, t) < 0.25              # no tangent: (0, 1, 0), or (0, 0, 1)
    if none.any():                                          # near the y axis
        t = np.where(none[:, None], _AXES[np.where((-0.5 < n[:, 1]) & (n[:, 1] < 0.5), 1, 2)], t)
    t = t - n * np.einsum("ci,ci->c", n, t)[:, None]        # Gram-Schmidt, as make_frame
    length = np.sqrt(np.einsum("ci,ci->c", t, t))
    short = length < 1e-15                                  # (t along n: (1, 0, 0), as MuJoCo)
    t = np.where(short[:, None], _AXES[0], t / np.where(short, 1.0, length)[:, None])
    return np.concatenate([n, t, cross(n, t)], axis=1).reshape(-1, 3, 3)
