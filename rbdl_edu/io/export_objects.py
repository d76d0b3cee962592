"""The MJCF sections after ``<worldbody>`` that :func:`~rbdl_edu.io.export.to_mjcf` writes:
``<contact>`` (pairs, excludes), ``<equality>``, ``<tendon>``, ``<actuator>`` (each as a
``<general>`` with its dynamics, gain and bias written out), ``<sensor>`` and ``<keyframe>``.
Every sensor kind the loader reads is written.

>>> from rbdl_edu.models import pendulum
>>> object_sections(pendulum())
[]
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.io.export_text import b, f, name_of
from rbdl_edu.io.mjcf_sensors import SPECIAL
from rbdl_edu.model.controls import control_attributes
from rbdl_edu.model.enums import (BIAS_NAMES, CHART_QUAT, CONDATA, CONTACT_REDUCE, DYN_NAMES, EQ_CONNECT, EQ_JOINT,
                                  EQ_TENDON, EQ_WELD, GAIN_NAMES, GAIN_PID, GAIN_SO3, OBJ_NAMES, OBJ_SITE, RAYDATA,
                                  SENSOR_NAMES, SENSORS, TRN_BODY, TRN_JOINT, TRN_JOINTINPARENT, TRN_SITE,
                                  TRN_SLIDERCRANK, TRN_SO3, TRN_TENDON, WRAP_JOINT, WRAP_PULLEY, WRAP_SITE)


def object_sections(model) -> list:
    """The text lines of every section after ``<worldbody>``, in MuJoCo's order of ids."""
    out = []
    for tag, lines in (("contact", _contact(model)), ("equality", _equalities(model)),
                       ("tendon", _tendons(model)), ("actuator", _actuators(model)),
                       ("sensor", _sensors(model)), ("keyframe", _keys(model))):
        if lines:
            out += [f"  <{tag}>", *("    " + x for x in lines), f"  </{tag}>"]
    return out


def _soft(model, prefix, i):
    return f'solref="{f(getattr(model, prefix + "solref")[i])}" solimp="{f(getattr(model, prefix + "solimp")[i])}"'


def _contact(model):
    out = []
    for p in range(model.npair):
        out.append(f'<pair geom1="{name_of(model, "geom", model.pair_geom1[p])}" '
                   f'geom2="{name_of(model, "geom", model.pair_geom2[p])}" condim="{int(model.pair_dim[p])}" '
                   f'friction="{f(model.pair_friction[p])}" {_soft(model, "pair_", p)} '
                   f'solreffriction="{f(model.pair_solreffriction[p])}" margin="{f(model.pair_margin[p])}" '
                   f'gap="{f(model.pair_gap[p])}" adhesion="{f(model.pair_adhesion[p])}"/>')
    for sig in model.exclude_signature:
        out.append(f'<exclude body1="{name_of(model, "body", int(sig) >> 16)}" '
                   f'body2="{name_of(model, "body", int(sig) & 0xFFFF)}"/>')
    return out


def _equalities(model):
    """Each equality from its ``eq_data``: connect (anchor), weld (anchor, relpose,
    torquescale), joint and tendon (polycoef); bodies or sites by ``eq_objtype``."""
    out = []
    for e in range(model.neq):
        kind, data = int(model.eq_type[e]), model.eq_data[e]
        o1, o2 = int(model.eq_obj1id[e]), int(model.eq_obj2id[e])
        head = f'name="{name_of(model, "eq", e)}" active="{b(model.eq_active0[e])}" {_soft(model, "eq_", e)}'
        if kind in (EQ_CONNECT, EQ_WELD):
            obj = "site" if model.eq_objtype[e] == OBJ_SITE else "body"
            tag = "connect" if kind == EQ_CONNECT else "weld"
            objs = f'{obj}1="{name_of(model, obj, o1)}"' + (f' {obj}2="{name_of(model, obj, o2)}"' if o2 >= 0 else "")
            extra = "" if obj == "site" else f' anchor="{f(data[:3])}"'     # sites carry their frames
            if kind == EQ_WELD:
                extra += ("" if obj == "site" else f' relpose="{f(data[3:10])}"') + f' torquescale="{f(data[10])}"'
            out.append(f"<{tag} {head} {objs}{extra}/>")
        elif kind in (EQ_JOINT, EQ_TENDON):
            tag, obj = ("joint", "jnt") if kind == EQ_JOINT else ("tendon", "tendon")
            objs = f'{tag}1="{name_of(model, obj, o1)}"' + (f' {tag}2="{name_of(model, obj, o2)}"' if o2 >= 0 else "")
            out.append(f'<{tag} {head} {objs} polycoef="{f(data[:5])}"/>')
        else:
            raise ValueError(f"to_mjcf: eq_type[{e}]={kind} cannot be written")
    return out


