"""Passive forces (springs, dampers, gravity compensation, fluid) against MuJoCo's
``mj_passive`` (``mujoco==4.0.0``), and the joint springs and dampers against their
potential and Rayleigh function, symbolically.

The cross-checks run MuJoCo along a trajectory (constraints off, random controls, from a
random state), and at every few steps give our stage MuJoCo's state: ``qpos``, ``qvel``,
``qacc``, and the tendon stage's ``ten_length``, ``ten_J``, ``ten_velocity`` (written in
parallel: :mod:`rbdl_edu.smooth.passive` only reads them). Our kinematics, com frames and passive
stage then run, and ``qfrc_spring``, ``qfrc_damper``, ``qfrc_gravcomp``, ``qfrc_fluid`` and
``qfrc_passive`` must equal MuJoCo's to 1e-8 (relative to the larger of 1 and MuJoCo's
largest entry). A tendon spring whose rest length is "the length at ``qpos_spring``" takes
MuJoCo's ``tendon_lengthspring`` (set_const's, once the tendon stage is there).
"""
from __future__ import annotations

import dataclasses
import re

import mujoco
import numpy as np
import pytest
import sympy as sp
from mujoco_oracle import compare_fields
from test_mjcf import GYM, MODELS

import rbdl_edu as rbd
from rbdl_edu.smooth.comframe import com_pos, com_vel_acc
from rbdl_edu.io import ModelError
from rbdl_edu.io.mjcf import read_mjcf
from rbdl_edu.kinematics import kinematics
from rbdl_edu.smooth.passive import damper_slope, joint_spring_damper, passive
from rbdl_edu.symbolic import is_identically_zero, state_symbols

TOL = 1e-8
FIELDS = ("qfrc_spring", "qfrc_damper", "qfrc_gravcomp", "qfrc_fluid", "qfrc_passive")
FLAGS = {"spring": mujoco.mjtDisableBit.mjDSBL_SPRING, "damper": mujoco.mjtDisableBit.mjDSBL_DAMPER,
         "gravity": mujoco.mjtDisableBit.mjDSBL_GRAVITY}


def dense_ten_J(m, d):
    """MuJoCo's sparse ``ten_J`` as a dense ``(ntendon, nv)`` array."""
    J = np.zeros((m.ntendon, m.nv))
    for t in range(m.ntendon):
        a, n = m.ten_J_rowadr[t], m.ten_J_rownnz[t]
        J[t, m.ten_J_colind[a:a + n]] = d.ten_J[a:a + n]
    return J


def compare_along_trajectory(source, disable=(), nstep=30, every=6, seed=0):
    """Run MuJoCo ``nstep`` steps from a random state and compare the passive forces every
    ``every`` steps; ``disable`` lists flags switched off in both. Returns the largest
    relative error of each field and the largest force MuJoCo saw."""
    m = (mujoco.MjModel.from_xml_path(str(source)) if not str(source).lstrip().startswith("<")
         else mujoco.MjModel.from_xml_string(source))
    model = rbd.load_model(source)
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    ours_flags = set(model.opt.disableflags)
    for flag in disable:
        if flag == "passive":                    # MuJoCo 4.0 has no passive flag: both its halves
            m.opt.disableflags |= FLAGS["spring"] | FLAGS["damper"]
        else:
            m.opt.disableflags |= FLAGS[flag]
        ours_flags.add(flag)
    model = model.replace(opt=dataclasses.replace(model.opt, disableflags=frozenset(ours_flags)),
                          tendon_lengthspring=m.tendon_lengthspring.copy())
    d, data = mujoco.MjData(m), rbd.Data(model)
    rng = np.random.default_rng(seed)
    d.qpos[:] = m.qpos0 + 0.3 * rng.normal(size=m.nq)
    mujoco.mj_normalizeQuat(m, d.qpos)
    d.qvel[:] = rng.normal(size=m.nv)
    worst, scale = dict.fromkeys(FIELDS, 0.0), 0.0
    for k in range(nstep + 1):
        if k % every == 0:
            mujoco.mj_forward(m, d)
            data.qpos[:], data.qvel[:], data.qacc[:] = d.qpos, d.qvel, d.qacc
            data.ten_length, data.ten_velocity = d.ten_length.copy(), d.ten_velocity.copy()
            data.ten_J = dense_ten_J(m, d)
            kinematics(model, data)
            com_pos(model, data)
            com_vel_acc(model, data)
            passive(model, data)
            for name in FIELDS:
                theirs = getattr(d, name)
                err = np.abs(getattr(data, name) - theirs).max(initial=0.0)
                worst[name] = max(worst[name], err / max(1.0, np.abs(theirs).max(initial=0.0)))
                scale = max(scale, np.abs(theirs).max(initial=0.0))
        d.ctrl[:] = rng.uniform(-1, 1, m.nu)
        mujoco.mj_step(m, d)
    return worst, scale


