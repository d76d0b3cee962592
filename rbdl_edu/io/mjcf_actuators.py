"""MJCF ``<actuator>``: every actuator added to the spec as MuJoCo's general actuator.

Actuator shortcuts expand as MuJoCo expands them into its general actuator
``force = gain(ctrl) + bias``:

=============== ======================================================================
``motor``        ``gainprm[0] = 1``; no bias
``position``     ``gainprm[0] = kp``; ``biasprm[:3] = (0, -kp, -kv)``; ``timeconst`` > 0
                 adds a first-order filter (``dyntype="filterexact"``)
``velocity``     ``gainprm[0] = kv``; ``biasprm[:3] = (0, 0, -kv)``
``intvelocity``  an integrator (``dyntype="integrator"``) driving a position servo
``damper``       ``gaintype="affine"``, ``gainprm[:3] = (0, 0, -kv)``
``cylinder``     a pneumatic or hydraulic cylinder: ``dyntype="filter"``, ``dynprm[0] = timeconst``;
                 ``gainprm[0] = area`` (or :math:`\\pi d^2/4` from ``diameter``);
                 ``biastype="affine"``, ``biasprm[:3] = bias``
``adhesion``     ``body`` transmission, ``gainprm[0] = gain``, ``ctrllimited``, ``ctrlrange`` >= 0
``muscle``       ``dyn/gain/biastype="muscle"``; ``dynprm = (timeconst, tausmooth)``,
                 ``gainprm = biasprm = (range, force, scale, lmin, lmax, vmax, fpmax, fvmax)``
``dcmotor``      ``dyn/gain/biastype="dcmotor"``, ``actearly``; the parameters from the
                 datasheet attributes (:mod:`rbdl_edu.io.mjcf_dcmotor`)
``pid``          ``gaintype="pid"``, ``biastype="affine"``, ``biasprm[:3] = (0, -kp, -kv)``,
                 ``gainprm[0] = ki``; several controls (:mod:`rbdl_edu.io.mjcf_pid`)
``orientation``  ``gaintype`` and ``biastype="so3"``, ``gainprm[0] = kp``,
                 ``biasprm[:3] = (0, -kp, -kv)``; 3 or 4 controls, 3 force outputs
                 (:mod:`rbdl_edu.io.mjcf_orientation`)
``general``      everything written out
=============== ======================================================================

``ctrlrange``/``forcerange`` are never converted from degrees (as in MuJoCo). A
``dampratio`` is kept, positive, in ``biasprm[2]`` (as MuJoCo's compiler keeps it) and
becomes a damping in :func:`rbdl_edu.setconst.set_const`, which needs the mass matrix.

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>
...   <actuator><position joint="j" kp="20" ctrlrange="-1 1"/></actuator></mujoco>''')
>>> m.actuator_gainprm[0, 0], m.actuator_biasprm[0, :3], m.actuator_ctrllimited[0]
(np.float64(20.0), array([  0., -20.,  -0.]), np.True_)
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.io.mjcf_dcmotor import (check_controller, check_input, dcmotor_prm, dcmotor_states,
                                      inherited_limit)
from rbdl_edu.io.mjcf_defaults import ACTUATORS, SCHEMA, check_attributes
from rbdl_edu.io.mjcf_orientation import check_so3, orientation_prm, so3_input
from rbdl_edu.io.mjcf_pid import check_pid, pid_prm
from rbdl_edu.io.xmlread import located
from rbdl_edu.model import defaults as D

TRANSMISSIONS = ("joint", "jointinparent", "tendon", "site", "body")
DYNTYPES = ("none", "integrator", "filter", "filterexact", "pid", "dcmotor", "muscle", "user")
GAINTYPES = ("fixed", "affine", "muscle", "dcmotor", "pid", "so3", "user")
BIASTYPES = ("none", "affine", "muscle", "dcmotor", "so3", "user")


def _sections(c, tag):
    """The children of every top-level ``tag`` section."""
    return [n for s in c.root.children if s.tag == tag for n in s.children]


def lookup(c, node, kind, attribute, required=True):
    """The id of the ``kind`` object named by ``node``'s ``attribute`` (-1 if absent and
    not required)."""
    name = node.get(attribute)
    if name is None:
        if required:
            raise node.error(f"<{node.tag}> needs {attribute}", attribute)
        return -1
    table = c.names[kind]
    if name not in table:
        raise node.error(f"unknown {kind} {name!r}", attribute)
    return table[name]


def read_limited(c, node, flag, rng_name):
    """MuJoCo's ``*limited`` tristate. ``auto``: a range given (not all zeros) needs
    ``autolimits``, and then limits only if it is increasing (MuJoCo 4.0 leaves an empty or
    inverted range unlimited); an explicit ``true`` needs an increasing range."""
    value = node.tristate(flag)
    rng = node.floats(rng_name, 2, default=[0.0, 0.0])
    if value == "auto":
        given = node.has(rng_name) and bool(np.any(np.asarray(rng) != 0))
        if given and not c.settings.autolimits:
            raise node.error(f'{rng_name} given but {flag} is not set; set {flag} or autolimits="true"',
                             rng_name)
        value = "true" if given and rng[0] < rng[1] else "false"
    limited = value == "true"
    if limited and not rng[0] < rng[1]:
        raise node.error(f"{rng_name}[0] must be smaller than {rng_name}[1]", rng_name)
    return limited, tuple(float(x) for x in rng)


def _prm(node, name, default):
    """A 10-number parameter vector, filled from the front (``gainprm="5"``)."""
    v = np.zeros(10)
    v[:len(default)] = default
    if node.has(name):
        given = node.floats(name)
        if len(given) > 10:
            raise node.error(f"{name} takes at most 10 numbers", name)
        v[:len(given)] = given
    return tuple(float(x) for x in v)


def _inherit_range(c, a, trn, target):
    """``inheritrange="s"``: the control range is the joint's (or tendon's) range scaled by
    ``s`` about its middle."""
    scale = a.float("inheritrange")
    if trn == "joint":
        j = c.spec.joints[target]
        if not j["limited"]:
            raise a.error("inheritrange needs a joint with a range", "inheritrange")
        lo, hi = j["range"]
    else:
        raise a.error("inheritrange is only supported for joint transmissions", "inheritrange")
    mid, half = (lo + hi) / 2, scale * (hi - lo) / 2
    return (float(mid - half), float(mid + half))


def _fill(values):
    """A 10-number parameter vector starting with ``values``, the rest zero."""
    v = np.zeros(10)
    v[:len(values)] = values
    return tuple(float(x) for x in v)


def _servo_bias(a, kp):
    """A position servo's bias ``(0, -kp, -kv)``; a ``dampratio`` is kept positive in
    ``biasprm[2]``, as MuJoCo does, and becomes a damping in
    :func:`rbdl_edu.setconst.set_const` once the mass matrix is known."""
    if not a.has("dampratio"):
        return _fill([0.0, -kp, -a.float("kv", 0.0)])
    if a.has("kv"):
        raise a.error("give kv or dampratio, not both", "dampratio")
    if a.float("dampratio") < 0:
        raise a.error("dampratio must not be negative", "dampratio")
    return _fill([0.0, -kp, a.float("dampratio")])


#: MuJoCo's actuators that are not reproduced here, and why
REFUSED = {
    "plugin": "actuator plugins",
}

#: what MuJoCo writes for a muscle attribute that is not given (a negative value means: not given)
MUSCLE = {"timeconst": (0.01, 0.04), "range": (0.75, 1.05), "force": -1.0, "scale": 200.0, "lmin": 0.5,
          "lmax": 1.6, "vmax": 1.5, "fpmax": 1.3, "fvmax": 1.2}


def _muscle_prm(a):
    """A muscle's ``dynprm`` and ``gainprm`` (= ``biasprm``), as MuJoCo's ``mjs_setToMuscle``:
    a value that is not given, or negative, keeps the muscle's default."""
    def value(key, n=1):
        given = a.floats(key, n, default=[-1.0] * n)
        default = MUSCLE[key] if n > 1 else (MUSCLE[key],)
        return [g if g >= 0 else d for g, d in zip(given, default)]
    tausmooth = a.float("tausmooth", 0.0)
    if tausmooth < 0:
        raise a.error("muscle tausmooth cannot be negative", "tausmooth")
    force = a.float("force", -1.0)
    gainprm = value("range", 2) + [force if force >= 0 else -1.0] + [
        value(k)[0] for k in ("scale", "lmin", "lmax", "vmax", "fpmax", "fvmax")]
    return _fill(value("timeconst", 2) + [tausmooth]), _fill(gainprm)


