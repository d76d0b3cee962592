r"""The constraint rows, one constraint at a time: the one walk over ``efc_*`` that every
stage uses (book, chapter 10).

:mod:`rbdl_edu.constraint.rows` makes each constraint's rows one after the other, so a
constraint is a *block* of consecutive rows that share ``efc_type`` and ``efc_id``:

========================  ======================================================
equality                  a connect: 3 rows, a weld: 6, a joint or tendon coupling: 1
friction loss, limit      1 row (a joint with both limits active has two blocks)
contact, frictionless     1 row (the normal)
contact, pyramidal cone   :math:`2(\text{dim} - 1)` rows (the edges)
contact, elliptic cone    ``dim`` rows (normal, then friction)
========================  ======================================================

``model`` gives an equality's kind, ``data.contact`` a contact's ``dim``; ``data`` is a
``Data`` or a solver's :class:`~rbdl_edu.constraint.state.SolverState`.

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
...   <body pos="0 0 .09"><freejoint/><geom size=".1"/></body></worldbody></mujoco>''')
>>> data = rbd.Data(model); rbd.forward(model, data)
>>> list(blocks(model, data))          # one contact: its 4 pyramid edges, from row 0
[Block(adr=0, n=4, type=6, id=0)]
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rbdl_edu.model.enums import (CNSTR_CONTACT_ELLIPTIC, CNSTR_CONTACT_FRICTIONLESS, CNSTR_CONTACT_PYRAMIDAL,
                                  CNSTR_EQUALITY, CNSTR_FRICTION_DOF, CNSTR_FRICTION_TENDON, CNSTR_LIMIT_JOINT,
                                  CNSTR_LIMIT_TENDON, EQ_CONNECT, EQ_WELD, OBJ_SITE)

CONTACT_TYPES = (CNSTR_CONTACT_FRICTIONLESS, CNSTR_CONTACT_PYRAMIDAL, CNSTR_CONTACT_ELLIPTIC)
"""The row types of a contact (``efc_id`` is then an index into ``data.contact``)."""


class Block(NamedTuple):
    """One constraint's rows: ``efc_*[adr:adr + n]``, of row type ``type`` (``efc_type``) and
    object ``id`` (``efc_id``: the equality, dof, joint, tendon or contact)."""
    adr: int
    n: int
    type: int
    id: int


def row_count(model, data, i):
    """The number of rows of the constraint whose first row is ``i`` (the module docstring)."""
    kind, k = data.efc_type[i], data.efc_id[i]
    if kind == CNSTR_EQUALITY:
        return {EQ_CONNECT: 3, EQ_WELD: 6}.get(model.eq_type[k], 1)
    if kind == CNSTR_CONTACT_ELLIPTIC:
        return data.contact[k].dim
    if kind == CNSTR_CONTACT_PYRAMIDAL:
        return 2 * (data.contact[k].dim - 1)
    return 1


def contact_row_count(model, dim):
    """The number of rows of a contact of dimension ``dim``: its normal alone for ``dim`` 1,
    ``dim`` rows for an elliptic cone, the :math:`2(\text{dim} - 1)` edges of a pyramid."""
    return dim if dim == 1 or model.opt.cone == "elliptic" else 2 * (dim - 1)


def blocks(model, data, first=0):
    """Each constraint's :class:`Block`, in row order, from row ``first`` (the first row of a
    constraint: ``data.ne + data.nf`` starts at the limits and contacts)."""
    i = first
    while i < data.nefc:
        n = row_count(model, data, i)
        yield Block(i, n, int(data.efc_type[i]), int(data.efc_id[i]))
        i += n


def elliptic_cones(model, data):
    """Each elliptic contact's block with its contact, as ``(block, con)``: rows ``block.adr``
    (the normal force) to ``block.adr + block.n``, ``block.n = con.dim``."""
    if model.opt.cone != "elliptic":                  # then every contact is a pyramid or frictionless
        return
    for block in blocks(model, data, data.ne + data.nf):
        if block.type == CNSTR_CONTACT_ELLIPTIC:
            yield block, data.contact[block.id]


def one_sided_rows(data, model=None):
    r"""The rows whose force can only push, :math:`f \ge 0`, each on its own: limits,
    frictionless contacts and pyramid edges (the rows after the friction loss that are not
    an elliptic cone's), as an index array, or a slice when they are all the rows from the
    first limit on (no elliptic cone; a solver state's ``one_sided``, made once). With
    ``model`` and pyramidal cones: that slice at once (no row can be an elliptic cone's)."""
    if getattr(data, "one_sided", None) is not None:
        return data.one_sided
    if model is not None and model.opt.cone != "elliptic":
        return slice(data.ne + data.nf, data.nefc)
    rows = np.arange(data.ne + data.nf, data.nefc)
    rows = rows[data.efc_type[rows] != CNSTR_CONTACT_ELLIPTIC]
    return slice(data.ne + data.nf, data.nefc) if len(rows) == data.nefc - data.ne - data.nf else rows


def equality_bodies(model, e):
    """``(b1, b2)``: the two bodies a connect or weld ``e`` holds together (the sites' bodies
    for a constraint between sites)."""
    o1, o2 = model.eq_obj1id[e], model.eq_obj2id[e]
    if model.eq_objtype[e] == OBJ_SITE:
        return model.site_bodyid[o1], model.site_bodyid[o2]
    return o1, o2


class Rows:
    """The rows made so far: a list of Jacobian blocks ``(n, nv)``, lists of positions,
    margins, friction losses, types and ids (one per row), and the counts ``ne``, ``nf``, ``nl``.
    ``awake``: ``(nv,)`` the dofs of awake trees, or None if all are (sleep,
    :mod:`rbdl_edu.simulation.sleep`). ``blocks``: each constraint's
    :class:`~rbdl_edu.constraint.blocks.Block` so far."""

    def __init__(self, awake=None):
        self.J, self.pos, self.margin, self.frictionloss, self.type, self.id = [], [], [], [], [], []
        self.ne = self.nf = self.nl = 0
        self.awake = awake
        self.blocks = []                     # each constraint's Block, as made

    def add(self, J, pos, margin, frictionloss, kind, k):
        """Append the rows ``J (n, nv)`` of object ``k`` of kind ``kind``; ``pos``, ``margin``:
        ``(n,)`` or scalars. Rows other than contacts with a zero Jacobian are dropped, and so
        are those that move sleeping trees only (a zero Jacobian on the awake dofs)."""
        J = np.atleast_2d(J)
        n = len(J)
        if kind not in CONTACT_TYPES and not (J if self.awake is None else J[:, self.awake]).any():
            return
        self.extend(J, list(pos) if np.ndim(pos) else [pos] * n, list(margin) if np.ndim(margin) else [margin] * n,
                    [frictionloss] * n, [kind], [k], [n])

    def extend(self, J, pos, margin, frictionloss, kinds, ids, sizes=None):
        """Append the rows ``J (n, nv)`` as they are (no row dropped), with their ``n`` positions,
        margins and friction losses (lists), in blocks of ``sizes`` rows (default: one row
        each), each of its kind and object in ``kinds`` (or one kind for all) and ``ids``."""
        n = len(J)
        sizes = sizes or [1] * len(ids)
        kinds = kinds if isinstance(kinds, list) else [kinds] * len(ids)
        for size, kind, k in zip(sizes, kinds, ids):
            self.blocks.append(Block(len(self.type), size, kind, k))
            self.type += [kind] * size
            self.id += [k] * size
        self.J.append(J)
        self.pos += pos
        self.margin += margin
        self.frictionloss += frictionloss
        kind = kinds[0] if kinds else None
        if kind == CNSTR_EQUALITY:
            self.ne += n
        elif kind in (CNSTR_FRICTION_DOF, CNSTR_FRICTION_TENDON):
            self.nf += n
        elif kind in (CNSTR_LIMIT_JOINT, CNSTR_LIMIT_TENDON):
            self.nl += n
