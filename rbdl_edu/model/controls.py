r"""An actuator's controls: how many it takes and the range of each (MuJoCo 4.0's input
block, ``actuator_ctrladr``/``actuator_ctrlnum``).

Most actuators take one control. MuJoCo 4.0's ``<pid>`` takes one per input it lists
(``input``, any of ``pos vel ff`` in this order; ``pos vel`` by default), and a DC motor one
per input of ``pos vel ff voltage`` (``voltage`` by default, none with ``input="none"``),
an ``<orientation>`` servo its target orientation, a rotation vector (3, ``input="expmap"``,
the default) or a quaternion (4, ``input="quat"``).
The controls of all actuators lie one after the other in ``ctrl (nu,)``, actuator ``i``'s
from ``actuator_ctrladr[i]``, and so do their ranges, ``actuator_ctrlrange (nu, 2)``:

* every control of an actuator gets its ``ctrlrange`` (and ``ctrllimited``),
* except a PID's velocity and feedforward inputs, which take ``velrange`` and ``ffrange``,
  limited where the range is increasing (MuJoCo's ``mjCActuator::Compile``).

A spec's actuator record keeps what the file says (``ctrlspec``, ``ctrllimited``,
``ctrlrange``, ``velrange``, ``ffrange``); :func:`control_block` resolves it.

>>> rec = dict(gaintype=5, ctrlspec=0, ctrllimited=True, ctrlrange=(-1, 1), velrange=(-2, 2), ffrange=(0, 0))
>>> control_block(rec)                # a PID's default inputs: position and velocity setpoints
(3, [True, True], [(-1.0, 1.0), (-2.0, 2.0)])
"""
from __future__ import annotations

from rbdl_edu.model.enums import (CHART_EXPMAP, CHART_QUAT, DYN_PID, GAIN_DCMOTOR, GAIN_PID, GAIN_SO3, INPUT_FF,
                                  INPUT_NONE, INPUT_POS, INPUT_VEL, INPUT_VOLTAGE)

__all__ = ["control_block", "pid_states", "control_attributes"]


def _bits(spec, mask):
    """The input bits of ``spec`` in ``mask``, in MuJoCo's order (pos, vel, ff, voltage)."""
    return [b for b in (INPUT_POS, INPUT_VEL, INPUT_FF, INPUT_VOLTAGE) if spec & mask & b]


def control_block(rec):
    """``(ctrlspec, limited, ranges)`` of an actuator record: its input bits as MuJoCo
    resolves them (a PID's default ``pos vel``, a DC motor's ``voltage``) and one
    ``(limited, (lo, hi))`` pair per control, in order."""
    spec, gain = int(rec.get("ctrlspec", 0)), int(rec["gaintype"])
    ctrl = (bool(rec["ctrllimited"]), tuple(float(x) for x in rec["ctrlrange"]))
    if gain == GAIN_PID:
        spec = spec or INPUT_POS | INPUT_VEL
        own = {INPUT_POS: ctrl}
        for bit, key in ((INPUT_VEL, "velrange"), (INPUT_FF, "ffrange")):
            lo, hi = (float(x) for x in rec.get(key, (0.0, 0.0)))
            own[bit] = (lo < hi, (lo, hi))
        pairs = [own[b] for b in _bits(spec, INPUT_POS | INPUT_VEL | INPUT_FF)]
    elif gain == GAIN_DCMOTOR:
        spec = spec or INPUT_VOLTAGE
        pairs = [] if spec == INPUT_NONE else [ctrl] * len(_bits(spec, 15))
    elif gain == GAIN_SO3:               # an SO(3) servo's target: a rotation vector or a quaternion
        spec = spec or CHART_EXPMAP
        pairs = [ctrl] * (4 if spec == CHART_QUAT else 3)
    else:
        pairs = [ctrl]
    return spec, [p[0] for p in pairs], [p[1] for p in pairs]


def pid_states(rec):
    """How many states a PID's dynamics keep (MuJoCo's slot order: the slew-limited setpoint
    if ``slewmax = dynprm[1]`` > 0, the integral if ``ki = gainprm[0]`` > 0)."""
    if int(rec["dyntype"]) != DYN_PID:
        return 0
    return int(rec["dynprm"][1] > 0) + int(rec["gainprm"][0] > 0)


def control_attributes(model, i):
    """The inverse of :func:`control_block` for actuator ``i`` of a compiled model: the
    record's ``ctrllimited``, ``ctrlrange``, ``velrange``, ``ffrange`` (zeros where the model
    keeps no trace: a range no control uses)."""
    adr, n, spec = int(model.actuator_ctrladr[i]), int(model.actuator_ctrlnum[i]), int(model.actuator_ctrlspec[i])
    rows = [(bool(model.actuator_ctrllimited[adr + k]), tuple(float(x) for x in model.actuator_ctrlrange[adr + k]))
            for k in range(n)]
    out = dict(ctrllimited=False, ctrlrange=(0.0, 0.0), velrange=(0.0, 0.0), ffrange=(0.0, 0.0))
    if int(model.actuator_gaintype[i]) != GAIN_PID:
        if rows:
            out["ctrllimited"], out["ctrlrange"] = rows[0]
        return out
    for bit, row in zip(_bits(spec, INPUT_POS | INPUT_VEL | INPUT_FF), rows):
        if bit == INPUT_POS:
            out["ctrllimited"], out["ctrlrange"] = row
        else:
            out["velrange" if bit == INPUT_VEL else "ffrange"] = row[1]
    return out