def _adhesion_ctrlrange(a):
    """An adhesion's control range: required, increasing and not negative (it only pulls)."""
    lo, hi = a.floats("ctrlrange", 2, default=[0.0, 0.0])
    if lo < 0 or hi < 0:
        raise a.error("adhesion control range cannot be negative", "ctrlrange")
    if not lo < hi:
        raise a.error("an adhesion needs ctrlrange (lower < upper)", "ctrlrange")
    return (float(lo), float(hi))


def _refuse_unsupported(a, dyn, gain, bias):
    """User callbacks, extra activations and delayed controls change the physics in ways not
    reproduced here: refuse them, naming the attribute."""
    for key, value in (("dyntype", dyn), ("gaintype", gain), ("biastype", bias)):
        if value not in ("none", "integrator", "filter", "filterexact", "muscle", "dcmotor", "pid", "fixed",
                         "affine", "so3"):
            raise a.error(f'{key}="{value}" is not supported (only none/integrator/filter/filterexact/muscle/'
                          'dcmotor/pid dynamics, fixed/affine/muscle/dcmotor/pid/so3 gains and none/affine/muscle/'
                          'dcmotor/so3 biases)', key)
    if (dyn not in ("dcmotor", "pid") and gain != "so3"
            and a.int("actdim", -1) not in (-1, 0 if dyn == "none" else 1)):
        raise a.error("actdim other than one activation per stateful actuator is not supported", "actdim")
    for key in ("delay", "nsample"):
        if a.float(key, 0.0) != 0:
            raise a.error(f"delayed controls ({key}) are not supported", key)


