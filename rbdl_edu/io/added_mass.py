r"""The ellipsoid fluid model's constants of a geom: the fluid's added mass and inertia
(what MuJoCo's compiler stores in ``geom_fluid[6:12]``), for the ellipsoid of
:func:`~rbdl_edu.model.semiaxes.geom_semiaxes`.

A body moving through a fluid drags some of the fluid with it: the fluid's kinetic energy
is that of a *virtual* mass and inertia riding on the body (Lamb, *Hydrodynamics*, ch. 5).
For an ellipsoid with semi-axes :math:`d_x, d_y, d_z` and volume
:math:`V = \tfrac43\pi d_x d_y d_z`, Tuckerman (1925) gives per unit fluid density

.. math::
    m_x = V\,\frac{\kappa_x}{2 - \kappa_x}, \qquad
    I_x = \frac{V}{5}\,\frac{(d_y^2 - d_z^2)^2\,(\kappa_z - \kappa_y)}
                            {2(d_y^2 - d_z^2) + (d_y^2 + d_z^2)(\kappa_y - \kappa_z)},
    \qquad
    \kappa_x = d_x d_y d_z \int_0^\infty \frac{d\lambda}{(d_x^2 + \lambda)
               \sqrt{(d_x^2 + \lambda)(d_y^2 + \lambda)(d_z^2 + \lambda)}},

and the same with the axes turned (:math:`y, z, x` and :math:`z, x, y`). A sphere has
:math:`\kappa = 2/3`: half its displaced mass rides along. MuJoCo evaluates the integral by
15-point Gauss-Kronrod quadrature after the change of variables
:math:`\lambda = s\,x^3/(1-x)^2`, and so do we, with its nodes and weights.
The forces that use these constants are in :mod:`rbdl_edu.smooth.fluid` (``doc/computation/fluid.rst``).

>>> virtual_mass, virtual_inertia = added_mass("sphere", [1.0, 0, 0])
>>> np.round(virtual_mass / (4 / 3 * np.pi), 6)                # half the displaced volume
array([0.5, 0.5, 0.5])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.model.enums import MJEPS
from rbdl_edu.model.semiaxes import geom_semiaxes

# Gauss-Kronrod (K15) weights on [0, 1], and the nodes x mapped to lambda = x^3 / (1 - x)^2
# with d lambda / dx (MuJoCo's tables: its compiler's mjCGeom::GetAddedMassKappa)
_W = np.array([0.01146766, 0.03154605, 0.05239501, 0.07032663, 0.08450236, 0.09517529,
               0.10221647, 0.10474107, 0.10221647, 0.09517529, 0.08450236, 0.07032663,
               0.05239501, 0.03154605, 0.01146766])
_L = np.array([7.865151709349917e-08, 1.7347976913907274e-05, 0.0003548008144506193,
               0.002846636252924549, 0.014094260903596077, 0.053063261727396636,
               0.17041978741317773, 0.5, 1.4036301548686991, 3.9353484827022642,
               11.644841677041734, 39.53187807410903, 177.5711362220801, 1429.4772912937397,
               54087.416549217705])
_DL = np.array([5.538677720489877e-05, 0.002080868285293228, 0.016514126520723166,
                0.07261900344370877, 0.23985243401862602, 0.6868318249020725,
                1.8551129519182894, 5.0, 14.060031152313941, 43.28941239611009,
                156.58546376397112, 747.9826085305024, 5827.4042950027115, 116754.0197944512,
                25482945.327264845])


def _kappa(dx, dy, dz):
    r""":math:`\kappa_x` of the module docstring (symmetric in ``dy, dz``), by quadrature; the
    variable is scaled by :math:`(d_x^3 d_y d_z)^{2/5}` so the integrand is of order one."""
    scale = (dx ** 3 * dy * dz) ** 0.4
    lam = scale * _L
    a, b, c = 1 + lam / dx ** 2, 1 + lam / dy ** 2, 1 + lam / dz ** 2
    return float(np.sum(scale * _DL / (a * np.sqrt(a * b * c)) * _W)) / dx ** 2


def added_mass(geom_type, size):
    """The fluid's virtual mass ``(3,)`` and virtual moments of inertia ``(3,)`` per unit
    density, along the geom's axes, for the ellipsoid of
    :func:`~rbdl_edu.model.semiaxes.geom_semiaxes` (module
    docstring). They fill ``geom_fluid[6:9]`` and ``geom_fluid[9:12]``.

    >>> m, I = added_mass("ellipsoid", [0.3, 0.2, 0.1])
    >>> bool(m[2] > m[1] > m[0])            # moving flat side first drags the most fluid
    True
    """
    dx, dy, dz = geom_semiaxes(geom_type, size)
    volume = 4.0 / 3.0 * np.pi * dx * dy * dz
    kx, ky, kz = _kappa(dx, dy, dz), _kappa(dy, dz, dx), _kappa(dz, dx, dy)

    def moment(d1, d2, k1, k2):
        # (d1² - d2²)² |k2 - k1| / |2 (d1² - d2²) + (d1² + d2²)(k1 - k2)|: both signs flip together
        return (d1 * d1 - d2 * d2) ** 2 * abs(k2 - k1) / max(
            MJEPS, abs(2 * (d1 * d1 - d2 * d2) + (d1 * d1 + d2 * d2) * (k1 - k2)))

    virtual_mass = volume * np.array([k / max(MJEPS, 2 - k) for k in (kx, ky, kz)])
    virtual_inertia = volume / 5 * np.array([moment(dy, dz, ky, kz), moment(dz, dx, kz, kx),
                                             moment(dx, dy, kx, ky)])
    return virtual_mass, virtual_inertia
