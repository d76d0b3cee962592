r"""Constraint islands: the independent pieces of the constraint problem (MuJoCo's
``mj_island``; book, chapter 10).

The mass matrix couples only the dofs of one kinematic *tree* (the bodies below one moving
child of the world: a box on the floor, a robot). Constraint rows couple the trees they
touch: a contact between two boxes joins their trees, a box on the static floor touches
one. The trees joined by rows form *islands*; an island's accelerations and forces do not
depend on another's, so each is solved on its own, with its own iterations and its own
stopping test (MuJoCo does this by default; ``<flag island="disable"/>`` solves everything
as one problem). A tree no row touches keeps ``qacc_smooth``.

Islands are numbered by their first tree, trees by body order; an island's dofs and rows
keep their order in ``qvel`` and ``efc_*``.

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><geom type="plane" size="5 5 .1"/>
...   <body pos="0 0 .09"><freejoint/><geom size=".1"/></body>
...   <body pos="2 0 .09"><freejoint/><geom size=".1"/></body>
...   <body pos="4 0 1"><freejoint/><geom size=".1"/></body></worldbody></mujoco>''')
>>> data = rbd.Data(model); rbd.forward(model, data)
>>> [(dofs.tolist(), rows.tolist()) for dofs, rows in islands(model, data)]    # the third one falls
[([0, 1, 2, 3, 4, 5], [0, 1, 2, 3]), ([6, 7, 8, 9, 10, 11], [4, 5, 6, 7])]
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.constraint.blocks import CONTACT_TYPES, blocks, equality_bodies
from rbdl_edu.model.enums import CNSTR_EQUALITY, CNSTR_FRICTION_DOF, CNSTR_LIMIT_JOINT, EQ_CONNECT, EQ_WELD


@per_model
def body_treeid(model):
    """``(nbody,)``: each body's tree, ``-1`` for bodies without dofs of their own group
    (welded to the world, or a mocap body). A tree starts at each dof with no parent dof (a
    body with dofs none of whose ancestors has any); a body belongs to the tree of the body
    it is welded to (MuJoCo's ``dof_treeid``, ``body_treeid``).

    >>> from rbdl_edu.models import double_pendulum
    >>> body_treeid(double_pendulum())           # the world, then one tree of two bodies
    array([-1,  0,  0])
    """
    dof_tree = np.cumsum(model.dof_parentid < 0) - 1
    for d in range(model.nv):
        if model.dof_parentid[d] >= 0:
            dof_tree[d] = dof_tree[model.dof_parentid[d]]
    weld = model.body_weldid
    return np.array([dof_tree[model.body_dofadr[weld[b]]] if model.body_dofnum[weld[b]] else -1
                     for b in range(model.nbody)], dtype=int)


@per_model
def tree_count(model):
    """The number of trees (:func:`body_treeid`)."""
    return int(body_treeid(model).max(initial=-1)) + 1


def row_trees(model, data, i):
    """The trees row ``i`` touches: a contact's or a connect/weld's two bodies' trees, a dof
    friction's or joint limit's own, else those of the dofs its Jacobian uses."""
    m, tree = model, body_treeid(model)
    kind, k = data.efc_type[i], data.efc_id[i]
    if kind in CONTACT_TYPES:
        con = data.contact[k]
        bodies = m.geom_bodyid[con.geom1], m.geom_bodyid[con.geom2]
    elif kind == CNSTR_EQUALITY and m.eq_type[k] in (EQ_CONNECT, EQ_WELD):
        bodies = equality_bodies(m, k)
    elif kind == CNSTR_FRICTION_DOF:
        bodies = (m.dof_bodyid[k],)
    elif kind == CNSTR_LIMIT_JOINT:
        bodies = (m.jnt_bodyid[k],)
    else:
        bodies = m.dof_bodyid[np.flatnonzero(data.efc_J[i])]
    return {int(tree[b]) for b in bodies} - {-1}


def islands(model, data):
    """The islands of the current rows, as ``[(dofs, rows), ...]`` (index arrays into ``qvel``
    and ``efc_*``), numbered as MuJoCo numbers them."""
    tree, ntree = body_treeid(model), tree_count(model)
    if ntree == 1:                                  # one tree (a robot alone): one island of all
        return [(np.arange(model.nv), np.arange(data.nefc))] if data.nefc else []
    parent = np.arange(ntree)                       # union-find over the trees

    def root(t):
        while parent[t] != t:
            parent[t] = parent[parent[t]]
            t = parent[t]
        return t
    touched, row_tree = np.zeros(ntree, dtype=bool), np.zeros(data.nefc, dtype=int)
    for i, n, _, _ in blocks(model, data):           # a constraint's rows: its first row's trees
        trees = sorted(row_trees(model, data, i))
        row_tree[i:i + n] = trees[0]
        touched[trees] = True
        for t in trees[1:]:
            a, b = root(trees[0]), root(t)
            parent[max(a, b)] = min(a, b)            # the smaller tree names the island
    # island of each tree (-1: untouched), numbered by their smallest tree
    roots = np.array([root(t) for t in range(ntree)], dtype=int)
    numbers = {r: k for k, r in enumerate(sorted(set(roots[touched].tolist())))}
    island = np.array([numbers[r] if touched[t] else -1 for t, r in enumerate(roots)], dtype=int)
    dof_island, row_island = island[tree[model.dof_bodyid]], island[row_tree]
    return [(np.flatnonzero(dof_island == k), np.flatnonzero(row_island == k)) for k in range(len(numbers))]
