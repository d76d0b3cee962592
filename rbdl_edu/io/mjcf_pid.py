"""MJCF ``<pid>``: MuJoCo 4.0's PID servo (:mod:`rbdl_edu.smooth.pid`), as MuJoCo's
``mjs_setToPID`` writes it into a general actuator, and MuJoCo's compiler checks of a
``gaintype="pid"`` actuator (also written as ``<general>``).

=============== ======================================================================
``kp``, ``kv``  ``biasprm[:3] = (0, -kp, -kv)`` (kp 1, kv 0 by default); or ``dampratio``,
                kept positive in ``biasprm[2]`` until the mass matrix is known
``ki``          ``gainprm[0]``; with ``ki`` > 0 the integral is a state
``imax``        ``dynprm[0]`` (only with ``ki``): the integral's anti-windup bound
``slewmax``     ``dynprm[1]``: the position setpoint's rate limit, a state
``input``       its controls, a subset of ``pos vel ff`` in this order (``pos vel``)
``posrange``    the position setpoint's range (``ctrlrange`` too); ``velrange``,
                ``ffrange`` the others', limited where increasing
=============== ======================================================================

``dyntype`` is ``pid`` when the servo keeps a state, ``none`` otherwise. These attributes
come from the element and the ``<pid>`` defaults of its class only (MuJoCo 4.0: a
``<position kp>`` default does not set a PID's ``kp``), and the element's own ``kv`` or
``dampratio`` replaces whichever of the two its class gave.

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>
...   <actuator><pid joint="j" kp="5" kv="2" ki="3" velrange="-1 1"/></actuator></mujoco>''')
>>> m.nu, m.na, m.actuator_biasprm[0, :3], m.actuator_gainprm[0, 0], m.actuator_ctrllimited
(2, 1, array([ 0., -5., -2.]), np.float64(3.0), array([False,  True]))
"""
from __future__ import annotations

from rbdl_edu.io.mjcf_defaults import PID_OWN
from rbdl_edu.io.xmlread import Node

__all__ = ["pid_prm", "check_pid", "OWN"]

#: the attributes only a <pid> (or its class's <pid> default) gives
OWN = PID_OWN


def _fill(values):
    return tuple(float(x) for x in list(values) + [0.0] * (10 - len(values)))


def pid_prm(a, own=None, cls=None):
    """``(dyn, dynprm, gainprm, biasprm)`` of a ``<pid>`` element ``a`` (its attributes
    resolved); with ``own`` (the element's own attributes) and ``cls`` (its class's ``<pid>``
    defaults), :data:`OWN` is read from these two alone."""
    if own is not None:
        given = {k: v for k, v in (cls or {}).items() if k in OWN}
        if "kv" in own or "dampratio" in own:
            given.pop("kv", None), given.pop("dampratio", None)
        given.update({k: v for k, v in own.items() if k in OWN})
        a = Node("pid", given, a.file, a.line)
    kp, ki, slewmax = a.float("kp", 1.0), a.float("ki", 0.0), a.float("slewmax", 0.0)
    if slewmax < 0:
        raise a.error("slewmax cannot be negative", "slewmax")
    if a.has("kv") and a.has("dampratio"):
        raise a.error("give kv or dampratio, not both", "dampratio")
    if a.has("kv") and a.float("kv") < 0:
        raise a.error("kv cannot be negative", "kv")
    if a.has("dampratio") and a.float("dampratio") < 0:
        raise a.error("dampratio cannot be negative", "dampratio")
    kv = a.float("dampratio") if a.has("dampratio") else -a.float("kv", 0.0)
    dyn = "pid" if ki or slewmax else "none"
    imax = a.float("imax", 0.0) if ki else 0.0
    return dyn, _fill([imax, slewmax]), _fill([ki]), _fill([0.0, -kp, kv])


def check_pid(a, dyn, gain, bias, trn, spec, dynprm, gainprm):
    """MuJoCo's compiler rules for a PID actuator (and for ``dyntype="pid"``)."""
    if dyn == "pid" and gain != "pid":
        raise a.error("dyntype 'pid' requires gaintype 'pid'", "dyntype")
    if gain != "pid":
        return
    if bias != "affine":
        raise a.error("pid requires biastype 'affine'", "biastype")
    if dyn not in ("none", "pid"):
        raise a.error("pid requires dyntype 'none' or 'pid'", "dyntype")
    if dyn == "none" and gainprm[0]:
        raise a.error("ki (gainprm[0]) requires dyntype 'pid'", "gainprm")
    if trn == "body":
        raise a.error("pid cannot use body transmission", "body")
    if dyn == "pid":
        if dynprm[0] < 0:
            raise a.error("imax (dynprm[0]) must be non-negative", "dynprm")
        if dynprm[1] < 0:
            raise a.error("slewmax (dynprm[1]) must be non-negative", "dynprm")
        nslot = int(dynprm[1] > 0) + int(gainprm[0] > 0)
        if a.int("actdim", -1) > 0 and a.int("actdim") != nslot:
            raise a.error("pid controller states require matching actdim", "actdim")
        if nslot == 0:
            raise a.error("invalid actdim 0 in stateful actuator (dyntype 'pid' without ki or slewmax)", "dyntype")
        if not spec & 1:
            raise a.error("pid controller states require the pos input", "input")