def read_actuators(c):
    """Add the ``<actuator>`` section's actuators to the spec; returns their names -> ids."""
    c.names["actuator"] = {}
    for raw in _sections(c, "actuator"):
        if raw.tag in REFUSED:
            raise raw.error(f"<{raw.tag}> actuators are not supported: {REFUSED[raw.tag]}")
        if raw.tag not in ACTUATORS:
            raise raw.error(f"<{raw.tag}> actuators are not supported")
        check_attributes(raw)
        # one default actuator per class, shared by all kinds (keep what this kind reads)
        a = c.defaults.resolve(raw, "main", tag="actuator")
        a.attrib = {k: v for k, v in a.attrib.items() if k in SCHEMA[raw.tag]}
        given = [t for t in TRANSMISSIONS if a.has(t)] + (["slidercrank"] if a.has("cranksite") else [])
        if len(given) != 1:
            raise a.error("an actuator needs exactly one of joint, jointinparent, tendon, site, "
                          "body, cranksite")
        trn = given[0]
        cranklength = 0.0
        if trn == "slidercrank":
            # a rod of length cranklength from the crank site pushes along the slider site's z
            trnid = (lookup(c, a, "site", "cranksite"), lookup(c, a, "site", "slidersite"))
            cranklength = a.float("cranklength", 0.0)
            if not cranklength > 0:
                raise a.error("a slider-crank needs a positive cranklength", "cranklength")
        else:
            kind = {"joint": "joint", "jointinparent": "joint", "tendon": "tendon", "site": "site",
                    "body": "body"}[trn]
            trnid = (lookup(c, a, kind, trn), lookup(c, a, "site", "refsite", required=False))
        gear = np.array(D.ACTUATOR_GEAR)
        if a.has("gear"):
            g = a.floats("gear")
            if len(g) > 6:
                raise a.error("gear takes at most 6 numbers", "gear")
            gear[:len(g)] = g
        dyn, gain, bias = "none", "fixed", "none"
        dynprm, gainprm, biasprm = D.ACTUATOR_DYNPRM, D.ACTUATOR_GAINPRM, D.ACTUATOR_BIASPRM
        if raw.tag == "general":
            dyn = a.keyword("dyntype", DYNTYPES, "none")
            gain = a.keyword("gaintype", GAINTYPES, "fixed")
            bias = a.keyword("biastype", BIASTYPES, "none")
            dynprm, gainprm, biasprm = _prm(a, "dynprm", [1.0]), _prm(a, "gainprm", [1.0]), _prm(a, "biasprm", [])
        elif raw.tag == "position":
            kp, tc = a.float("kp", 1.0), a.float("timeconst", 0.0)
            gainprm, bias, biasprm = _fill([kp]), "affine", _servo_bias(a, kp)
            if tc > 0:
                dyn, dynprm = "filterexact", _fill([tc])
        elif raw.tag == "velocity":
            kv = a.float("kv", 1.0)
            gainprm, bias, biasprm = _fill([kv]), "affine", _fill([0.0, 0.0, -kv])
        elif raw.tag == "intvelocity":
            kp = a.float("kp", 1.0)
            dyn, gainprm = "integrator", _fill([kp])
            bias, biasprm = "affine", _servo_bias(a, kp)
        elif raw.tag == "damper":
            kv = a.float("kv", 0.0)
            gain, gainprm = "affine", _fill([0.0, 0.0, -kv])
            if a.get("ctrllimited", "auto") == "false" or not a.has("ctrlrange"):
                raise a.error("a damper needs ctrlrange (its control must be limited)", "ctrlrange")
        elif raw.tag == "cylinder":
            dyn, dynprm = "filter", _fill([a.float("timeconst", 1.0)])
            # force = area * pressure (the filtered control) + bias . (1, length, velocity)
            diameter = a.float("diameter", -1.0)
            gainprm = _fill([np.pi / 4 * diameter ** 2 if diameter >= 0 else a.float("area", 1.0)])
            bias, biasprm = "affine", _fill(a.floats("bias", 3, default=[0.0, 0.0, 0.0]))
        elif raw.tag == "adhesion":
            gainprm = _fill([a.float("gain", 1.0)])
        elif raw.tag == "muscle":
            dyn, gain, bias = "muscle", "muscle", "muscle"
            dynprm, gainprm = _muscle_prm(a)
            biasprm = gainprm
        elif raw.tag == "dcmotor":
            dyn = gain = bias = "dcmotor"
            dynprm, gainprm, biasprm, forcelimited, forcerange, ctrlspec = dcmotor_prm(a)
            limit = inherited_limit(a, raw.attrib, c.defaults.attrib(raw.get("class", "main"), "actuator"),
                                    lambda n: read_limited(c, n, "forcelimited", "forcerange"))
            forcelimited, forcerange = limit or (forcelimited, forcerange)
        elif raw.tag == "pid":
            gain, bias = "pid", "affine"
            own_class = c.defaults.attrib(raw.get("class", "main"), "pid")
            dyn, dynprm, gainprm, biasprm = pid_prm(a, raw.attrib, own_class)
        elif raw.tag == "orientation":
            gain = bias = "so3"
            own_class = c.defaults.attrib(raw.get("class", "main"), "orientation")
            gainprm, biasprm = orientation_prm(a, raw.attrib, own_class)
        if dyn == "dcmotor" and not (raw.tag == "dcmotor" or a.bool("actearly", False)):
            raise a.error("a DC motor needs actearly=\"true\" (as MuJoCo)", "actearly")
        _refuse_unsupported(a, dyn, gain, bias)
        if raw.tag != "dcmotor":
            # what the control means (MuJoCo's input signature; it changes the force only for a DC motor)
            ctrlspec = ({"position": 1, "velocity": 2, "intvelocity": 2}.get(raw.tag) or
                        (so3_input(a) if gain == "so3" else check_input(a, gain)))
            if gain == "dcmotor":
                check_controller(a, ctrlspec, gainprm, dynprm)
        check_pid(a, dyn, gain, bias, trn, ctrlspec, dynprm, gainprm)
        if dyn == "dcmotor" and a.has("actdim") and a.int("actdim") != dcmotor_states(dynprm, gainprm):
            raise a.error(f"a DC motor with these parameters has {dcmotor_states(dynprm, gainprm)} states "
                          "(actdim)", "actdim")
        if raw.tag == "adhesion":
            ctrllimited, ctrlrange = True, _adhesion_ctrlrange(a)
        elif raw.tag == "pid" and a.has("posrange"):        # (posrange: ctrlrange's other name)
            ctrllimited, ctrlrange = read_limited(c, a, "ctrllimited", "posrange")
        else:
            ctrllimited, ctrlrange = read_limited(c, a, "ctrllimited", "ctrlrange")
        if raw.tag != "dcmotor":
            forcelimited, forcerange = read_limited(c, a, "forcelimited", "forcerange")
        actlimited, actrange = read_limited(c, a, "actlimited", "actrange")
        check_so3(c, a, dyn, gain, bias, trn, trnid, gainprm, biasprm, ctrlspec, forcelimited, forcerange)
        if dyn == "dcmotor" and actlimited:
            raise a.error("a DC motor's states cannot be limited (actlimited)", "actlimited")
        if raw.tag in ("position", "intvelocity", "pid") and a.float("inheritrange", 0.0) > 0:
            # the joint's range becomes the setpoint's: a position servo's or PID's control, an
            # integrated-velocity servo's activation (as MuJoCo)
            inherited = "actrange" if raw.tag == "intvelocity" else "ctrlrange"
            if a.has(inherited) or a.has("posrange"):
                raise a.error(f"{inherited} and inheritrange cannot both be given", "inheritrange")
            if raw.tag != "intvelocity":
                ctrllimited, ctrlrange = True, _inherit_range(c, a, trn, trnid[0])
            else:
                actlimited, actrange = True, _inherit_range(c, a, trn, trnid[0])
        # (the loader then finds the ranges <compiler><lengthrange> asks for: rbdl_edu.simulation.lengthrange)
        lengthrange = tuple(a.floats("lengthrange", 2, default=[0.0, 0.0]))
        name = c.unique_name("actuator", a)
        with located(raw):
            k = c.spec.add_actuator(trnid[0], "so3" if gain == "so3" else trn, name, refsite=trnid[1],
                                    dyntype=dyn, gaintype=gain,
                                    biastype=bias, dynprm=dynprm, gainprm=gainprm, biasprm=biasprm,
                                    gear=gear, ctrllimited=ctrllimited, ctrlrange=ctrlrange,
                                    forcelimited=forcelimited, forcerange=forcerange,
                                    actlimited=actlimited, actrange=actrange, group=a.int("group", 0),
                                    cranklength=cranklength, actearly=raw.tag == "dcmotor" or a.bool("actearly", False),
                                    lengthrange=lengthrange, ctrlspec=ctrlspec,
                                    velrange=tuple(a.floats("velrange", 2, default=[0.0, 0.0])),
                                    ffrange=tuple(a.floats("ffrange", 2, default=[0.0, 0.0])))
        c.names["actuator"][name or f"#{k}"] = k
        c.actuator_nodes.append(raw)
    return c.names["actuator"]
