"""Named access, as in MuJoCo's Python bindings: ``data.joint("hip").qpos``,
``model.body("torso").mass``.

``data.joint(name)`` (or an integer id) returns a **record**: the joint's ``id``, ``name``
and its slice of each of ``Data``'s per-joint arrays, with MuJoCo's attribute names
(``qpos``, ``qvel``, ``qacc``, ``qfrc_applied``, ``xanchor``, ...). The same for
``body``, ``geom``, ``site``, ``actuator``, ``tendon`` and ``sensor`` (its numbers are
``.data``), and for the model: ``model.body("torso").mass`` is ``body_mass`` without the
prefix.

Two differences from the bindings, both on purpose:

* the arrays of a record are **copies taken when the record is made**, and read-only: a
  record or an array stored in a log keeps its values when the simulation moves on (the
  bindings return live views, so a log of views holds the last state many times);
* so ``data.joint("hinge").qpos[:] = 0.5`` would change nothing and raises an error;
  **assign the attribute** instead, which writes through into ``data``:
  ``data.joint("hinge").qpos = 0.5``, ``data.actuator("push").ctrl = 3.0``. A model
  never changes (make a new one with ``model.replace``).

Shapes are the bindings': a per-object number is an array of shape ``(1,)``
(``model.body(1).mass``), a joint's ``qpos`` has its joint's ``nq`` entries.

>>> from rbdl_edu.models import double_pendulum
>>> from rbdl_edu.model.data import Data
>>> model = double_pendulum(); data = Data(model)
>>> data.joint("elbow").qpos = 0.5          # writes data.qpos[1]
>>> data.qpos
array([0. , 0.5])
>>> elbow = data.joint("elbow")
>>> elbow.id, elbow.name, elbow.qpos
(1, 'elbow', array([0.5]))
>>> elbow.qpos[:] = 0.0
Traceback (most recent call last):
...
ValueError: data.joint('elbow').qpos is a read-only copy; assign the attribute instead: data.joint('elbow').qpos = ...
>>> model.body("lower").mass
array([1.])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.model.enums import JOINT_NQ, JOINT_NV


class ReadOnlyArray(np.ndarray):
    """A read-only NumPy array (a record's copy) whose ``x[...] = value`` error says what
    to do instead. It prints as a plain array; results computed from it are ordinary,
    writable arrays."""

    def __array_finalize__(self, obj):
        self.hint = getattr(obj, "hint", None)

    def __setitem__(self, index, value):
        if self.flags.writeable or self.hint is None:
            return super().__setitem__(index, value)
        raise ValueError(self.hint)

    def __repr__(self):
        return repr(self.view(np.ndarray))

    def __str__(self):
        return str(self.view(np.ndarray))

    def __reduce__(self):                 # pickles (and deep-copies) as a plain array
        return np.array, (self.view(np.ndarray),)


def read_only(value, hint):
    """A read-only copy of ``value`` whose assignment error is ``hint``."""
    x = np.array(value).view(ReadOnlyArray)
    x.hint = hint
    x.flags.writeable = False
    return x


class Record:
    """One object's fields (copies, read-only), taken from ``owner`` (a ``Data`` or a
    ``Model``) when the record is made. ``record.field = value`` writes through into the
    owner's array (for a ``Data``) and updates the copy.

    ``where`` maps each field to ``(array name in owner, index)``.
    """

    def __init__(self, owner, kind, id, name, where):
        o = object.__setattr__
        o(self, "_owner", owner)
        o(self, "_where", where)
        o(self, "_writes", not hasattr(owner, "replace"))          # a Data, not a Model
        o(self, "id", id)
        o(self, "name", name)
        o(self, "_call", f"{'data' if self._writes else 'model'}.{kind}({name or id!r})")
        for field, (array, index) in where.items():
            o(self, field, read_only(getattr(owner, array)[index], self._hint(field)))

    def _hint(self, field):
        if self._writes:
            return (f"{self._call}.{field} is a read-only copy; assign the attribute instead: "
                    f"{self._call}.{field} = ...")
        return f"a Model does not change; make a new one: model.replace({self._where[field][0]}=...)"

    def __setattr__(self, field, value):
        if field not in self._where:
            raise AttributeError(f"{self._call} has no field {field!r}; it has "
                                 f"{['id', 'name', *self._where]}")
        if not self._writes:
            raise AttributeError(self._hint(field))
        array, index = self._where[field]
        target = getattr(self._owner, array)
        try:
            target[index] = np.asarray(value, dtype=target.dtype)
        except (TypeError, ValueError) as e:
            raise ValueError(f"{self._call}.{field} has shape {target[index].shape}; "
                             f"cannot assign {value!r} ({e})") from None
        object.__setattr__(self, field, read_only(target[index], self._hint(field)))

    def __dir__(self):
        return ["id", "name", *self._where]

    def __repr__(self):
        rows = [f"  id: {self.id}", f"  name: {self.name!r}"]
        rows += [f"  {f}: {getattr(self, f)!r}" for f in self._where]
        return f"<{self._call}\n" + "\n".join(rows) + "\n>"


def _row(i):
    """The index of object ``i`` in an array ``(n, ...)``: a slice for a vector, so a
    number comes back as shape ``(1,)`` (as the bindings)."""
    return slice(i, i + 1)


def _span(adr, n):
    return slice(adr, adr + n)


# -- Data ------------------------------------------------------------------------------------
#: per kind: the fields of a Data record and the Data array each comes from (as the bindings)
DATA_FIELDS = {
    "body": {f: f for f in ("xpos", "xquat", "xmat", "xipos", "ximat", "xfrc_applied", "cvel", "cacc",
                            "subtree_com", "subtree_linvel", "subtree_angmom", "cfrc_int", "cfrc_ext")},
    "geom": {"xpos": "geom_xpos", "xmat": "geom_xmat"},
    "site": {"xpos": "site_xpos", "xmat": "site_xmat"},
    "tendon": {"length": "ten_length", "velocity": "ten_velocity", "wrapadr": "ten_wrapadr",
               "wrapnum": "ten_wrapnum"},
}
#: a joint's fields: by qpos address, by dof address, by joint
JOINT_QPOS = ("qpos",)
JOINT_DOF = ("qvel", "qacc", "qacc_smooth", "qacc_warmstart", "qfrc_applied", "qfrc_bias",
             "qfrc_passive", "qfrc_actuator", "qfrc_smooth", "qfrc_constraint", "qfrc_inverse", "cdof")
JOINT_ROW = ("xanchor", "xaxis")


def data_record(data, kind, x):
    """The record of ``data``'s ``kind`` object ``x`` (a name or an id)."""
    m = data.model
    i = m.as_id(kind, x)
    name = m.names(kind)[i]
    if kind == "joint":
        t = int(m.jnt_type[i])
        q, d = _span(int(m.jnt_qposadr[i]), JOINT_NQ[t]), _span(int(m.jnt_dofadr[i]), JOINT_NV[t])
        where = {f: (f, q) for f in JOINT_QPOS}
        where.update({f: (f, d) for f in JOINT_DOF})
        where.update({f: (f, i) for f in JOINT_ROW})
    elif kind == "actuator":
        adr = int(m.actuator_actadr[i])
        ctrl = _span(int(m.actuator_ctrladr[i]), int(m.actuator_ctrlnum[i]))      # its block of controls
        out, n = int(m.actuator_outadr[i]), int(m.actuator_outnum[i])          # its force outputs
        rows = _span(out, n)
        where = {"ctrl": ("ctrl", ctrl if m.actuator_ctrlnum[i] != 1 else _row(int(m.actuator_ctrladr[i]))),
                 "force": ("actuator_force", rows),
                 "length": ("actuator_length", rows), "velocity": ("actuator_velocity", rows),
                 "moment": ("actuator_moment", out if n == 1 else rows),
                 "act": ("act", _span(adr, int(m.actuator_actnum[i])) if adr >= 0 else slice(0, 0))}
    elif kind == "sensor":
        where = {"data": ("sensordata", _span(int(m.sensor_adr[i]), int(m.sensor_dim[i])))}
    else:
        where = {f: (a, _row(i) if getattr(data, a).ndim == 1 else i) for f, a in DATA_FIELDS[kind].items()}
    return Record(data, kind, i, name, where)