def _tendons(model):
    """Fixed tendons (joints and coefficients) and spatial ones (sites, wrapped geoms with
    their side sites, pulleys), with every spring, damper, limit and friction number."""
    out = []
    for t in range(model.ntendon):
        wraps = range(model.tendon_adr[t], model.tendon_adr[t] + model.tendon_num[t])
        fixed = all(model.wrap_type[w] == WRAP_JOINT for w in wraps)
        attrs = (f'name="{name_of(model, "tendon", t)}" limited="{b(model.tendon_limited[t])}" '
                 f'range="{f(model.tendon_range[t])}" margin="{f(model.tendon_margin[t])}" '
                 f'actuatorfrclimited="{b(model.tendon_actfrclimited[t])}" '
                 f'actuatorfrcrange="{f(model.tendon_actfrcrange[t])}" '
                 f'stiffness="{f([model.tendon_stiffness[t], *model.tendon_stiffnesspoly[t]])}" '
                 f'damping="{f([model.tendon_damping[t], *model.tendon_dampingpoly[t]])}" '
                 f'armature="{f(model.tendon_armature[t])}" frictionloss="{f(model.tendon_frictionloss[t])}" '
                 f'springlength="{f(model.tendon_lengthspring[t])}" '
                 f'solreflimit="{f(model.tendon_solref_lim[t])}" solimplimit="{f(model.tendon_solimp_lim[t])}" '
                 f'solreffriction="{f(model.tendon_solref_fri[t])}" solimpfriction="{f(model.tendon_solimp_fri[t])}"')
        tag = "fixed" if fixed else "spatial"
        out.append(f"<{tag} {attrs}>")
        for w in wraps:
            kind, obj, prm = model.wrap_type[w], int(model.wrap_objid[w]), model.wrap_prm[w]
            if kind == WRAP_JOINT:
                out.append(f'  <joint joint="{name_of(model, "jnt", obj)}" coef="{f(prm)}"/>')
            elif kind == WRAP_SITE:
                out.append(f'  <site site="{name_of(model, "site", obj)}"/>')
            elif kind == WRAP_PULLEY:
                out.append(f'  <pulley divisor="{f(prm)}"/>')
            else:                                        # a wrapped sphere or cylinder
                side = f' sidesite="{name_of(model, "site", int(prm))}"' if prm >= 0 else ""
                out.append(f'  <geom geom="{name_of(model, "geom", obj)}"{side}/>')
        out.append(f"</{tag}>")
    return out


_TARGET = {TRN_JOINT: ("joint", "jnt"), TRN_JOINTINPARENT: ("jointinparent", "jnt"),
           TRN_TENDON: ("tendon", "tendon"), TRN_SITE: ("site", "site"), TRN_BODY: ("body", "body"),
           TRN_SLIDERCRANK: ("cranksite", "site"), TRN_SO3: ("joint", "jnt")}



def _input(model, u):
    """``input``: the actuator's controls (a PID's or DC motor's inputs; what a servo's one
    control is), when not the default."""
    spec = int(model.actuator_ctrlspec[u])
    if model.actuator_gaintype[u] == GAIN_SO3:          # an SO(3) servo's target
        return ' input="quat"' if spec == CHART_QUAT else ' input="expmap"'
    if spec == 16:
        return ' input="none"'
    names = [n for bit, n in ((1, "pos"), (2, "vel"), (4, "ff"), (8, "voltage"), (32, "pressure")) if spec & bit]
    return f' input="{" ".join(names)}"' if names else ""


def _ranges(model, u):
    """The control ranges: ``ctrlrange`` (the first control's, or a PID's position
    setpoint's), and a PID's ``velrange``/``ffrange``."""
    attributes = control_attributes(model, u)
    text = (f'ctrllimited="{b(attributes["ctrllimited"])}" ctrlrange="{f(attributes["ctrlrange"])}"')
    if model.actuator_gaintype[u] == GAIN_PID:
        text += f' velrange="{f(attributes["velrange"])}" ffrange="{f(attributes["ffrange"])}"'
    return text


def _actuators(model):
    """Every actuator as ``<general>``: transmission, gear, the three parameter vectors,
    limits, and the compiled ``lengthrange`` (so MuJoCo does not search for it again)."""
    out = []
    for u in range(model.nactuator):
        trn, (o1, o2) = int(model.actuator_trntype[u]), (int(x) for x in model.actuator_trnid[u])
        attr, kind = _TARGET[trn] if not (trn == TRN_SO3 and o2 >= 0) else ("site", "site")
        target = f'{attr}="{name_of(model, kind, o1)}"'
        if trn in (TRN_SITE, TRN_SO3) and o2 >= 0:
            target += f' refsite="{name_of(model, "site", o2)}"'
        if trn == TRN_SLIDERCRANK:
            target += f' slidersite="{name_of(model, "site", o2)}" cranklength="{f(model.actuator_cranklength[u])}"'
        out.append(
            f'<general name="{name_of(model, "actuator", u)}" {target} group="{int(model.actuator_group[u])}" '
            f'gear="{f(model.actuator_gear[model.actuator_outadr[u]])}" dyntype="{DYN_NAMES[model.actuator_dyntype[u]]}" '
            f'gaintype="{GAIN_NAMES[model.actuator_gaintype[u]]}" biastype="{BIAS_NAMES[model.actuator_biastype[u]]}" '
            f'dynprm="{f(model.actuator_dynprm[u])}" gainprm="{f(model.actuator_gainprm[u])}" '
            f'biasprm="{f(model.actuator_biasprm[u])}" actdim="{int(model.actuator_actnum[u])}" '
            f'actearly="{b(model.actuator_actearly[u])}"{_input(model, u)} '
            f'{_ranges(model, u)} '
            f'forcelimited="{b(model.actuator_forcelimited[u])}" forcerange="{f(model.actuator_forcerange[u])}" '
            f'actlimited="{b(model.actuator_actlimited[u])}" actrange="{f(model.actuator_actrange[u])}" '
            f'lengthrange="{f(model.actuator_lengthrange[model.actuator_outadr[u]])}"/>')
    return out


