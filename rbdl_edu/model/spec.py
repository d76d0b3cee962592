"""``ModelSpec``: a mutable description of a model that compiles to a frozen ``Model``.

The builders in :mod:`rbdl_edu.models` and the MJCF/URDF compilers in :mod:`rbdl_edu.io`
fill a spec object by object (``add_body``, ``add_joint``, ``add_geom``, ``add_actuator``,
``add_sensor``, ...); :meth:`ModelSpec.compile` (:mod:`rbdl_edu.model.compiler`) then computes
every address (``jnt_qposadr``, ``body_dofadr``, ``sensor_adr``, ...) exactly as MuJoCo's
compiler does, so no one computes them by hand.

Each object is kept as a dict whose keys are the ``Model`` field names without the object
prefix (an actuator's ``"gear"`` becomes ``actuator_gear``); every default comes from
:mod:`rbdl_edu.model.defaults`. Objects are referred to by id or by name.

>>> spec = ModelSpec()
>>> b = spec.add_body(0, "link", pos=[0, 0, 1], mass=1.0, ipos=[0, 0, -0.5], inertia=[0.1, 0.1, 0.01])
>>> j = spec.add_joint(b, "hinge", "shoulder", axis=[0, 1, 0])
>>> a = spec.add_actuator("shoulder", trntype="joint", gear=[2.0])
>>> model = spec.compile()
>>> model, model.nu, model.actuator_gear[0, 0]
(Model(nbody=2, njnt=1, nq=1, nv=1, ngeom=0, joints=['shoulder']), 1, np.float64(2.0))
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import asarray, is_symbolic
from rbdl_edu.model import defaults as D
from rbdl_edu.model.compiler import compile_spec
from rbdl_edu.model.editing import floating_base_spec, spec_from_model
from rbdl_edu.model.enums import (BIAS_NAMES, DYN_NAMES, EQ_NAMES, FREE, GAIN_NAMES, GEOM_NAMES, HFIELD,
                                  JOINT_NAMES, OBJ_NAMES, SENSORS, SLEEP_NAMES, TRN_NAMES, WRAP_NAMES)


def _code(table, value, what):
    """A kind given by name (``"hinge"``) or by MuJoCo's number, as the number."""
    if isinstance(value, (int, np.integer)) and int(value) in table:
        return int(value)
    codes = {v: k for k, v in table.items()}
    if value not in codes:
        raise ValueError(f"unknown {what} {value!r}; expected one of {sorted(n for n in codes if n)}")
    return codes[value]


def _vec(x, n, what="vector"):
    a = asarray(x if x is not None else np.zeros(n))
    if a.shape != (n,):
        raise ValueError(f"{what}: expected {n} numbers, got shape {a.shape}")
    return _finite(a, what)


def _finite(a, what):
    """``a``, if its numbers (symbols pass) are finite."""
    if not is_symbolic(a) and not np.all(np.isfinite(np.asarray(a, dtype=float))):
        raise ValueError(f"{what}: {np.asarray(a).tolist()} holds a NaN or an infinity")
    return a


def _number(x, what):
    """``x`` as one finite float."""
    return float(_finite(np.asarray(float(x)), what))


def _fill(values, n, base=0.0, finite=True):
    """``values`` (at most ``n``) filled up to ``n`` numbers from ``base`` (checked finite)."""
    v = np.full(n, base, dtype=float) if np.isscalar(base) else np.array(base, dtype=float)
    given = np.atleast_1d(np.asarray(values, dtype=float))
    if len(given) > n:
        raise ValueError(f"expected at most {n} numbers, got {len(given)}")
    v[:len(given)] = given
    return _finite(v, "numbers") if finite else v


def _poly(x, what):
    """A stiffness or damping: one number ``a`` or up to three ``a, b, c`` (the linear
    coefficient and the nonlinear ones, as MJCF writes them), as 3 numbers (symbols stay)."""
    a = np.atleast_1d(asarray(x))
    if a.ndim != 1 or len(a) > 3:
        raise ValueError(f"{what}: expected 1 to 3 coefficients, got shape {a.shape}")
    out = np.zeros(3, dtype=a.dtype)
    out[:len(a)] = a
    return _finite(out, what)