# -- Model -----------------------------------------------------------------------------------
def model_record(model, kind, x):
    """The record of ``model``'s ``kind`` object ``x`` (a name or an id): every field
    ``<prefix>_<field>`` with one row per object, as ``field``; a joint has its dofs'
    ``dof_*`` fields too (``damping``, ``armature``, ...) and ``qpos0``, ``qpos_spring``."""
    i = model.as_id(kind, x)
    prefix = model.KINDS[kind] + "_"
    count = model.shape_of(prefix + "names")[0]
    where = {}
    for f in model.__dataclass_fields__.values():
        if f.name.startswith(prefix) and f.name != prefix + "names" and "shape" in f.metadata:
            if f.metadata["shape"][0] == "nout":        # an actuator's rows, one per force output
                out, n = int(model.actuator_outadr[i]), int(model.actuator_outnum[i])
                where[f.name[len(prefix):]] = (f.name, _span(out, n) if len(f.metadata["shape"]) == 1 or n > 1
                                               else out)
            elif model.shape_of(f.name)[:1] == (count,):
                where[f.name[len(prefix):]] = (f.name, _row(i) if len(f.metadata["shape"]) == 1 else i)
    if kind == "joint":
        t = int(model.jnt_type[i])
        d = _span(int(model.jnt_dofadr[i]), JOINT_NV[t])
        for f in model.__dataclass_fields__:
            if f.startswith("dof_") and f[4:] not in where:
                where[f[4:]] = (f, d)
        q = _span(int(model.jnt_qposadr[i]), JOINT_NQ[t])
        where.update(qpos0=("qpos0", q), qpos_spring=("qpos_spring", q))
    return Record(model, kind, i, model.names(kind)[i], where)


