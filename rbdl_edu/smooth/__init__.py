"""The smooth dynamics around the core algorithms: what MuJoCo computes between the poses and
the constraint solver (``engine_core_smooth``, ``engine_passive``, the actuation of
``engine_forward``; book, chapter 8).

==========================  =====================================================================
:mod:`.comframe`            com-based frames: ``subtree_com``, ``cdof``, ``cvel``, Jacobians
:mod:`.wrap`, :mod:`.tendon`  tendon paths wrapped around spheres and cylinders; lengths, ``ten_J``
:mod:`.transmission`        actuator lengths and moment arms (joint, tendon, site, slider-crank)
:mod:`.actuation`           activation dynamics, gain and bias: ``actuator_force``, ``qfrc_actuator``
:mod:`.muscle`, :mod:`.dcmotor`  MuJoCo's muscle; MuJoCo 4.0's DC motor (winding, heat, cogging, friction)
:mod:`.fluid`               the inertia-box and ellipsoid fluid models
:mod:`.passive`             springs, dampers, gravity compensation and fluid: ``qfrc_passive``
==========================  =====================================================================
"""
