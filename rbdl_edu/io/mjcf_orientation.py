"""MJCF ``<orientation>``: MuJoCo 4.0's SO(3) servo (:mod:`rbdl_edu.smooth.so3`), as
MuJoCo writes it into a general actuator, and MuJoCo's compiler checks of an SO(3) actuator
(also written as ``<general gaintype="so3" biastype="so3">``).

=============== ======================================================================
``kp``, ``kv``  ``gainprm[0] = kp``, ``biasprm[:3] = (0, -kp, -kv)`` (kp 1, kv 0 by
                default); or ``dampratio``, kept positive in ``biasprm[2]`` until the mass
                matrix is known
``input``       the target: ``expmap`` (a rotation vector, 3 controls; the default) or
                ``quat`` (a quaternion, 4 controls)
``joint``       a ball joint; or ``site`` with ``refsite``: the site's orientation in the
                reference site's frame
``forcerange``  ``[0, F]``: a bound on the torque's norm
=============== ======================================================================

Its gains come from the element and the ``<orientation>`` defaults of its class only (as a
``<pid>``'s: a ``<position kp>`` default does not set them), and the element's own ``kv``
or ``dampratio`` replaces whichever of the two its class gave.

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><worldbody><body><joint name="b" type="ball"/><geom size=".1"/></body>
...   </worldbody><actuator><orientation joint="b" kp="5" kv="2" input="quat"/></actuator></mujoco>''')
>>> m.nu, m.nout, m.actuator_biasprm[0, :3], m.actuator_ctrlspec
(4, 3, array([ 0., -5., -2.]), array([2]))
"""
from __future__ import annotations

from rbdl_edu.io.mjcf_dcmotor import input_bits
from rbdl_edu.io.xmlread import Node
from rbdl_edu.model.enums import BALL, CHART_EXPMAP, CHART_QUAT

__all__ = ["orientation_prm", "so3_input", "check_so3", "GAINS"]

#: the attributes only an <orientation> (or its class's <orientation> default) gives
GAINS = ("kp", "kv", "dampratio")


def _fill(values):
    return tuple(float(x) for x in list(values) + [0.0] * (10 - len(values)))


def orientation_prm(a, own, cls):
    """``(gainprm, biasprm)`` of an ``<orientation>`` element ``a``: its :data:`GAINS` from
    its own attributes ``own`` and its class's ``<orientation>`` defaults ``cls``."""
    given = {k: v for k, v in (cls or {}).items() if k in GAINS}
    if "kv" in own or "dampratio" in own:
        given.pop("kv", None), given.pop("dampratio", None)
    given.update({k: v for k, v in own.items() if k in GAINS})
    g = Node("orientation", given, a.file, a.line)
    if g.has("kv") and g.has("dampratio"):
        raise a.error("give kv or dampratio, not both", "dampratio")
    if g.has("dampratio") and g.float("dampratio") < 0:
        raise a.error("dampratio must not be negative", "dampratio")
    kp = g.float("kp", 1.0)
    kv = g.float("dampratio") if g.has("dampratio") else -g.float("kv", 0.0)
    return _fill([kp]), _fill([0.0, -kp, kv])


def so3_input(a):
    """An SO(3) servo's ``actuator_ctrlspec``: ``expmap`` (1, the default) or ``quat`` (2);
    MuJoCo reads the servo tokens too, as their bits (``pos`` is 1, ``vel`` 2)."""
    word = a.get("input", "").strip()
    if word in ("expmap", "quat"):
        return CHART_EXPMAP if word == "expmap" else CHART_QUAT
    spec = input_bits(a) if word != "none" else 16
    if spec not in (0, CHART_EXPMAP, CHART_QUAT):
        raise a.error("an SO(3) servo's input must be expmap or quat", "input")
    return spec or CHART_EXPMAP


def check_so3(c, a, dyn, gain, bias, trn, trnid, gainprm, biasprm, spec, forcelimited, forcerange):
    """MuJoCo's compiler rules for an SO(3) actuator (``gaintype`` or ``biastype="so3"``)."""
    if "so3" not in (gain, bias):
        return
    if gain != "so3" or bias != "so3":
        raise a.error("gaintype and biastype must both be 'so3'", "gaintype")
    if dyn not in ("none", "integrator"):
        raise a.error("so3 requires dyntype 'none' or 'integrator'", "dyntype")
    if gainprm[0] != -biasprm[1]:
        raise a.error("so3 requires gainprm[0] == -biasprm[1]", "gainprm")
    if trn == "site" and trnid[1] < 0:
        raise a.error("so3 site transmission requires refsite", "refsite")
    if trn == "joint" and c.spec.joints[trnid[0]]["type"] != BALL:
        raise a.error("so3 joint transmission requires a ball joint", "joint")
    if trn not in ("site", "joint"):
        raise a.error("so3 requires site or ball joint transmission", trn)
    if dyn == "integrator" and a.int("actdim", 3) != 3:
        raise a.error("so3 integrator requires actdim 3", "actdim")
    if spec == CHART_QUAT and dyn != "none":
        raise a.error("so3 quat input requires dyntype 'none'", "input")
    if forcelimited and forcerange[0] != 0:
        raise a.error("so3 forcerange bounds the force norm, lower bound must be 0", "forcerange")
