r"""Constants that depend on the dynamics at ``qpos0`` (MuJoCo's ``mj_setConst``).

The compiler (:mod:`rbdl_edu.io`) imports no algorithm, so what needs one is computed
here, after compiling, by :func:`set_const`; :func:`rbdl_edu.load_model` does both.

* ``dof_M0``: the diagonal of the mass matrix at ``qpos0``;
* a position actuator's ``dampratio`` ζ (kept positive in ``biasprm[2]`` by the compiler)
  becomes the damping :math:`k_v = 2\zeta\sqrt{k_p m}`, with the reflected inertia
  :math:`m = \sum_d M_{dd}(q_0) / g_d^2` of its joint's dofs (``g`` the gear): critical
  damping at ζ = 1, and ``biasprm[2] = -kv``.

>>> import rbdl_edu as rbd
>>> m = rbd.io.load_mjcf('''<mujoco><worldbody><body><joint name="j" axis="0 1 0"/>
...   <inertial pos="0 0 -1" mass="1" diaginertia="1 1 1"/></body></worldbody>
...   <actuator><position joint="j" kp="8" dampratio="1"/></actuator></mujoco>''')
>>> m.actuator_biasprm[0, 2], set_const(m).actuator_biasprm[0, 2]     # M = 2: kv = 2 sqrt(8 * 2)
(np.float64(1.0), np.float64(-8.0))
"""
from __future__ import annotations

import numpy as np

from .crba import crba
from .enums import BIAS_AFFINE, GAIN_FIXED, JOINT_NV, TRN_JOINT, TRN_JOINTINPARENT


def set_const(model):
    """``model`` with the constants of the module docstring filled in."""
    if model.is_symbolic or model.nv == 0:
        return model
    M0 = np.diagonal(crba(model, model.qpos0))
    return model.replace(dof_M0=M0, actuator_biasprm=_dampratio(model, M0))


def _dampratio(model, M0):
    """``actuator_biasprm`` with every position actuator's damping ratio turned into a damping."""
    biasprm = model.actuator_biasprm.copy()
    for k in range(model.nu):
        gain, bias = model.actuator_gainprm[k], biasprm[k]
        # a position servo (gain kp, bias -kp q) whose third bias number is a ratio, not -kv
        if not (model.actuator_gaintype[k] == GAIN_FIXED and model.actuator_biastype[k] == BIAS_AFFINE
                and gain[0] == -bias[1] and bias[2] > 0):
            continue
        if model.actuator_trntype[k] not in (TRN_JOINT, TRN_JOINTINPARENT):
            raise ValueError(f"actuator {model.actuator_names[k] or k}: dampratio needs a joint transmission")
        j = model.actuator_trnid[k, 0]
        adr, gear = model.jnt_dofadr[j], model.actuator_gear[k]
        mass = sum(M0[adr + d] / gear[d] ** 2 for d in range(JOINT_NV[int(model.jnt_type[j])])
                   if gear[d] ** 2 > 1e-15)
        biasprm[k, 2] = -bias[2] * 2 * np.sqrt(gain[0] * mass)
    return biasprm
