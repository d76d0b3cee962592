"""MuJoCo's default values, written once.

The MJCF compiler fills every attribute a file leaves out from here, :class:`~rbdl_edu.model.spec.ModelSpec`
uses the same values as its keyword defaults, and the colliders fall back on them for an
explicit contact pair that gives no parameters of its own. The numbers are MuJoCo's
(``mjs_default*`` in ``user_init.c``); ``tests/test_mjcf.py`` compiles elements without
attributes in both and compares.

>>> SOLREF, SOLIMP
((0.02, 1.0), (0.9, 0.95, 0.001, 0.5, 2.0))
"""
from __future__ import annotations

# constraint softness: solref = (time constant, damping ratio), solimp = (d0, dwidth, width,
# midpoint, power) -- for contacts, joint limits, friction loss, equalities and tendons alike
SOLREF = (0.02, 1.0)
SOLIMP = (0.9, 0.95, 0.001, 0.5, 2.0)

# geoms
GEOM_FRICTION = (1.0, 0.005, 0.0001)          # sliding, torsional, rolling
PAIR_FRICTION = (1.0, 1.0, 0.005, 0.0001, 0.0001)  # a <pair>: both sliding and both rolling axes
GEOM_RGBA = (0.5, 0.5, 0.5, 1.0)
GEOM_DENSITY = 1000.0                         # kg/m^3, water
GEOM_CONTYPE = 1
GEOM_CONAFFINITY = 1
GEOM_CONDIM = 3
GEOM_SOLMIX = 1.0

# sites
SITE_SIZE = (0.005, 0.005, 0.005)
SITE_RGBA = (0.5, 0.5, 0.5, 1.0)

# actuators: force = gain * ctrl + bias; gain and bias parameters as a general actuator's
ACTUATOR_GEAR = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
ACTUATOR_DYNPRM = (1.0,) + (0.0,) * 9
ACTUATOR_GAINPRM = (1.0,) + (0.0,) * 9
ACTUATOR_BIASPRM = (0.0,) * 10

# equality constraints: eq_data holds 12 numbers whose meaning depends on the type:
# joint/tendon: polycoef [0:5] (default y = x); connect: anchor [0:3] (and, at qpos0, the
# same point in the second body [3:6]); weld: anchor [0:3], relpose [3:10], torquescale
# [10], and [11] = 1 if the relative pose is to be taken at qpos0
EQ_POLYCOEF = (0.0, 1.0, 0.0, 0.0, 0.0)
WELD_RELPOSE = (0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)
EQ_DATA = EQ_POLYCOEF + (0.0,) * 5 + (1.0, 0.0)

# tendons: springlength -1 means "the length at qpos0"
TENDON_SPRINGLENGTH = (-1.0, -1.0)