def _unit(a, what):
    """``a / |a|`` (scaled first by its largest entry, so no square overflows)."""
    a = asarray(a)
    if is_symbolic(a):
        return a
    scale = np.abs(a).max()
    if not (scale > 0 and np.linalg.norm(a / scale) * scale > 1e-14):
        raise ValueError(f"{what}: zero-length axis {a}")
    u = a / scale
    return u / np.linalg.norm(u)


def _normalized_elevation(h):
    """Elevations as MuJoCo's compiler stores them: single precision, shifted and scaled to
    [0, 1] in single-precision arithmetic (so the stored numbers are MuJoCo's, bit for bit)."""
    h = h.astype(np.float32)
    lo, hi = h.min(), h.max()
    h = h - lo
    if float(hi - lo) > 1e-14:                  # MuJoCo's mjEPS
        h = h / (hi - lo)
    return h.astype(float)


IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])


class ModelSpec:
    """Objects added in document order, compiled by :meth:`compile`.

    ``option`` keywords are :class:`~rbdl_edu.model.Option` fields (``gravity``,
    ``timestep``, ``integrator``, ...)."""

    KINDS = ("body", "joint", "geom", "site", "cam", "mesh", "hfield", "mat", "pair", "exclude", "eq",
             "tendon", "actuator", "sensor", "key")

    def __init__(self, gravity=(0.0, 0.0, -9.81), timestep=0.002, name="", **option):
        self.option = dict(gravity=asarray(gravity), timestep=timestep, **option)
        self.name = name
        self.objects = {kind: [] for kind in self.KINDS}
        self.objects["body"].append(dict(name="world", parent=-1, pos=np.zeros(3), quat=IDENTITY,
                                         mass=0.0, ipos=np.zeros(3), iquat=IDENTITY, inertia=np.zeros(3),
                                         gravcomp=0.0, mocap=False, sleep=0))
        self._ids = {kind: {"world": 0} if kind == "body" else {} for kind in self.KINDS}

    # the compiler and the builders read these lists
    bodies = property(lambda self: self.objects["body"])
    joints = property(lambda self: self.objects["joint"])
    geoms = property(lambda self: self.objects["geom"])
    sites = property(lambda self: self.objects["site"])

    def _add(self, kind, record):
        objects = self.objects[kind]
        name = record.get("name") or ""
        if name and name in self._ids[kind]:
            raise ValueError(f"repeated {kind} name {name!r}")
        record["name"] = name
        if name:
            self._ids[kind][name] = len(objects)
        objects.append(record)
        return len(objects) - 1

    def id(self, kind, ref):
        """The id of a ``kind`` object given by id or by name; ``-1`` stays ``-1``."""
        if ref is None:
            return -1
        if isinstance(ref, (int, np.integer)):
            if not -1 <= ref < len(self.objects[kind]):
                raise ValueError(f"{kind} {ref} does not exist (there are {len(self.objects[kind])})")
            return int(ref)
        if ref not in self._ids[kind]:
            raise ValueError(f"unknown {kind} {ref!r}")
        return self._ids[kind][ref]

    # -- the tree ------------------------------------------------------------------------------
    def add_body(self, parent, name=None, pos=None, quat=None, mass=0.0, ipos=None, iquat=None,
                 inertia=None, gravcomp=0.0, mocap=False, sleep="auto"):
        """Add a body under ``parent``; returns its id. ``inertia`` holds the principal moments
        about the center of mass ``ipos``, along the axes ``iquat``; ``sleep`` the sleep policy
        (``"auto"``, ``"never"``, ``"allowed"``, ``"init"``) of the tree it roots."""
        parent = self.id("body", parent)
        if parent < 0:
            raise ValueError("a body needs a parent (0 is the world)")
        return self._add("body", dict(
            name=name, parent=parent, pos=_vec(pos, 3, "pos"), quat=_vec(quat if quat is not None else IDENTITY, 4, "quat"),
            mass=_finite(asarray(mass)[()], "mass"), ipos=_vec(ipos, 3, "ipos"),
            iquat=_vec(iquat if iquat is not None else IDENTITY, 4, "iquat"),
            inertia=_vec(inertia, 3, "inertia"), gravcomp=float(gravcomp), mocap=bool(mocap),
            sleep=_code(SLEEP_NAMES, sleep, "sleep policy")))

    def add_joint(self, body, type="hinge", name=None, axis=(0.0, 0.0, 1.0), pos=None, ref=0.0,
                  range=None, limited=False, armature=0.0, damping=0.0, stiffness=0.0,
                  springref=0.0, frictionloss=0.0, margin=0.0, group=0, solref=D.SOLREF,
                  solimp=D.SOLIMP, solreffriction=D.SOLREF, solimpfriction=D.SOLIMP,
                  actfrclimited=False, actfrcrange=(0.0, 0.0), actgravcomp=False,
                  springdamper=(0.0, 0.0)):
        """Add a joint (``"hinge"``, ``"slide"``, ``"ball"``, ``"free"``) to ``body``; returns its id.

        ``ref`` (hinge/slide) is the joint value at which the body sits where the file puts
        it: ``qpos0 = ref``. ``solref``/``solimp`` soften the limit, ``solreffriction``/
        ``solimpfriction`` the friction loss. The spring pulls towards ``springref`` with
        ``stiffness`` ``k`` or ``(k, k2, k3)``: :math:`f = -(k x + k_2 x^2 + k_3 x^3)`; the
        damper resists with ``damping`` ``b`` or ``(b, b2, b3)``:
        :math:`f = -(b v + b_2 v|v| + b_3 v^3)`. ``springdamper = (timeconst, dampratio)``,
        both positive, replaces ``k`` and ``b`` by the values that give this joint that time
        constant and damping ratio with its inertia at ``qpos0`` (set by
        :func:`~rbdl_edu.setconst.set_const`)."""
        body = self.id("body", body)
        jtype = _code(JOINT_NAMES, type, "joint type")
        if body < 1:
            raise ValueError(f"joint {name or ''!r}: the world cannot have joints")
        # joints come in body order, so this body's joints are the last ones added (and a
        # free joint, being alone, would be the last of them)
        last = self.joints[-1] if self.joints else None
        if last is not None and last["body"] > body:
            raise ValueError("joints must be added in body order")
        if last is not None and last["body"] == body and FREE in (jtype, last["type"]):
            raise ValueError(f"joint {name or ''!r}: a free joint must be the only joint of its body")
        return self._add("joint", dict(
            name=name, type=jtype, body=body, axis=_unit(_vec(axis, 3, "axis"), f"joint {name!r}"),
            pos=_vec(pos, 3, "pos"), ref=ref, springref=springref,
            range=np.asarray(range if range is not None else [0.0, 0.0], dtype=float),
            limited=bool(limited), armature=armature, damping=_poly(damping, f"joint {name!r}: damping"),
            stiffness=_poly(stiffness, f"joint {name!r}: stiffness"), springdamper=_fill(springdamper, 2),
            frictionloss=frictionloss, margin=float(margin), group=int(group),
            solref=_fill(solref, 2), solimp=_fill(solimp, 5, D.SOLIMP),
            solreffriction=_fill(solreffriction, 2), solimpfriction=_fill(solimpfriction, 5, D.SOLIMP),
            actfrclimited=bool(actfrclimited), actfrcrange=_fill(actfrcrange, 2),
            actgravcomp=bool(actgravcomp)))

    def add_geom(self, body, type, size, name=None, pos=None, quat=None, rgba=D.GEOM_RGBA,
                 contype=D.GEOM_CONTYPE, conaffinity=D.GEOM_CONAFFINITY, condim=D.GEOM_CONDIM,
                 priority=0, friction=D.GEOM_FRICTION, solmix=D.GEOM_SOLMIX, solref=D.SOLREF,
                 solimp=D.SOLIMP, margin=0.0, gap=0.0, mesh=None, group=0, material=None,
                 fluid=None, hfield=None, surfacevel=None, adhesion=0.0):
        """Add a geom (``"plane"``, ``"hfield"``, ``"sphere"``, ``"capsule"``, ``"ellipsoid"``,
        ``"cylinder"``, ``"box"``, ``"mesh"``) with MuJoCo's ``size`` convention; returns its
        id. Geoms here carry no mass: the body's inertial fields are what the dynamics uses.
        ``mesh``, ``hfield`` and ``material`` are ids or names (of :meth:`add_mesh`,
        :meth:`add_hfield`, :meth:`add_material`). A height field geom takes its size from its
        height field, as MuJoCo's compiler does: ``(radius_x, radius_y, elevation_z / 4 +
        base_z / 2)``; the ``size`` given is ignored. ``surfacevel``: the velocity of the
        surface as contacts see it (linear, angular; geom frame), a conveyor belt's.
        ``adhesion``: the force with which its contacts pull (MuJoCo 4.0's geom adhesion)."""
        code = _code(GEOM_NAMES, type, "geom type")
        if (code == HFIELD) != (hfield is not None and hfield != -1) or \
                (code == HFIELD and mesh is not None and mesh != -1):
            raise ValueError(f"geom {name!r}: a height field geom needs an hfield (and no mesh), "
                             "and only it")
        dataid = self.id("mesh", mesh)
        if code == HFIELD:
            dataid = self.id("hfield", hfield)
            radius_x, radius_y, elevation_z, base_z = self.objects["hfield"][dataid]["size"]
            size = [radius_x, radius_y, 0.25 * elevation_z + 0.5 * base_z]
        return self._add("geom", dict(
            name=name, type=code, body=self.id("body", body),
            size=_fill(size if size is not None else [], 3), pos=_vec(pos, 3, "pos"),
            quat=_vec(quat if quat is not None else IDENTITY, 4, "quat"), rgba=_fill(rgba, 4),
            contype=int(contype), conaffinity=int(conaffinity), condim=int(condim),
            priority=int(priority), friction=_fill(friction, 3, D.GEOM_FRICTION), solmix=float(solmix),
            solref=_fill(solref, 2), solimp=_fill(solimp, 5, D.SOLIMP), margin=float(margin),
            gap=float(gap), dataid=dataid, matid=self.id("mat", material),
            group=int(group), surfacevel=_fill(surfacevel if surfacevel is not None else [], 6),
            adhesion=_number(adhesion, f"geom {name!r}: adhesion"),
            # (a flat geom on the world may carry MuJoCo's NaN added mass: it never moves)
            fluid=_fill(fluid if fluid is not None else [], 12, finite=self.id("body", body) != 0)))

    def add_site(self, body, name=None, pos=None, quat=None, size=D.SITE_SIZE, type="sphere",
                 group=0, rgba=D.SITE_RGBA, material=None):
        """Add a site (a named frame on a body); returns its id."""
        return self._add("site", dict(
            name=name, body=self.id("body", body), pos=_vec(pos, 3, "pos"),
            quat=_vec(quat if quat is not None else IDENTITY, 4, "quat"), size=_fill(size, 3, D.SITE_SIZE),
            type=_code(GEOM_NAMES, type, "site type"), group=int(group), rgba=_fill(rgba, 4),
            matid=self.id("mat", material)))

    def add_camera(self, body, name=None, pos=None, quat=None, mode=0, fovy=45.0, resolution=(1, 1),
                   sensorsize=(0.0, 0.0), intrinsic=(0.01, 0.01, 0.0, 0.0), projection=0, target=None):
        """Add a camera (a frame on a body looking along its -z axis, x right, y up): ``mode``
        0 is fixed to the body, 1/2 track it (its origin, its subtree's com), 3/4 look at the
        ``target`` body (its origin, its subtree's com); ``fovy`` (degrees, or a length for an orthographic
        ``projection`` 1), ``resolution`` (pixels), ``sensorsize`` and ``intrinsic``
        (focal lengths and principal point, in length units) as MuJoCo's ``cam_*``."""
        return self._add("cam", dict(
            name=name, bodyid=self.id("body", body), pos=_vec(pos, 3, "pos"),
            quat=_vec(quat if quat is not None else IDENTITY, 4, "quat"), mode=int(mode), fovy=float(fovy),
            resolution=tuple(int(r) for r in resolution), sensorsize=_fill(sensorsize, 2),
            intrinsic=_fill(intrinsic, 4), projection=int(projection), targetbodyid=self.id("body", target)))

    # -- assets --------------------------------------------------------------------------------
    def add_mesh(self, name, vert, face, pos=None, quat=None):
        """Add a triangle mesh: ``vert (n, 3)`` in its principal frame, ``face (m, 3)``
        vertex indices; ``pos``/``quat`` place that frame in the file's mesh frame."""
        vert, face = np.asarray(vert, dtype=float).reshape(-1, 3), np.asarray(face, dtype=int).reshape(-1, 3)
        _finite(vert, f"mesh {name!r}: vertices")
        if len(face) and (face.min() < 0 or face.max() >= len(vert)):
            raise ValueError(f"mesh {name!r}: face indices must lie in [0, {len(vert)})")
        return self._add("mesh", dict(name=name, vert=vert, face=face, pos=_vec(pos, 3, "pos"),
                                      quat=_vec(quat if quat is not None else IDENTITY, 4, "quat")))

    def add_hfield(self, name, size, nrow, ncol, data=None):
        r"""Add a height field: ``nrow x ncol`` elevation samples (both at least 2) in ``data``
        (row-major, row 0 at ``y = -radius_y``; zeros if ``None``), over the rectangle
        ``size = (radius_x, radius_y, elevation_z, base_z)`` (all positive).

        As MuJoCo's compiler, the samples are stored in single precision and normalized to
        [0, 1]: :math:`h \leftarrow (h - h_{min}) / (h_{max} - h_{min})` (only the shift when
        they are all equal); elevation ``elevation_z`` scales them, and a base ``base_z``
        deep lies below 0."""
        size = np.asarray(size, dtype=float)
        if size.shape != (4,) or not np.all(size > 0):
            raise ValueError(f"hfield {name!r}: size needs 4 positive numbers, got {size}")
        if int(nrow) < 2 or int(ncol) < 2:
            raise ValueError(f"hfield {name!r}: nrow and ncol must be at least 2, got {nrow}, {ncol}")
        data = np.zeros(nrow * ncol) if data is None else np.asarray(data, dtype=float).reshape(-1)
        if data.shape != (nrow * ncol,) or not np.all(np.isfinite(data)):
            raise ValueError(f"hfield {name!r}: data needs nrow*ncol = {nrow * ncol} finite numbers, "
                             f"got shape {data.shape}")
        return self._add("hfield", dict(name=name, size=size, nrow=int(nrow), ncol=int(ncol),
                                        data=_normalized_elevation(data)))

    def add_material(self, name, rgba=(1.0, 1.0, 1.0, 1.0)):
        """Add a material (only its color matters here)."""
        return self._add("mat", dict(name=name, rgba=_fill(rgba, 4)))

    # -- contacts, equalities, tendons -----------------------------------------------------------
    def add_pair(self, geom1, geom2, name=None, condim=D.GEOM_CONDIM, friction=D.PAIR_FRICTION,
                 solref=D.SOLREF, solreffriction=(0.0, 0.0), solimp=D.SOLIMP, margin=0.0, gap=0.0,
                 adhesion=0.0):
        """Add an explicit contact pair with its own parameters (``friction`` has 5 numbers;
        ``adhesion`` replaces the sum of the geoms')."""
        if condim not in (1, 3, 4, 6):
            raise ValueError(f"condim must be 1, 3, 4 or 6, not {condim}")
        return self._add("pair", dict(
            name=name, geom1=self.id("geom", geom1), geom2=self.id("geom", geom2), dim=int(condim),
            friction=_fill(friction, 5, D.PAIR_FRICTION), solref=_fill(solref, 2),
            solreffriction=_fill(solreffriction, 2), solimp=_fill(solimp, 5, D.SOLIMP),
            margin=float(margin), gap=float(gap), adhesion=_number(adhesion, f"pair {name!r}: adhesion")))

    def add_exclude(self, body1, body2, name=None):
        """No contacts between any geom of ``body1`` and any geom of ``body2``."""
        return self._add("exclude", dict(name=name, body1=self.id("body", body1), body2=self.id("body", body2)))

    def add_equality(self, type, obj1, obj2=None, name=None, objtype=None, active=True,
                     solref=D.SOLREF, solimp=D.SOLIMP, data=()):
        """Add an equality constraint ``"connect"``, ``"weld"`` (bodies or sites), ``"joint"``
        or ``"tendon"``; ``data`` is MuJoCo's ``eq_data`` (up to 12 numbers, the rest from
        :data:`~rbdl_edu.model.defaults.EQ_DATA`)."""
        code = _code(EQ_NAMES, type, "equality type")
        kind = {"joint": "joint", "tendon": "tendon"}.get(EQ_NAMES[code], objtype or "body")
        # eq_objtype tells bodies from sites (connect, weld); joint and tendon couplings leave it
        # unknown, as MuJoCo does
        return self._add("eq", dict(
            name=name, type=code, objtype=_code(OBJ_NAMES, kind if kind in ("body", "site") else "", "object type"),
            obj1id=self.id(kind, obj1), obj2id=self.id(kind, obj2), active0=bool(active),
            solref=_fill(solref, 2), solimp=_fill(solimp, 5, D.SOLIMP), data=_fill(data, 12, D.EQ_DATA)))

    def add_tendon(self, path, name=None, limited=False, range=(0.0, 0.0), stiffness=0.0,
                   damping=0.0, frictionloss=0.0, armature=0.0, springlength=D.TENDON_SPRINGLENGTH,
                   margin=0.0, solref_lim=D.SOLREF, solimp_lim=D.SOLIMP, solref_fri=D.SOLREF,
                   solimp_fri=D.SOLIMP, actfrclimited=False, actfrcrange=(0.0, 0.0)):
        """Add a tendon. ``path`` lists ``(wrap type, object, prm)``: a fixed tendon's
        ``("joint", joint, coef)``, a spatial tendon's ``("site", site, 0)``,
        ``("sphere"|"cylinder", geom, side site or -1)``, ``("pulley", -1, divisor)``.
        ``stiffness`` and ``damping`` take 1 to 3 coefficients, as a joint's."""
        wraps = []
        for kind, obj, prm in path:
            code = _code(WRAP_NAMES, kind, "tendon path element")
            of = {"joint": "joint", "site": "site", "sphere": "geom", "cylinder": "geom"}.get(WRAP_NAMES[code])
            wraps.append((code, self.id(of, obj) if of else -1, float(prm)))
        return self._add("tendon", dict(
            name=name, path=wraps, limited=bool(limited), range=_fill(range, 2),
            stiffness=_fill(stiffness, 3), damping=_fill(damping, 3), frictionloss=float(frictionloss),
            armature=float(armature),
            lengthspring=_fill(springlength, 2), margin=float(margin), solref_lim=_fill(solref_lim, 2),
            solimp_lim=_fill(solimp_lim, 5, D.SOLIMP), solref_fri=_fill(solref_fri, 2),
            solimp_fri=_fill(solimp_fri, 5, D.SOLIMP), actfrclimited=bool(actfrclimited),
            actfrcrange=_fill(actfrcrange, 2)))

    # -- actuators, sensors, keyframes -------------------------------------------------------------
    def add_actuator(self, target, trntype="joint", name=None, refsite=None, dyntype="none",
                     gaintype="fixed", biastype="none", dynprm=D.ACTUATOR_DYNPRM,
                     gainprm=D.ACTUATOR_GAINPRM, biasprm=D.ACTUATOR_BIASPRM, gear=D.ACTUATOR_GEAR,
                     ctrllimited=False, ctrlrange=(0.0, 0.0), forcelimited=False,
                     forcerange=(0.0, 0.0), actlimited=False, actrange=(0.0, 0.0), group=0,
                     cranklength=0.0, actearly=False, lengthrange=(0.0, 0.0), ctrlspec=0,
                     velrange=(0.0, 0.0), ffrange=(0.0, 0.0)):
        """Add a general actuator, ``force = gain * ctrl + bias`` (MuJoCo's ``<general>``),
        pulling on ``target`` through ``trntype`` (``"joint"``, ``"jointinparent"``,
        ``"tendon"``, ``"site"``, ``"body"``, ``"slidercrank"``; for a slider-crank the
        target is the crank site and ``refsite`` the slider site; ``"so3"``: an
        ``<orientation>`` servo on a ball joint, or on a site with ``refsite``). ``ctrlspec``: its input
        bits (a PID's or DC motor's controls, :mod:`rbdl_edu.model.controls`), whose
        velocity and feedforward inputs of a PID take ``velrange`` and ``ffrange``."""
        trn = _code(TRN_NAMES, trntype, "transmission")
        of = {"joint": "joint", "jointinparent": "joint", "tendon": "tendon", "site": "site",
              "body": "body", "slidercrank": "site",
              "so3": "site" if refsite not in (None, -1) else "joint"}[TRN_NAMES[trn]]
        return self._add("actuator", dict(
            name=name, trntype=trn, trnid=np.array([self.id(of, target), self.id("site", refsite)]),
            dyntype=_code(DYN_NAMES, dyntype, "dyntype"), gaintype=_code(GAIN_NAMES, gaintype, "gaintype"),
            biastype=_code(BIAS_NAMES, biastype, "biastype"), dynprm=_fill(dynprm, 10),
            gainprm=_fill(gainprm, 10), biasprm=_fill(biasprm, 10), gear=_fill(gear, 6),
            ctrllimited=bool(ctrllimited), ctrlrange=_fill(ctrlrange, 2), forcelimited=bool(forcelimited),
            forcerange=_fill(forcerange, 2), actlimited=bool(actlimited), actrange=_fill(actrange, 2),
            group=int(group), cranklength=float(cranklength), actearly=bool(actearly),
            lengthrange=_fill(lengthrange, 2), ctrlspec=int(ctrlspec), velrange=_fill(velrange, 2),
            ffrange=_fill(ffrange, 2)))

    def add_sensor(self, type, obj=None, name=None, objtype=None, ref=None, reftype=None,
                   noise=0.0, cutoff=0.0, intprm=None):
        """Add a sensor of ``type`` (its MJCF element name, ``"jointpos"``, ``"framequat"``,
        ...) reading ``obj`` (a ``objtype`` object; the type says which kind unless it is a
        frame, contact or geom-pair sensor) in the frame of ``ref`` (frame sensors; the second
        object of contact and geom-pair sensors). ``intprm``: a contact sensor's data bits,
        reduction and slots (default: ``found``, one slot), a rangefinder's data bits
        (default: ``dist``)."""
        if type not in SENSORS:
            raise ValueError(f"unknown sensor type {type!r}; expected one of {sorted(SENSORS)}")
        kind = SENSORS[type].obj
        objtype = objtype or ("" if kind in ("frame", "contact", "geompair") else kind)
        if intprm is None:
            intprm = {"contact": (1, 0, 1), "rangefinder": (1, 0, 0)}.get(type, (0, 0, 0))
        frames = ("body", "xbody", "geom", "site") + (("camera",) if type == "insidesite" else ())
        if kind == "frame" and objtype not in frames:
            raise ValueError(f"{type} sensor: objtype must be one of {', '.join(frames)}, not {objtype!r}")
        def ident(t, x):
            return self.id({"xbody": "body", "camera": "cam"}.get(t, t), x) if t else -1
        return self._add("sensor", dict(
            name=name, type=SENSORS[type].type, objtype=_code(OBJ_NAMES, objtype, "object type"),
            objid=ident(objtype, obj), reftype=_code(OBJ_NAMES, reftype or "", "object type"),
            refid=ident(reftype, ref), noise=float(noise), cutoff=float(cutoff),
            intprm=tuple(int(x) for x in intprm)))

    def add_key(self, name=None, time=0.0, qpos=None, qvel=None, act=None, ctrl=None, mpos=None,
                mquat=None):
        """Add a keyframe; what it leaves out is ``qpos0``, zeros or the mocap bodies' poses."""
        return self._add("key", dict(name=name, time=float(time), qpos=qpos, qvel=qvel, act=act,
                                     ctrl=ctrl, mpos=mpos, mquat=mquat))

    # -- compiling and editing -------------------------------------------------------------------
    def compile(self):
        """Compute every address and return the frozen :class:`~rbdl_edu.model.Model`."""
        return compile_spec(self)

    @classmethod
    def from_model(cls, model) -> "ModelSpec":
        """A spec that compiles back to ``model`` (to edit a loaded or built model)."""
        return spec_from_model(cls(), model)

    def with_floating_base(self) -> "ModelSpec":
        """A new spec in which every top-level body hangs, welded, from a new massless
        ``<name>_base`` body that carries a free joint (at the old body's pose)."""
        return floating_base_spec(self, type(self)(**self.option, name=self.name))
