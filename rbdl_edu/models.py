"""Procedural model builders: the small systems of the book and Featherstone's random trees.

Every builder returns a :class:`~rbdl_edu.model.Model`. With ``symbolic=True`` the
masses, lengths and inertias are SymPy symbols (positive reals), so the algorithms
return the symbolic equations of motion of the system.

Conventions: gravity along -z; planar systems move in the x-z plane and turn about +y;
a hanging link points along -z at ``q = 0``; an inverted one (the cart-pole's pole)
points along +z.

>>> double_pendulum()
Model(nbody=3, njnt=2, nq=2, nv=2, ngeom=4, joints=['shoulder', 'elbow'])
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import sympy as sp

from rbdl_edu.model.spec import ModelSpec
from rbdl_edu.setconst import set_const

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"


def path(name=""):
    """The path of a model file in the repository's ``models/`` folder, from anywhere.

    ``rbd.load_model(rbd.models.path("double_pendulum.xml"))`` works whatever the current
    directory (a notebook copy, a script elsewhere); without ``name``, the folder itself.

    >>> path("double_pendulum.xml").name
    'double_pendulum.xml'
    >>> sorted(p.name for p in path().glob("*.urdf"))
    ['arm2.urdf']
    """
    p = MODELS_DIR / name
    if not p.exists():
        known = ", ".join(sorted(f.name for f in MODELS_DIR.glob("*"))) if MODELS_DIR.is_dir() else "none"
        raise FileNotFoundError(f"no model file {name!r} in {MODELS_DIR} (there are: {known})")
    return p


def symbol(name):
    """A positive SymPy symbol whose printed name reads as the book writes it: a letter, then
    its subscript (``mp`` prints as :math:`m_p`, ``lc1`` as :math:`l_{c1}`; SymPy already
    prints ``m1`` as :math:`m_1`).

    >>> symbol("mp"), symbol("m1"), symbol("l")
    (m_p, m1, l)
    >>> import sympy as sp; sp.latex(symbol("lc1"))
    'l_{c1}'
    """
    if len(name) > 1 and "_" not in name and name[1].isalpha():
        name = f"{name[0]}_{name[1:]}"
    return sp.Symbol(name, positive=True)


def _params(symbolic, **defaults):
    """Numbers, or positive SymPy symbols of the same names (printed with subscripts: :func:`symbol`)."""
    if symbolic:
        return {k: symbol(k) for k in defaults}
    return defaults


def _spec(symbolic):
    """An empty spec; a symbolic one has gravity ``(0, 0, -g)`` with ``g`` a symbol."""
    return ModelSpec(gravity=[0, 0, -sp.Symbol("g", positive=True)] if symbolic else (0.0, 0.0, -9.81))


def pendulum(symbolic=False):
    """A single pendulum: a hinge about y at the origin, the center of mass ``l`` below it.

    Parameters ``m`` (mass), ``l`` (pivot to center of mass), ``Iy`` (inertia about the
    center of mass, y). Numbers: ``m = l = 1``, ``Iy = 1``.

    >>> pendulum(symbolic=True).body_mass[1]
    m
    """
    p = _params(symbolic, m=1.0, l=1.0, Ix=1.0, Iy=1.0, Iz=1.0)
    spec = _spec(symbolic)
    b = spec.add_body(0, "pole", mass=p["m"], ipos=[0, 0, -p["l"]], inertia=[p["Ix"], p["Iy"], p["Iz"]])
    spec.add_joint(b, "hinge", "hinge", axis=[0, 1, 0])
    _draw_link(spec, b, 1.0)
    return _compile(spec, symbolic)


def double_pendulum(symbolic=False):
    """Two links hanging from the origin, hinges about y.

    Parameters per link ``k = 1, 2``: ``mk`` (mass), ``ck`` (joint to center of mass),
    ``Ik`` (inertia about the center of mass, every axis), and ``l1`` (the elbow sits
    ``l1`` below the shoulder).

    >>> double_pendulum().nv
    2
    """
    p = _params(symbolic, m1=1.0, m2=1.0, l1=1.0, c1=0.5, c2=0.5, I1=1 / 12, I2=1 / 12)
    return _two_links(symbolic, ("upper", "lower"), p["m1"], p["m2"], p["l1"], p["c1"], p["c2"],
                      p["I1"], p["I2"])


def _two_links(symbolic, names, m1, m2, l1, c1, c2, I1, I2):
    """Two links hanging from the origin with hinges about y (the double pendulum's shape):
    the elbow ``l1`` below the shoulder, centers of mass ``c1``, ``c2`` below each joint."""
    spec = _spec(symbolic)
    b1 = spec.add_body(0, names[0], mass=m1, ipos=[0, 0, -c1], inertia=[I1, I1, I1])
    spec.add_joint(b1, "hinge", "shoulder", axis=[0, 1, 0])
    b2 = spec.add_body(b1, names[1], pos=[0, 0, -l1], mass=m2, ipos=[0, 0, -c2], inertia=[I2, I2, I2])
    spec.add_joint(b2, "hinge", "elbow", axis=[0, 1, 0])
    _draw_link(spec, b1, 1.0), _draw_link(spec, b2, 1.0)
    return _compile(spec, symbolic)


def acrobot(symbolic=False):
    """The acrobot (Spong): a double pendulum actuated at the elbow, with Spong's parameters
    ``m1 = m2 = 1``, ``l1 = 1``, ``lc1 = lc2 = 0.5``, ``I1 = 0.083``, ``I2 = 0.33`` by default.

    >>> acrobot().jnt_names
    ('shoulder', 'elbow')
    """
    p = _params(symbolic, m1=1.0, m2=1.0, l1=1.0, lc1=0.5, lc2=0.5, I1=0.083, I2=0.33)
    return _two_links(symbolic, ("link1", "link2"), p["m1"], p["m2"], p["l1"], p["lc1"], p["lc2"],
                      p["I1"], p["I2"])


def cart_pole(symbolic=False):
    """A cart sliding along x with an inverted pole hinged about y (upright at ``q = 0``).

    Parameters ``mc`` (cart), ``mp`` (pole), ``l`` (hinge to the pole's center of mass),
    ``Ip`` (pole inertia about its center of mass); symbolic, they print as
    :math:`m_c, m_p, l, I_p`.

    >>> cart_pole().jnt_names
    ('slider', 'hinge')
    """
    p = _params(symbolic, mc=1.0, mp=0.1, l=0.5, Ip=0.1 / 12)
    spec = _spec(symbolic)
    cart = spec.add_body(0, "cart", mass=p["mc"], inertia=[0.01, 0.01, 0.01] if not symbolic else [0, 0, 0])
    spec.add_joint(cart, "slide", "slider", axis=[1, 0, 0])
    pole = spec.add_body(cart, "pole", mass=p["mp"], ipos=[0, 0, p["l"]], inertia=[p["Ip"], p["Ip"], p["Ip"]])
    spec.add_joint(pole, "hinge", "hinge", axis=[0, 1, 0])
    spec.add_geom(cart, "box", [0.2, 0.1, 0.05], rgba=(0.3, 0.5, 0.8, 1))
    spec.add_geom(pole, "capsule", [0.02, 0.5, 0], pos=[0, 0, 0.5], rgba=(0.8, 0.4, 0.2, 1))
    return _compile(spec, symbolic)


def planar_chain(n, symbolic=False):
    """``n`` links in the x-z plane hanging from the origin, hinges about y.

    Link ``k`` (1-based) has mass ``mk``, length ``lk``, center of mass ``ck`` below its
    joint and inertia ``Ik`` about y; numbers: unit thin rods.

    >>> planar_chain(3).nv
    3
    """
    spec = _spec(symbolic)
    parent, prev_len = 0, 0
    for k in range(1, n + 1):
        p = _params(symbolic, **{f"m{k}": 1.0, f"l{k}": 1.0, f"c{k}": 0.5, f"I{k}": 1 / 12})
        m, l, c, I = p[f"m{k}"], p[f"l{k}"], p[f"c{k}"], p[f"I{k}"]
        b = spec.add_body(parent, f"link{k}", pos=[0, 0, -prev_len], mass=m, ipos=[0, 0, -c],
                          inertia=[I, I, I])
        spec.add_joint(b, "hinge", f"joint{k}", axis=[0, 1, 0])
        _draw_link(spec, b, 1.0)
        parent, prev_len = b, l
    return _compile(spec, symbolic)


def skew_arm(symbolic=False):
    """A 3-DOF spatial arm whose hinge axes are neither parallel nor orthogonal.

    The axes are exact unit vectors (3-4-5 triangles), ``(0, 0, 1)``, ``(3/5, 0, 4/5)``,
    ``(0, 4/5, 3/5)``, so symbolic results stay exact. Parameters per link ``k``: ``mk``,
    ``lk`` (offset to the next joint along the link), ``ck`` (center of mass along the
    link), principal inertias ``Ikx, Iky, Ikz``.

    >>> skew_arm().jnt_axis[1]
    array([0.6, 0. , 0.8])
    """
    R = sp.Rational if symbolic else (lambda a, b: a / b)
    axes = [[0, 0, 1], [R(3, 5), 0, R(4, 5)], [0, R(4, 5), R(3, 5)]]
    link_dirs = [[0, 0, 1], [1, 0, 0], [0, 1, 0]]    # each link leaves its joint along this
    spec = _spec(symbolic)
    parent, offset = 0, [0, 0, 0]
    for k in (1, 2, 3):
        p = _params(symbolic, **{f"m{k}": 1.0, f"l{k}": 0.5, f"c{k}": 0.25,
                                 f"I{k}x": 0.01, f"I{k}y": 0.02, f"I{k}z": 0.03})
        d = link_dirs[k - 1]
        ax = np.array(axes[k - 1], dtype=object if symbolic else float)
        b = spec.add_body(parent, f"link{k}", pos=offset, mass=p[f"m{k}"],
                          ipos=[p[f"c{k}"] * x for x in d],
                          inertia=[p[f"I{k}x"], p[f"I{k}y"], p[f"I{k}z"]])
        spec.add_joint(b, "hinge", f"joint{k}", axis=ax)
        parent, offset = b, [p[f"l{k}"] * x for x in d]
    return _compile(spec, symbolic)


def slide_hinge_chain(symbolic=False):
    """A prismatic-revolute-prismatic chain: a carriage sliding along x, a hinge about y,
    and a telescoping link sliding along its own z axis (with a last hinge about x).

    >>> slide_hinge_chain().jnt_names
    ('carriage', 'swing', 'telescope', 'wrist')
    """
    p = _params(symbolic, m1=1.0, m2=0.5, m3=0.3, m4=0.2, c2=0.2, c3=0.1, c4=0.05,
                I2=0.01, I3=0.005, I4=0.002)
    spec = _spec(symbolic)
    b1 = spec.add_body(0, "carriage", mass=p["m1"], inertia=[0, 0, 0] if symbolic else [0.01] * 3)
    spec.add_joint(b1, "slide", "carriage", axis=[1, 0, 0])
    b2 = spec.add_body(b1, "arm", mass=p["m2"], ipos=[0, 0, -p["c2"]], inertia=[p["I2"]] * 3)
    spec.add_joint(b2, "hinge", "swing", axis=[0, 1, 0])
    b3 = spec.add_body(b2, "rod", mass=p["m3"], ipos=[0, 0, -p["c3"]], inertia=[p["I3"]] * 3)
    spec.add_joint(b3, "slide", "telescope", axis=[0, 0, -1])
    b4 = spec.add_body(b3, "hand", mass=p["m4"], ipos=[0, p["c4"], 0], inertia=[p["I4"]] * 3)
    spec.add_joint(b4, "hinge", "wrist", axis=[1, 0, 0])
    return _compile(spec, symbolic)


def branched_tree(symbolic=False):
    """A torso hinged to the world with two 2-link arms (five bodies, a branching tree).

    >>> branched_tree().body_parentid
    array([-1,  0,  1,  2,  1,  4])
    """
    spec = _spec(symbolic)
    p = _params(symbolic, m0=2.0, c0=0.3, I0=0.1)
    torso = spec.add_body(0, "torso", mass=p["m0"], ipos=[0, 0, p["c0"]], inertia=[p["I0"]] * 3)
    spec.add_joint(torso, "hinge", "waist", axis=[0, 0, 1])
    for side, sgn in (("left", 1), ("right", -1)):
        q = _params(symbolic, **{f"m_{side}1": 0.5, f"m_{side}2": 0.3, f"l_{side}": 0.4,
                                 f"c_{side}1": 0.2, f"c_{side}2": 0.15, f"I_{side}1": 0.01,
                                 f"I_{side}2": 0.005, "w": 0.2})
        up = spec.add_body(torso, f"{side}_upper", pos=[0, sgn * q["w"], 0], mass=q[f"m_{side}1"],
                           ipos=[q[f"c_{side}1"], 0, 0], inertia=[q[f"I_{side}1"]] * 3)
        spec.add_joint(up, "hinge", f"{side}_shoulder", axis=[0, 1, 0])
        lo = spec.add_body(up, f"{side}_lower", pos=[q[f"l_{side}"], 0, 0], mass=q[f"m_{side}2"],
                           ipos=[q[f"c_{side}2"], 0, 0], inertia=[q[f"I_{side}2"]] * 3)
        spec.add_joint(lo, "hinge", f"{side}_elbow", axis=[0, 0, 1])
    return _compile(spec, symbolic)


def auto_tree(nb, bf=1.0, skew=0.0, taper=1.0, joint_types=("hinge",), seed=0, multi_joint=False,
              armature=0.0, root_joint=None, symbolic=False):
    """Featherstone's random kinematic tree (``autoTree`` of spatial_v2), with any joint types.

    Body ``i`` (1-based) hangs from ``floor((i - 2 + ceil(bf)) / bf)`` (0 is the world), so
    ``bf = 1`` is an unbranched chain and larger branching factors give bushier trees.
    Bodies are then renumbered depth first (named ``b<i>`` after Featherstone's number),
    the order MJCF and MuJoCo use.
    Link ``i`` has length and mass ``taper**(i-1)``, its center of mass halfway along x,
    and each child sits at the end of its parent, turned by ``skew`` about x so that
    successive axes are not parallel. Joint types are drawn from ``joint_types`` with a
    seeded generator; ``multi_joint`` puts a hinge or slide before the joint of some bodies, and
    ``armature`` a random armature up to that value. ``root_joint`` (e.g. ``"free"``)
    fixes the joint type of the first body: a floating-base tree that MuJoCo also accepts.

    With ``symbolic=True`` body ``i`` has mass ``m<i>``, length ``l<i>`` and principal
    inertias ``I<i>x, I<i>y, I<i>z`` (symbols), its principal axes along the body's, and
    each joint axis is drawn from exact unit vectors (3-4-5 triangles) with its anchor at
    the body origin and no ``ref``, so the equations of motion stay exact.

    >>> auto_tree(4, bf=2).body_parentid       # Featherstone's b1, b2, b4, b3 in depth-first order
    array([-1,  0,  1,  2,  1])
    """
    rng = np.random.default_rng(seed)
    # Featherstone's numbering: body i hangs from floor((i - 2 + ceil(bf)) / bf)
    fparent = [-1] + [int(np.floor((i - 2 + np.ceil(bf)) / bf)) for i in range(1, nb + 1)]
    # MJCF lists bodies depth first; renumber so the model matches its MJCF export
    order, stack = [], [0]
    while stack:
        i = stack.pop()
        order.append(i)
        stack += sorted((k for k in range(1, nb + 1) if fparent[k] == i), reverse=True)
    new_id = {i: n for n, i in enumerate(order)}
    spec = _spec(symbolic)
    lengths = {0: 0.0}
    for i in order[1:]:
        parent = fparent[i]
        if symbolic:
            p = _params(True, **{f"m{i}": 0, f"l{i}": 0, f"I{i}x": 0, f"I{i}y": 0, f"I{i}z": 0})
            L, m, inertia, iquat = p[f"l{i}"], p[f"m{i}"], [p[f"I{i}x"], p[f"I{i}y"], p[f"I{i}z"]], None
            half = sp.nsimplify(skew) / 2
            quat = [sp.cos(half), sp.sin(half), 0, 0] if parent else [1, 0, 0, 0]
        else:
            L, m = taper ** (i - 1), taper ** (i - 1)
            inertia = m * L**2 * np.array([0.0025, 1.015 / 12, 1.015 / 12])
            iquat = _random_quat(rng)
            quat = [np.cos(skew / 2), np.sin(skew / 2), 0, 0] if parent else [1.0, 0, 0, 0]
        lengths[i] = L
        b = spec.add_body(new_id[parent], f"b{i}", pos=[lengths[parent], 0, 0],
                          quat=np.array(quat, dtype=object if symbolic else float), mass=m,
                          ipos=[L / 2, 0, 0], iquat=iquat, inertia=inertia)
        kinds = [str(rng.choice(joint_types))]
        if root_joint is not None and i == 1:
            kinds = [root_joint]
        if multi_joint and kinds[0] != "free" and rng.uniform() < 0.5:
            # a second hinge or slide on the same body (MuJoCo allows nothing to turn after a ball)
            kinds.insert(0, str(rng.choice(["hinge", "slide"])))
        for k, kind in enumerate(kinds):
            if symbolic:
                axis = np.array(_EXACT_AXES[rng.integers(len(_EXACT_AXES))], dtype=object)
                spec.add_joint(b, kind, f"j{i}_{k}", axis=axis * (1 if rng.uniform() < 0.5 else -1))
                continue
            axis = rng.normal(size=3)
            spec.add_joint(b, kind, f"j{i}_{k}", axis=axis / np.linalg.norm(axis),
                           pos=rng.normal(scale=0.1, size=3) if kind in ("hinge", "ball") else None,
                           ref=rng.uniform(-0.5, 0.5) if kind in ("hinge", "slide") else 0.0,
                           armature=rng.uniform(0, armature))
    return _compile(spec, symbolic)


def floating_base(model):
    """The same tree with a free joint above each top-level body: a new massless ``base``
    body per root carries the free joint, and the old root hangs from it, welded.

    >>> floating_base(double_pendulum()).nq
    9

    The new base has no mass of its own, so the model is for kinematics and the equations of
    motion: it has no constants at ``qpos0`` (:func:`~rbdl_edu.setconst.set_const`, which
    refuses a mass matrix that is singular there, as it is when a root's first joint turns
    about the base's origin).
    """
    return ModelSpec.from_model(model).with_floating_base().compile()



def _compile(spec, symbolic):
    """The model, with its constants at ``qpos0`` (:func:`~rbdl_edu.setconst.set_const`, as
    :func:`~rbdl_edu.load_model` and MuJoCo's compiler do) when its numbers are floats: a
    symbolic model has no numbers to simulate."""
    model = spec.compile()
    return model if symbolic else set_const(model)


_R = sp.Rational
_EXACT_AXES = [(_R(3, 5), _R(4, 5), 0), (0, _R(3, 5), _R(4, 5)), (_R(4, 5), 0, _R(3, 5)),
               (1, 0, 0), (0, 1, 0), (0, 0, 1), (_R(12, 13), 0, _R(5, 13))]


def _random_quat(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def _draw_link(spec, body, length):
    """Drawing geoms for a hanging link: a capsule along -z and a sphere at the joint."""
    spec.add_geom(body, "capsule", [0.03, length / 2, 0], pos=[0, 0, -length / 2], rgba=(0.8, 0.5, 0.2, 1),
                  contype=0, conaffinity=0)
    spec.add_geom(body, "sphere", [0.05, 0, 0], rgba=(0.2, 0.2, 0.2, 1), contype=0, conaffinity=0)


__all__ = ["path", "symbol", "pendulum", "double_pendulum", "acrobot", "cart_pole", "planar_chain", "skew_arm",
           "slide_hinge_chain", "branched_tree", "auto_tree", "floating_base"]