@pytest.mark.parametrize("path", MODELS + GYM, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_passive_matches_mujoco_on_every_model(path):
    worst, _ = compare_along_trajectory(path)
    assert max(worst.values()) <= TOL, worst


# -- small scenes, one feature each ---------------------------------------------------------------
SPRINGS = """<mujoco><option gravity="0 0 -9.81"/>
  <default><joint stiffness="3 0.5 -0.2" damping="0.4 0.1"/>
    <default class="linear"><joint stiffness="5" damping="0.7"/></default></default>
  <worldbody>
    <body pos="0 0 1"><joint name="hinge" axis="0 1 0" springref="20" stiffness="4 1 2" damping="0.3 0.2 0.1"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.05"/>
      <body pos="0.4 0 0"><joint name="slide" type="slide" axis="1 0 0" springref="0.1" class="linear"/>
        <geom size="0.07"/>
        <body pos="0 0 -0.3"><joint name="ball" type="ball" stiffness="2 0.5 1" damping="0.2 0.1 0.3"/>
          <geom type="box" size="0.1 0.05 0.03" pos="0 0 -0.1"/></body></body></body>
    <body pos="1 0 0.5"><freejoint name="free"/><geom type="ellipsoid" size="0.1 0.2 0.3"/></body>
    <body pos="-1 0 0.5"><joint type="free" stiffness="6 1 0.5" damping="0.5 0 0.2"/>
      <geom type="box" size="0.1 0.2 0.3"/></body>
  </worldbody></mujoco>"""

SPRINGDAMPER = """<mujoco>
  <worldbody>
    <body pos="0 0 1"><joint name="hinge" axis="0 1 0" springdamper="0.2 0.7" stiffness="1 0.3"
                             damping="9 0.2" armature="0.05" springref="10"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.05"/>
      <body pos="0.4 0 0"><joint type="ball" springdamper="0.3 1.2"/><geom size="0.07" pos="0.1 0 0"/></body></body>
    <body pos="1 0 0"><joint type="slide" axis="0 0 1" springdamper="0.5 0.3" armature="0.3"/>
      <joint type="slide" axis="1 0 0" springdamper="0.4 1"/><geom size="0.1"/></body>
    <body pos="-1 0 0"><joint type="free" springdamper="0.25 0.5"/><geom type="box" size="0.1 0.2 0.3"/></body>
  </worldbody></mujoco>"""

TENDONS = """<mujoco>
  <worldbody>
    <site name="anchor" pos="0 0 2"/>
    <body pos="0 0 1"><joint name="j1" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      <body pos="0.5 0 0"><joint name="j2" axis="0 1 0" springref="30"/>
        <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.04"/><site name="tip" pos="0.5 0 0"/></body></body>
    <body pos="1 1 1"><joint name="j3" type="slide" axis="0 0 1"/><geom size="0.1"/></body>
  </worldbody>
  <tendon>
    <fixed name="above" stiffness="20 5 3" damping="0.5 0.3 0.1" springlength="-0.2 0.3">
      <joint joint="j1" coef="1"/><joint joint="j2" coef="-0.5"/><joint joint="j3" coef="2"/></fixed>
    <fixed name="inside" stiffness="20 5 3" springlength="0.3 0.6">
      <joint joint="j1" coef="1"/><joint joint="j2" coef="-0.5"/><joint joint="j3" coef="2"/></fixed>
    <fixed name="below" stiffness="20 5 3" springlength="0.6 0.9">
      <joint joint="j1" coef="1"/><joint joint="j2" coef="-0.5"/><joint joint="j3" coef="2"/></fixed>
    <fixed name="at_spring" stiffness="7" damping="0.2"><joint joint="j2" coef="1"/></fixed>
    <spatial name="rope" stiffness="40" damping="1 0.5" springlength="0.9">
      <site site="anchor"/><site site="tip"/></spatial>
    <spatial name="slack" stiffness="15" springlength="0 1.2"><site site="anchor"/><site site="tip"/></spatial>
    <spatial name="pushing" stiffness="15" springlength="1.5 2"><site site="anchor"/><site site="tip"/></spatial>
  </tendon></mujoco>"""

GRAVCOMP = """<mujoco><option gravity="0.5 -1 -9.81"/>
  <worldbody>
    <body pos="0 0 1" gravcomp="1"><joint name="shoulder" axis="0 1 0" actuatorgravcomp="true"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.05"/>
      <body pos="0.4 0 0" gravcomp="0.5"><joint name="elbow" axis="0 0.6 0.8" damping="0.1"/>
        <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.04"/>
        <body pos="0.4 0 0" gravcomp="2"><joint type="ball" actuatorgravcomp="true"/>
          <geom size="0.05" pos="0.05 0 0"/></body></body></body>
    <body pos="1 0 1" gravcomp="0.7"><freejoint/><geom type="box" size="0.1 0.2 0.05"/></body>
  </worldbody></mujoco>"""

FLUID_BOX = """<mujoco><option density="1.2" viscosity="0.3" wind="1 -2 0.5"/>
  <worldbody>
    <body pos="0 0 1"><joint axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.6 0 0" size="0.05"/>
      <body pos="0.6 0 0"><joint type="ball"/><geom type="box" size="0.3 0.1 0.02" pos="0.3 0 0"/></body></body>
    <body pos="1 0 1"><freejoint/><geom type="box" size="0.2 0.1 0.05"/>
      <geom type="sphere" size="0.05" pos="0.2 0 0"/></body>
  </worldbody></mujoco>"""

FLUID_ELLIPSOID = """<mujoco><option density="1.1" viscosity="0.2" wind="-1 0.5 2"/>
  <asset><mesh name="tet" vertex="0 0 0  0.3 0 0  0 0.2 0  0 0 0.1"/></asset>
  <default><geom fluidshape="ellipsoid"/></default>
  <worldbody>
    <body pos="0 0 1"><joint axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.6 0 0" size="0.05"/>
      <body pos="0.6 0 0"><joint type="ball"/>
        <geom type="box" size="0.3 0.1 0.02" pos="0.3 0 0" fluidcoef="0.6 0.3 1.2 1.5 0.8"/>
        <geom type="sphere" size="0.02" fluidshape="none"/></body></body>
    <body pos="1 0 1"><freejoint/><geom type="ellipsoid" size="0.2 0.1 0.05"/>
      <geom type="cylinder" size="0.05 0.1" pos="0.2 0 0" fluidcoef="1 1 1 2 2"/>
      <geom type="sphere" size="0.04" pos="0 0.2 0"/></body>
    <body pos="-1 0 1"><freejoint/><geom type="mesh" mesh="tet"/></body>
    <body pos="0 1 1"><joint type="slide" axis="1 1 0"/><geom type="sphere" size="0.1" fluidshape="none"/></body>
  </worldbody></mujoco>"""

SCENES = {"springs": SPRINGS, "springdamper": SPRINGDAMPER, "tendons": TENDONS, "gravcomp": GRAVCOMP,
          "fluid_box": FLUID_BOX, "fluid_ellipsoid": FLUID_ELLIPSOID}


@pytest.mark.parametrize("name", SCENES)
def test_scene_compiles_like_mujoco(name):
    """Stiffness and damping polynomials, springdamper's stiffness and damping, the added
    mass of the ellipsoid fluid model (``geom_fluid``), ``dof_invweight0``: as MuJoCo's."""
    compare_fields(rbd.load_model(SCENES[name]), mujoco.MjModel.from_xml_string(SCENES[name]))


@pytest.mark.parametrize("name", SCENES)
def test_scene_matches_mujoco(name):
    worst, scale = compare_along_trajectory(SCENES[name])
    assert max(worst.values()) <= TOL, worst
    assert scale > 0.1                        # the scene's forces are not all zero


@pytest.mark.parametrize("flags", [("spring",), ("damper",), ("gravity",), ("spring", "damper"),
                                   ("passive",)], ids="+".join)
@pytest.mark.parametrize("name", ["springs", "tendons", "gravcomp", "fluid_ellipsoid"])
def test_flags_match_mujoco(name, flags):
    """Each switch: ``spring``/``damper`` turn their halves off (the fluid and gravity
    compensation stay unless both are off), ``gravity`` turns gravity compensation off;
    ``passive`` (not in MuJoCo 4.0) is compared with MuJoCo's spring and damper both off."""
    worst, _ = compare_along_trajectory(SCENES[name], disable=flags, nstep=12)
    assert max(worst.values()) <= TOL, worst


def test_fluid_runs_with_density_or_viscosity_alone():
    """The inertia-box model's drag needs a positive density, its viscous part a positive
    viscosity; the ellipsoid model takes both as they are; wind alone does nothing."""
    for option in ('density="2"', 'viscosity="0.5" wind="0 0 1"', 'density="0" viscosity="0" wind="1 2 3"'):
        for scene in (FLUID_BOX, FLUID_ELLIPSOID):
            xml = re.sub(r"<option [^>]*/>", f"<option {option}/>", scene)
            worst, _ = compare_along_trajectory(xml, nstep=6)
            assert max(worst.values()) <= TOL, (option, worst)


def test_gravity_compensation_without_gravity_is_zero():
    xml = GRAVCOMP.replace('gravity="0.5 -1 -9.81"', 'gravity="0 0 0"')
    worst, _ = compare_along_trajectory(xml, nstep=6)
    assert max(worst.values()) <= TOL, worst


def test_springdamper_sets_stiffness_and_damping_from_the_inertia():
    """A slider of mass 2 with springdamper (τ, ζ): k = m / (τ ζ)², b = 2 m / τ; its mass is
    1/dof_invweight0 = 2 (MuJoCo's "simple" body ignores the armature)."""
    model = rbd.load_model("""<mujoco><worldbody><body><joint type="slide" springdamper="0.5 0.25"
        armature="1"/><geom size="0.1" mass="2"/></body></worldbody></mujoco>""")
    np.testing.assert_allclose(model.dof_invweight0, [0.5])
    np.testing.assert_allclose(model.jnt_stiffness, [2 / (0.5 * 0.25) ** 2])
    np.testing.assert_allclose(model.dof_damping, [2 * 2 / 0.5])


# -- the joint spring-damper on symbols and batches -------------------------------------------------
def spring_damper_pendulum():
    """A pendulum (mass m, center of mass l below the hinge, inertia I) with a linear
    spring k resting at the angle r and a linear damper b; every parameter a symbol. Returns
    the model, and the spring potential V and Rayleigh function R in :func:`state_symbols`."""
    m, l, I, g, k, b = sp.symbols("m l I g k b", positive=True)
    r = sp.Symbol("r", real=True)
    spec = rbd.ModelSpec(gravity=[0, 0, -g])
    pole = spec.add_body(0, "pole", mass=m, ipos=[0, 0, -l], inertia=[I, I, I])
    spec.add_joint(pole, "hinge", "theta", axis=[0, 1, 0], stiffness=k, damping=b, springref=r)
    model = spec.compile()
    q, qd, _ = state_symbols(model)
    return model, k * (q[0] - r) ** 2 / 2, b * qd[0] ** 2 / 2


def spring_damper_cart_pole():
    """A cart on a slider and a pole on a hinge, both with nonlinear springs
    (:math:`k x + k_b x^2 + k_c x^3`, resting at symbolic ``springref``) and dampers
    (:math:`b v + b_c v^3`); every parameter a symbol. Returns the model, V and R."""
    mc, mp, l, I, g = sp.symbols("mc mp l I g", positive=True)
    k, kb, kc = sp.symbols("k1:3", real=True), sp.symbols("kb1:3", real=True), sp.symbols("kc1:3", real=True)
    b, bc, r = sp.symbols("b1:3", real=True), sp.symbols("bc1:3", real=True), sp.symbols("r1:3", real=True)
    spec = rbd.ModelSpec(gravity=[0, 0, -g])
    cart = spec.add_body(0, "cart", mass=mc, inertia=[0, 0, 0])
    spec.add_joint(cart, "slide", "x", axis=[1, 0, 0], stiffness=[k[0], kb[0], kc[0]],
                   damping=[b[0], 0, bc[0]], springref=r[0])
    pole = spec.add_body(cart, "pole", mass=mp, ipos=[0, 0, l], inertia=[I, I, I])
    spec.add_joint(pole, "hinge", "theta", axis=[0, 1, 0], stiffness=[k[1], kb[1], kc[1]],
                   damping=[b[1], 0, bc[1]], springref=r[1])
    model = spec.compile()
    q, qd, _ = state_symbols(model)
    # V = sum of the integrals of (k + kb s + kc s^2) s, R of (b + bc v^2) v
    V = sum(k[j] * (q[j] - r[j]) ** 2 / 2 + kb[j] * (q[j] - r[j]) ** 3 / 3 + kc[j] * (q[j] - r[j]) ** 4 / 4
            for j in range(2))
    R = sum(b[j] * qd[j] ** 2 / 2 + bc[j] * qd[j] ** 4 / 4 for j in range(2))
    return model, V, R


SYMBOLIC = {"pendulum": spring_damper_pendulum, "cart_pole": spring_damper_cart_pole}


@pytest.mark.parametrize("build", SYMBOLIC.values(), ids=SYMBOLIC.keys())
def test_spring_damper_is_minus_the_gradients_of_V_and_R(build):
    r"""τ_spring = -∂V/∂q and τ_damper = -∂R/∂q̇, exactly, with symbolic stiffness, damping
    and rest positions."""
    model, V, R = build()
    q, qd, _ = state_symbols(model)
    spring, damper = joint_spring_damper(model, q, qd)
    for i in range(model.nv):
        assert is_identically_zero(spring[i] + sp.diff(V, q[i]), q)
        assert is_identically_zero(damper[i] + sp.diff(R, qd[i]), q)
    # and the check can fail: the wrong sign is not zero
    assert not is_identically_zero(spring[0] - sp.diff(V, q[0]), q)


@pytest.mark.parametrize("build", SYMBOLIC.values(), ids=SYMBOLIC.keys())
def test_equations_of_motion_with_springs_and_dampers(build):
    r"""RNEA with the passive forces moved to the left, τ = M q̈ + c - τ_passive, equals
    Lagrange's equations with Rayleigh's dissipation:
    d/dt ∂L/∂q̇ - ∂L/∂q + ∂R/∂q̇ with L = T - V_gravity - V_spring."""
    model, V, R = build()
    q, qd, qdd = state_symbols(model)
    lagrange = rbd.symbolic.lagrangian_tau(model)
    spring, damper = joint_spring_damper(model, q, qd)
    tau = rbd.rnea(model, q, qd, qdd) - spring - damper
    for i in range(model.nv):
        assert is_identically_zero(tau[i] - (lagrange[i] + sp.diff(V, q[i]) + sp.diff(R, qd[i])), q)


def test_damper_slope_is_the_derivative_of_the_damper():
    model = rbd.load_model(SPRINGS)
    qd = np.random.default_rng(4).normal(size=model.nv)
    h = 1e-6
    for i in range(model.nv):
        e = np.eye(model.nv)[i] * h
        slope = -(joint_spring_damper(model, model.qpos0, qd + e)[1][i]
                  - joint_spring_damper(model, model.qpos0, qd - e)[1][i]) / (2 * h)
        assert abs(damper_slope(model, qd)[i] - slope) < 1e-6 * max(1, abs(slope))
    assert np.any(model.dof_dampingpoly != 0)


def test_damper_slope_is_what_mujocos_euler_integrates_implicitly():
    """MuJoCo's Euler step: (M + h diag(slope)) qacc = qfrc_smooth, qvel += h qacc."""
    m = mujoco.MjModel.from_xml_string(SPRINGS)
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    d = mujoco.MjData(m)
    d.qvel[:] = np.random.default_rng(5).normal(size=m.nv)
    mujoco.mj_forward(m, d)
    M = np.zeros((m.nv, m.nv))
    mujoco.mj_fullM(m, d, M)
    qvel, h = d.qvel.copy(), m.opt.timestep
    qacc = np.linalg.solve(M + h * np.diag(damper_slope(rbd.load_model(SPRINGS), qvel)), d.qfrc_smooth)
    mujoco.mj_step(m, d)
    np.testing.assert_allclose(d.qvel, qvel + h * qacc, rtol=0, atol=1e-12)


def test_quaternion_spring_refuses_symbols():
    model = rbd.load_model(SPRINGS)
    q = np.array(sp.symbols(f"q:{model.nq}"), dtype=object)
    with pytest.raises(ValueError, match="quaternion spring needs numbers"):
        joint_spring_damper(model, q, np.zeros(model.nv))


def test_batched_spring_damper_equals_looped():
    model = rbd.load_model(SPRINGS)
    rng = np.random.default_rng(3)
    q = model.qpos0 + 0.5 * rng.normal(size=(4, 2, model.nq))
    qd = rng.normal(size=(4, 2, model.nv))
    spring, damper = joint_spring_damper(model, q, qd)
    assert spring.shape == damper.shape == (4, 2, model.nv)
    for idx in np.ndindex(4, 2):
        s, d = joint_spring_damper(model, q[idx], qd[idx])
        np.testing.assert_allclose(spring[idx], s, rtol=1e-14, atol=1e-14)
        np.testing.assert_allclose(damper[idx], d, rtol=1e-14, atol=1e-14)
    with pytest.raises(ValueError, match="must end in nq"):
        joint_spring_damper(model, q[..., :3], qd)


# -- refused input ----------------------------------------------------------------------------------
@pytest.mark.parametrize("xml,match", [
    ('<joint springyield="0.1"/>', "springyield"),
    ('<joint springdamper="0.1 0"/>', "springdamper needs a positive"),
    ('<joint springdamper="-0.1 1"/>', "springdamper needs a positive"),
    ('<joint stiffness="-1 2"/>', "stiffness must not be negative"),
    ('<joint stiffness="1 2 3 4"/>', "stiffness takes at most 3"),
    ('<joint/><geom type="plane" size="0 0 1" fluidshape="ellipsoid"/>', "flat plane has no ellipsoid"),
])
def test_refused(xml, match):
    with pytest.raises(ModelError, match=match):
        rbd.load_model(f'<mujoco><worldbody><body>{xml}<geom size="0.1"/></body></worldbody></mujoco>')


def test_flat_world_geom_has_mujocos_nan_fluid():
    """A plane on the world with the ellipsoid fluid model (say, from a default class): NaN
    added mass, as MuJoCo computes it, and harmless (the world does not move)."""
    xml = ('<mujoco><default><geom fluidshape="ellipsoid"/></default><worldbody><geom type="plane" '
           'size="0 0 1"/><body><freejoint/><geom size="0.1"/></body></worldbody></mujoco>')
    compare_fields(rbd.load_model(xml), mujoco.MjModel.from_xml_string(xml))
    assert np.isnan(rbd.load_model(xml).geom_fluid[0, 6:]).all()


def test_tendon_spring_needs_its_rest_length():
    """A tendon spring resting at "the length at qpos_spring" (-1) needs that length, which
    set_const takes from the tendon stage (rbd.load_model runs it); a model compiled without
    it is refused rather than pulled towards -1."""
    model = rbd.load_model(TENDONS)
    assert np.all(model.tendon_lengthspring != -1)
    bare = read_mjcf(TENDONS)             # compiled only: the rest length is unknown
    for m in (model, bare):
        data = rbd.Data(m)
        kinematics(m, data)
        com_pos(m, data)
        if m is bare:
            with pytest.raises(ValueError, match="at_spring"):
                passive(m, data)
        else:
            passive(m, data)