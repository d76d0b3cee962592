"""The contact record (MuJoCo's ``mjContact``) and the frame built around a contact normal.

A narrowphase function returns *pre-contacts* ``(dist, pos, normal, tangent)``; the driver
turns each into a :class:`Contact` by attaching the geom ids and the mixed parameters
(:mod:`rbdl_edu.collision.pair_params`) and by completing the frame with :func:`make_frame`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np



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
    third row is ``n × t``. (Three numbers each: plain floats, a few times faster than
    NumPy on 3-vectors, or on the few contacts of a pass at once.)

    >>> make_frame([0, 0, 1])
    array([[ 0.,  0.,  1.],
           [ 0.,  1.,  0.],
           [-1.,  0.,  0.]])
    """
    nx, ny, nz = np.asarray(normal, dtype=float).tolist()
    length = math.sqrt(nx * nx + ny * ny + nz * nz)
    nx, ny, nz = nx / length, ny / length, nz / length
    tx, ty, tz = (0.0, 0.0, 0.0) if tangent is None else np.asarray(tangent, dtype=float).tolist()
    if tx * tx + ty * ty + tz * tz < 0.25:
        tx, ty, tz = (0.0, 1.0, 0.0) if -0.5 < ny < 0.5 else (0.0, 0.0, 1.0)
    # Gram-Schmidt: t ← (t - (n·t) n) / |…|; a tangent along the normal leaves nothing:
    # then (1, 0, 0), as MuJoCo's mju_normalize3 makes a zero vector
    nt = nx * tx + ny * ty + nz * tz
    tx, ty, tz = tx - nx * nt, ty - ny * nt, tz - nz * nt
    length = math.sqrt(tx * tx + ty * ty + tz * tz)
    tx, ty, tz = (tx / length, ty / length, tz / length) if length >= 1e-15 else (1.0, 0.0, 0.0)
    bx, by, bz = ny * tz - nz * ty, nz * tx - nx * tz, nx * ty - ny * tx       # n × t
    return np.array([nx, ny, nz, tx, ty, tz, bx, by, bz]).reshape(3, 3)