_ATTRIBUTE = {"site": ("site", "site"), "joint": ("joint", "jnt"), "tendon": ("tendon", "tendon"),
              "actuator": ("actuator", "actuator"), "body": ("body", "body")}


def _sensors(model):
    """Sensors of one object (or a frame, or none); a reference frame as reftype/refname."""
    out = []
    for s in range(model.nsensor):
        tag = SENSOR_NAMES[int(model.sensor_type[s])]
        attrs = f'name="{name_of(model, "sensor", s)}" noise="{f(model.sensor_noise[s])}" ' \
                f'cutoff="{f(model.sensor_cutoff[s])}"'
        if tag in SPECIAL:
            attrs += _special(model, s, tag)
            out.append(f"<{tag} {attrs}/>")
            continue
        kind, obj = SENSORS[tag].obj, int(model.sensor_objid[s])
        if kind == "frame":
            objtype = OBJ_NAMES[int(model.sensor_objtype[s])]
            attrs += f' objtype="{objtype}" objname="{name_of(model, _frame_kind(objtype), obj)}"'
        elif kind:
            attr, k = _ATTRIBUTE[kind]
            attrs += f' {attr}="{name_of(model, k, obj)}"'
        if model.sensor_refid[s] >= 0:
            reftype = OBJ_NAMES[int(model.sensor_reftype[s])]
            attrs += f' reftype="{reftype}" refname="{name_of(model, _frame_kind(reftype), int(model.sensor_refid[s]))}"'
        out.append(f"<{tag} {attrs}/>")
    return out


# the attribute naming each side of a two-object sensor, by object type
_SIDE = {"geom": "geom{}", "body": "body{}", "xbody": "subtree{}", "site": "site"}


def _special(model, s, tag):
    """The attributes of a sensor that reads two objects (``objtype``/``reftype`` sides) or
    a data layout (``sensor_intprm``: data bits, reduction, slots)."""
    objtype, reftype = OBJ_NAMES[int(model.sensor_objtype[s])], OBJ_NAMES[int(model.sensor_reftype[s])]
    obj, ref, (bits, reduce, num) = int(model.sensor_objid[s]), int(model.sensor_refid[s]), model.sensor_intprm[s]
    if tag == "insidesite":
        return (f' objtype="{objtype}" objname="{name_of(model, _frame_kind(objtype), obj)}"'
                f' site="{name_of(model, "site", ref)}"')
    if tag == "rangefinder":
        return f' {objtype}="{name_of(model, _frame_kind(objtype), obj)}" data="{_words(RAYDATA, bits)}"'
    if tag == "camprojection":
        return f' site="{name_of(model, "site", obj)}" camera="{name_of(model, "cam", ref)}"'
    out = ""
    for side, (kind, i) in enumerate(((objtype, obj), (reftype, ref)), start=1):
        if i >= 0:
            out += f' {_SIDE[kind].format(side)}="{name_of(model, _frame_kind(kind), i)}"'
    if tag == "contact":
        out += f' data="{_words(CONDATA, bits)}" reduce="{CONTACT_REDUCE[int(reduce)]}" num="{int(num)}"'
    return out


def _words(fields, bits):
    return " ".join(w for k, w in enumerate(fields) if int(bits) >> k & 1)


def _frame_kind(objtype):
    return {"xbody": "body", "camera": "cam"}.get(objtype, objtype)


def _keys(model):
    out = []
    for k in range(model.nkey):
        attrs = f'name="{name_of(model, "key", k)}" time="{f(model.key_time[k])}"'
        for field, attr in (("qpos", "qpos"), ("qvel", "qvel"), ("act", "act"), ("mpos", "mpos"),
                            ("mquat", "mquat"), ("ctrl", "ctrl")):
            values = np.asarray(getattr(model, "key_" + field)[k])
            if values.size:
                attrs += f' {attr}="{f(values)}"'
        out.append(f"<key {attrs}/>")
    return out
