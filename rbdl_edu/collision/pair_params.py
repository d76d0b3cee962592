"""Contact parameters from the two geoms' parameters (MuJoCo's ``mj_contactParam``).

Rules, in order:

1. **priority**: if one geom has the higher ``geom_priority``, its ``condim``, ``solref``,
   ``solimp`` and ``friction`` are used unchanged.
2. **equal priority**:
   ``condim = max(condim1, condim2)``; ``friction = max(friction1, friction2)`` per component;
   with the mixing weight :math:`w = s_1/(s_1+s_2)` from the ``solmix`` values
   (``0.5`` if both are 0, ``0``/``1`` if only one is),
   ``solimp = w solimp1 + (1-w) solimp2``, and ``solref`` is mixed the same way when both
   are in the standard (positive timeconst) form, otherwise the element-wise minimum.
3. **margin** and **gap** add: ``margin = margin1 + margin2``, ``gap = gap1 + gap2``.
   A contact is generated when ``dist < margin + gap`` and is active (a constraint) when
   ``dist < margin`` (MuJoCo 4.0 semantics).
4. **adhesion** adds, ``adhesion = adhesion1 + adhesion2`` (each surface pulls with its own
   force), or is the higher-priority geom's alone (:func:`mix_adhesion`). An adhesive
   contact stays active in the gap: it has rows there (normal only, ``dim = 1``).
5. The 3 friction coefficients (slide, spin, roll) become MuJoCo's 5:
   ``[slide, slide, spin, roll, roll]``.

An explicit ``<pair>`` replaces all of this by its own values (its ``solreffriction`` too,
when not zero; its ``adhesion``).

Then, as MuJoCo's ``mj_setContact``: every friction coefficient is at least
``MINMU = 1e-5``, and with ``<flag override="enable"/>`` the option's ``o_solref``,
``o_solimp``, ``o_friction`` and ``o_margin`` replace the contact's (:func:`assign`).
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.model.enums import MINMU, MINVAL


def mix_params(model, g1, g2):
    """``(condim, friction (5,), solref (2,), solimp (5,))`` for the geom pair ``(g1, g2)``.

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); b = s.add_body(0)
    >>> _ = s.add_geom(b, "sphere", [1], friction=[0.5, 0, 0], solmix=3, condim=1)
    >>> _ = s.add_geom(b, "sphere", [1], friction=[0.8, 0, 0], solmix=1, condim=4, solref=[0.04, 1])
    >>> condim, friction, solref, solimp = mix_params(s.compile(), 0, 1)
    >>> condim, friction[:2], solref
    (4, array([0.8, 0.8]), array([0.025, 1.   ]))
    """
    m = model
    p1, p2 = m.geom_priority[g1], m.geom_priority[g2]
    if p1 != p2:                                   # rule 1: the higher priority wins
        g = g1 if p1 > p2 else g2
        condim, fri = int(m.geom_condim[g]), m.geom_friction[g].copy()
        solref, solimp = m.geom_solref[g].copy(), m.geom_solimp[g].copy()
    else:                                          # rule 2: mix
        condim = int(max(m.geom_condim[g1], m.geom_condim[g2]))
        s1, s2 = m.geom_solmix[g1], m.geom_solmix[g2]
        if s1 >= MINVAL and s2 >= MINVAL:
            w = s1 / (s1 + s2)
        elif s1 < MINVAL and s2 < MINVAL:
            w = 0.5
        else:
            w = 0.0 if s1 < MINVAL else 1.0
        r1, r2 = m.geom_solref[g1], m.geom_solref[g2]
        if r1[0] > 0 and r2[0] > 0:                # standard (timeconst, dampratio): mix
            solref = w * r1 + (1 - w) * r2
        else:                                      # direct (-stiffness, -damping): min
            solref = np.minimum(r1, r2)
        solimp = w * m.geom_solimp[g1] + (1 - w) * m.geom_solimp[g2]
        fri = np.maximum(m.geom_friction[g1], m.geom_friction[g2])
    friction = np.array([fri[0], fri[0], fri[1], fri[2], fri[2]])
    return condim, friction, solref, solimp


def mix_adhesion(model, g1, g2):
    """The adhesion of a contact between geoms ``g1`` and ``g2``: the sum of theirs, or the
    higher-priority geom's (MuJoCo's ``mj_contactParam``).

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); b = s.add_body(0)
    >>> _ = s.add_geom(b, "sphere", [1], adhesion=2); _ = s.add_geom(b, "sphere", [1], adhesion=3)
    >>> mix_adhesion(s.compile(), 0, 1)
    5.0
    """
    m = model
    p1, p2 = m.geom_priority[g1], m.geom_priority[g2]
    if p1 != p2:
        return float(m.geom_adhesion[g1 if p1 > p2 else g2])
    return float(m.geom_adhesion[g1] + m.geom_adhesion[g2])


def assign(model, friction, solref, solreffriction, solimp):
    """``(friction, solref, solreffriction, solimp)`` as a contact holds them: the option's
    ``o_*`` values under ``<flag override="enable"/>``, friction at least ``MINMU``
    (MuJoCo's ``mj_assignFriction/Ref/Imp``).

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> f, *_ = assign(ModelSpec().compile(), np.zeros(5), np.zeros(2), np.zeros(2), np.zeros(5))
    >>> f
    array([1.e-05, 1.e-05, 1.e-05, 1.e-05, 1.e-05])
    """
    opt = model.opt
    if opt.enabled("override"):
        friction, solref, solreffriction, solimp = opt.o_friction, opt.o_solref, opt.o_solref, opt.o_solimp
    return (np.maximum(MINMU, np.asarray(friction, float)), np.array(solref, float),
            np.array(solreffriction, float), np.array(solimp, float))


def pair_margin_gap(model, g1, g2, pair=None):
    """``(margin, gap)`` of a geom pair: the explicit pair's own, else the sums.

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); b = s.add_body(0)
    >>> _ = s.add_geom(b, "sphere", [1], margin=0.1, gap=0.05); _ = s.add_geom(b, "sphere", [1], margin=0.2)
    >>> tuple(round(x, 12) for x in pair_margin_gap(s.compile(), 0, 1))
    (0.3, 0.05)
    """
    override = model.opt.enabled("override")            # the option's margin replaces it
    if pair is not None:
        return float(model.opt.o_margin if override else pair["margin"]), float(pair["gap"])
    return (float(model.opt.o_margin if override else model.geom_margin[g1] + model.geom_margin[g2]),
            float(model.geom_gap[g1] + model.geom_gap[g2]))