class ModelRecords:
    """``Model``'s named access, as MuJoCo's bindings: ``model.body("torso").mass``."""

    #: the kinds of named objects and the prefix of their fields (``"joint"``: ``jnt_names``,
    #: ``jnt_type``, ...), as MuJoCo's ``mjtObj``
    KINDS = {"body": "body", "joint": "jnt", "geom": "geom", "site": "site", "camera": "cam", "mesh": "mesh",
             "hfield": "hfield", "material": "mat", "pair": "pair", "exclude": "exclude",
             "equality": "eq", "tendon": "tendon", "actuator": "actuator", "sensor": "sensor",
             "keyframe": "key"}

    def names(self, kind: str) -> tuple:
        """The names of the ``kind`` objects, in id order (``''`` if unnamed); a ``KeyError``
        lists the kinds there are."""
        prefix = self.KINDS.get(kind, kind if kind in self.KINDS.values() else None)   # "jnt" too
        if prefix is None:
            raise KeyError(f"no kind of object called {kind!r}; the kinds are {list(self.KINDS)}")
        return getattr(self, prefix + "_names")

    def id(self, kind: str, name: str) -> int:
        """The id of the ``kind`` object called ``name`` (``model.id("joint", "hip")``), as
        MuJoCo's ``mj_name2id``; a ``KeyError`` lists the names there are (or the kinds).

        >>> from rbdl_edu.models import double_pendulum
        >>> double_pendulum().id("joint", "elbow")
        1
        """
        names = self.names(kind)
        if name not in names:
            raise KeyError(f"no {kind} named {name!r}; the model's {kind}s are {[n for n in names if n]}")
        return names.index(name)

    def as_id(self, kind: str, x) -> int:
        """``x``, a name or an integer id (checked), as the id of a ``kind`` object: what
        every function that takes an object accepts.

        >>> from rbdl_edu.models import double_pendulum
        >>> double_pendulum().as_id("body", "lower"), double_pendulum().as_id("body", 2)
        (2, 2)
        """
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
            n = len(self.names(kind))
            if not 0 <= x < n:
                raise IndexError(f"{kind} id {x} out of range (the model has {n})")
            return int(x)
        if isinstance(x, str):
            return self.id(kind, x)
        raise TypeError(f"a {kind} is given by its name or its integer id, not {type(x).__name__}")

    def body(self, x):
        """Body ``x``'s fields (``body_mass`` as ``.mass``, ``.pos``, ...; ``.id``, ``.name``),
        read-only copies (:mod:`rbdl_edu.model.records`); ``x`` is a name or an id.

        >>> from rbdl_edu.models import double_pendulum
        >>> double_pendulum().body("upper").mass
        array([1.])
        """
        return model_record(self, "body", x)

    def joint(self, x):
        """Joint ``x``'s ``jnt_*`` fields, its dofs' ``dof_*`` fields and ``qpos0``."""
        return model_record(self, "joint", x)

    def geom(self, x):
        """Geom ``x``'s ``geom_*`` fields."""
        return model_record(self, "geom", x)

    def site(self, x):
        """Site ``x``'s ``site_*`` fields."""
        return model_record(self, "site", x)

    def actuator(self, x):
        """Actuator ``x``'s ``actuator_*`` fields."""
        return model_record(self, "actuator", x)

    def sensor(self, x):
        """Sensor ``x``'s ``sensor_*`` fields."""
        return model_record(self, "sensor", x)

    def tendon(self, x):
        """Tendon ``x``'s ``tendon_*`` fields."""
        return model_record(self, "tendon", x)

    def mesh(self, x):
        """Mesh ``x``'s ``mesh_*`` fields."""
        return model_record(self, "mesh", x)

    def hfield(self, x):
        """Height field ``x``'s ``hfield_*`` fields."""
        return model_record(self, "hfield", x)

    def material(self, x):
        """Material ``x``'s ``mat_*`` fields."""
        return model_record(self, "material", x)

    def pair(self, x):
        """Contact pair ``x``'s ``pair_*`` fields."""
        return model_record(self, "pair", x)

    def exclude(self, x):
        """Exclude ``x``'s ``exclude_*`` fields."""
        return model_record(self, "exclude", x)

    def equality(self, x):
        """Equality constraint ``x``'s ``eq_*`` fields."""
        return model_record(self, "equality", x)

    def keyframe(self, x):
        """Keyframe ``x``'s ``key_*`` fields."""
        return model_record(self, "keyframe", x)

    jnt, mat, eq, key = joint, material, equality, keyframe       # the bindings' short names
