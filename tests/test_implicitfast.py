"""The ``implicitfast`` integrator against MuJoCo 4.0 on scenes written to reach every term
of its velocity derivative: a tumbling free body, free bodies and a chain in a fluid (both
fluid models, wind), nonlinear tendon damping (within a tree, across branches, across
trees), and actuators whose force depends on velocity, with every way their force can
saturate.

Along a MuJoCo trajectory, at each state: our ``qDeriv`` (:func:`smooth_vel`) equals
MuJoCo's ``mjData.qDeriv`` on its sparsity pattern (and is zero outside it), and one
``rbd.step`` equals ``mj_step`` to 1e-9. Then identities: the fluid blocks and the free
body's bias derivative are the derivatives of our own forces (finite differences), and a
tumbling body does not gain energy, as it does under Euler. Constraints are off in both
engines (the next chapter's)."""
from __future__ import annotations

import dataclasses

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.factor import to_tree_sparse
from rbdl_edu.simulation.velocity_derivatives import (free_bias_vel, free_body_joints, is_diagonal, smooth_vel,
                                                     smooth_vel_diagonal, tree_pattern)
from rbdl_edu.smooth.fluid import added_mass_wrench, inertia_box_wrench, viscous_wrench
from rbdl_edu.simulation.fluid_derivatives import ellipsoid_vel, inertia_box_vel
from rbdl_edu.simulation.accelerated import accelerate
from rbdl_edu.simulation.integrators import InertiaWarning, diagonal_qH, implicitfast_matrices, qH_entries


def both(xml, integrator="implicitfast"):
    m = mujoco.MjModel.from_xml_string(xml)
    m.opt.integrator = {"implicitfast": mujoco.mjtIntegrator.mjINT_IMPLICITFAST,
                        "Euler": mujoco.mjtIntegrator.mjINT_EULER}[integrator]
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    model = rbd.load_model(xml)
    opt = dataclasses.replace(model.opt, integrator=integrator,
                              disableflags=model.opt.disableflags | {"constraint"})
    return m, model.replace(opt=opt)


def mujoco_qDeriv(m, d):
    """MuJoCo's ``qDeriv`` as a dense matrix, NaN outside its sparsity pattern."""
    D = np.full((m.nv, m.nv), np.nan)
    for i in range(m.nv):
        adr = m.D_rowadr[i] + np.arange(m.D_rownnz[i])
        D[i, m.D_colind[adr]] = d.qDeriv[adr]
    return D


def check_along_trajectory(xml, qvel, ctrl=(), act=(), nstep=12, every=3):
    """Step MuJoCo from ``qvel``; every ``every`` steps compare qDeriv and one step."""
    m, model = both(xml)
    d = mujoco.MjData(m)
    d.qvel[:], d.ctrl[:], d.act[:] = qvel, ctrl, act
    worst = 0.0
    for k in range(nstep):
        if k % every == 0:
            data = rbd.Data(model)
            data.qpos[:], data.qvel[:], data.act[:], data.ctrl[:] = d.qpos, d.qvel, d.act, d.ctrl
            data.time = d.time
            rbd.forward(model, data)
            D = smooth_vel(model, data)
            mujoco.mj_step(m, d)                   # fills qDeriv at the state before the step
            theirs = mujoco_qDeriv(m, d)
            pattern = ~np.isnan(theirs)
            np.testing.assert_array_equal(pattern, tree_pattern(model))
            assert not np.any(D[~pattern]), "qDeriv outside M's pattern"
            scale = max(1.0, np.abs(theirs[pattern]).max(initial=0))
            assert np.abs(D[pattern] - theirs[pattern]).max(initial=0) <= 1e-10 * scale, ("qDeriv", k)
            rbd.step(model, data)
            err = max(np.abs(data.qpos - d.qpos).max(), np.abs(data.qvel - d.qvel).max(initial=0),
                      np.abs(data.act - d.act).max(initial=0))
            assert err <= 1e-9, (k, err)
            assert not data.warning
            worst = max(worst, err)
        else:
            mujoco.mj_step(m, d)
    return worst


# ---------------------------------------------------------------- free bodies, gyroscopic

TUMBLING = """<mujoco><option gravity="0 0 0" timestep="0.005"/><worldbody>
  <body name="tumbler" pos="0 0 1" euler="10 20 30"><freejoint/>
    <inertial pos=".1 -.05 .02" euler="20 30 40" mass="2" diaginertia=".1 .2 .3"/>
    <body name="welded" pos=".3 0 0"><geom type="box" size=".05 .1 .02" mass=".5"/></body></body>
  <body pos="1 0 1"><joint type="free" damping="0.3"/><geom type="capsule" size=".05 .3"/>
    <body><site size=".01"/></body></body>
</worldbody></mujoco>"""


def test_tumbling_free_bodies():
    """Two standalone free bodies (one with a massive body welded below it, one damped with a
    massless child) spinning fast near their intermediate axes: MuJoCo 4.0 re-solves each
    6x6 block with the exact derivative of its gyroscopic force."""
    assert free_body_joints(rbd.load_model(TUMBLING)) == (0, 1)
    qvel = [0.5, -0.2, 0.1, 1.0, 25.0, 2.0, 0, 0, 0, 3.0, 0.5, 20.0]
    check_along_trajectory(TUMBLING, qvel, nstep=60, every=6)


def test_free_body_with_jointed_child_is_not_standalone():
    """A free body with a hinge below it is an ordinary tree: no gyroscopic block."""
    xml = TUMBLING.replace('<body name="welded" pos=".3 0 0">', '<body name="welded" pos=".3 0 0"><joint/>')
    assert free_body_joints(rbd.load_model(xml)) == (2,)          # only the second body
    check_along_trajectory(xml, np.linspace(-3, 3, 13))


def test_free_body_driven_and_tied():
    """A free body in a fluid, pushed by a site actuator with velocity feedback and tied by
    damped tendons to the world and to another tree: its 6x6 block holds all of these
    (the tie to the other tree only on each side's diagonal block)."""
    xml = """<mujoco><option density="1.2" viscosity="0.1" wind=".5 0 1"/><worldbody><site name="w" pos="0 0 2"/>
      <body pos="0 0 1"><freejoint/><geom type="box" size=".1 .2 .3" fluidshape="ellipsoid"/>
        <site name="a" pos=".1 .1 .1"/></body>
      <body pos="1 0 1"><joint axis="0 1 0"/><geom type="capsule" size=".05 .3"/><site name="b" pos="0 0 .3"/></body>
      </worldbody>
      <tendon><spatial damping="2 1 .5"><site site="a"/><site site="b"/></spatial>
        <spatial damping="1"><site site="w"/><site site="a"/></spatial></tendon>
      <actuator><general site="a" gear="1 0 0 0 .5 0" biastype="affine" biasprm="0 0 -3"/></actuator></mujoco>"""
    check_along_trajectory(xml, np.random.default_rng(1).normal(size=7) * 5, ctrl=[1.0])


def test_tumbling_body_loses_energy_where_euler_gains_it():
    """Without forces the kinetic energy of a body tumbling under implicitfast does not grow
    (MuJoCo's documented property), while semi-implicit Euler pumps energy into it."""
    xml = """<mujoco><option gravity="0 0 0" timestep="0.01"/><worldbody><body><freejoint/>
        <inertial pos="0 0 0" euler="20 30 40" mass="2" diaginertia=".1 .2 .3"/></body></worldbody></mujoco>"""
    energy = {}
    for integrator in ("implicitfast", "Euler"):
        _, model = both(xml, integrator)
        data = rbd.Data(model)
        data.qvel[3:] = [0.1, 10.0, 0.1]
        rbd.forward(model, data)
        E = [0.5 * data.qvel @ data.qM @ data.qvel]
        for _ in range(150):
            rbd.step(model, data)
            rbd.forward(model, data)
            E.append(0.5 * data.qvel @ data.qM @ data.qvel)
        energy[integrator] = np.array(E)
    assert np.all(np.diff(energy["implicitfast"]) <= 1e-12)
    assert energy["Euler"][-1] > 1.2 * energy["Euler"][0]


def test_free_bias_vel_is_the_derivative_of_the_bias_force():
    """free_bias_vel against central differences of our own RNEA bias force in qvel."""
    _, model = both(TUMBLING)
    data = rbd.Data(model)
    data.qpos[:] = rbd.random_qpos(model, np.random.default_rng(3))
    data.qvel[:] = np.random.default_rng(4).normal(size=model.nv) * 5
    rbd.forward(model, data)

    def bias(qvel):
        return rbd.bias(model, data.qpos, qvel) - rbd.bias(model, data.qpos, np.zeros(model.nv))
    eps = 1e-6
    for j in (0, 1):
        d = slice(model.jnt_dofadr[j], model.jnt_dofadr[j] + 6)
        fd = np.array([(bias(data.qvel + eps * e) - bias(data.qvel - eps * e))[d] / (2 * eps)
                       for e in np.eye(model.nv)[d]]).T
        np.testing.assert_allclose(free_bias_vel(model, data, j), fd, atol=1e-6 * np.abs(fd).max())


# ---------------------------------------------------------------- fluid

FLUID = """<mujoco><option density="{density}" viscosity="{viscosity}" wind="{wind}">{flags}</option>
<worldbody>
  <body pos="0 0 1" euler="10 20 30"><freejoint/><geom type="box" size=".1 .2 .3" pos=".05 .02 0"/>
    <geom type="capsule" size=".05 .2" pos="0 .1 .1"/></body>
  <body pos="0 1 1"><freejoint/><geom type="ellipsoid" size=".1 .2 .05" fluidshape="ellipsoid"/>
    <body pos=".3 0 0"><geom type="cylinder" size=".05 .1" fluidshape="ellipsoid"
      fluidcoef="0.5 0.3 1.2 1.1 0.7"/></body></body>
  <body pos="1 0 2"><joint type="ball" damping=".2"/><geom type="ellipsoid" size=".1 .15 .25" pos="0 0 -.3"
      fluidshape="ellipsoid"/>
    <body pos="0 0 -.6"><joint axis="1 0 0"/><geom type="box" size=".05 .2 .1" pos="0 0 -.2"/>
      <body pos="0 0 -.4"><joint axis="0 1 0"/><geom type="sphere" size=".1" fluidshape="ellipsoid"/></body>
    </body></body>
</worldbody></mujoco>"""
FLUIDS = [(1.2, 0.0, "0 0 0", ""), (0.0, 0.3, "0 0 0", ""), (1.2, 0.3, "1 -2 0.5", ""),
          (1000.0, 0.001, "0.5 0 0", ""), (1.2, 0.3, "1 -2 0.5", '<flag damper="disable"/>'),
          (1.2, 0.3, "1 -2 0.5", '<flag spring="disable" damper="disable"/>')]


@pytest.mark.parametrize("density,viscosity,wind,flags", FLUIDS)
def test_fluid(density, viscosity, wind, flags):
    """A free body in the inertia-box model, a free body and its welded child in the
    ellipsoid model (their blocks are not symmetrized), and a ball-hinge-hinge chain mixing
    both (symmetrized): MuJoCo's fluid derivatives, with wind."""
    xml = FLUID.format(density=density, viscosity=viscosity, wind=wind, flags=flags)
    check_along_trajectory(xml, np.random.default_rng(5).normal(size=17) * 3)


def test_fluid_at_rest_in_still_fluid():
    """Zero relative velocity: the quadratic terms' guards leave the viscous part only."""
    check_along_trajectory(FLUID.format(density=1.2, viscosity=0.3, wind="0 0 0", flags=""),
                           np.zeros(17), nstep=1)


def test_fluid_blocks_are_the_derivatives_of_the_fluid_forces():
    """inertia_box_vel and ellipsoid_vel against central differences of rbdl_edu.smooth.fluid."""
    rng = np.random.default_rng(6)

    def fd(f, x, eps=1e-6):
        return np.array([(f(x + eps * e) - f(x - eps * e)) / (2 * eps) for e in np.eye(6)]).T
    for _ in range(5):
        vel, density, viscosity = rng.normal(size=6) * 2, 1.3, 0.2
        box = rng.uniform(0.1, 1.0, 3)
        np.testing.assert_allclose(inertia_box_vel(vel, box, density, viscosity),
                                   fd(lambda x: inertia_box_wrench(x, box, density, viscosity), vel), atol=1e-7)
        r, fluid = rng.uniform(0.1, 1.0, 3), np.concatenate([[1.0], rng.uniform(0, 2, 5), rng.uniform(0, 1, 6)])

        def wrench(x):
            return (added_mass_wrench(x, density, fluid[6:9], fluid[9:12])
                    + viscous_wrench(x, density, viscosity, r, *fluid[1:6]))
        np.testing.assert_allclose(ellipsoid_vel(vel, density, viscosity, r, fluid), fd(wrench, vel), atol=1e-7)


# ---------------------------------------------------------------- tendons and actuators

ARM = """<mujoco><option>{flags}</option><worldbody>
<body><joint name="j" axis="0 1 0" {jattr}/><geom size=".1" pos="0 0 -.5"/><site name="s0" pos=".1 0 -.2"/>
  <body pos="0 0 -1"><joint name="k" axis="1 0 0"/><geom size=".1" pos="0 0 -.5"/>
    <site name="s1" pos="0 .1 -.8"/></body>
  <body pos=".3 0 -.2"><joint name="c" axis="0 0 1"/><geom size=".1" pos=".2 0 0"/><site name="s3" pos=".3 0 0"/></body>
</body>
<body pos="1 0 0"><joint name="b" type="slide" axis="0 0 1"/><geom size=".1"/><site name="s2" pos="0 0 -.3"/></body>
<site name="w0" pos="0 0 .5"/>
</worldbody>
<tendon>
  <fixed name="t" damping="1.5 0.7 0.4" {tattr}><joint joint="j" coef="1"/><joint joint="k" coef="0.5"/></fixed>
  <spatial name="sp" damping="0.4 0.3 0.2"><site site="s0"/><site site="s1"/></spatial>
  <spatial name="branches" damping="0.7 1 2"><site site="s1"/><site site="s3"/></spatial>
  <spatial name="trees" damping="0.2 0.5 3"><site site="s1"/><site site="s2"/></spatial>
</tendon>
<actuator>{actuators}</actuator></mujoco>"""
BIAS = 'biastype="affine" biasprm="0.1 -0.3 -1"'
ACTUATORS = {
    "tendon damping only": ("", "", "", [], []),
    "affine gain and bias, ctrl clamped": (
        f'<general joint="j" gaintype="affine" gainprm="1 0.2 2" ctrlrange="-1 1" {BIAS}/>'
        '<general joint="k" gaintype="affine" gainprm="1 0 -2" ctrlrange="-.5 .5"/>'
        '<position joint="c" kp="20" kv="3"/><velocity joint="b" kv="2"/>'
        '<damper joint="k" kv="5" ctrlrange="0 2"/>', "", "", [3.0, -2.0, 0.3, 1.0, 1.5], []),
    "activation dynamics, actearly": (
        '<general joint="j" dyntype="filter" dynprm="0.05" gaintype="affine" gainprm="1 0 2" actearly="true"/>'
        '<general joint="k" dyntype="filterexact" dynprm="0.05" gaintype="affine" gainprm="1 0 2" actearly="true"/>'
        '<general joint="b" dyntype="integrator" gaintype="affine" gainprm="1 0 -3" actearly="true" actrange="-1 1"/>'
        '<intvelocity joint="c" kp="10" kv="1" actrange="-1 1"/>', "", "", [1, -1, 2, 0.4], [0.3, 0.1, 0.99, 0.2]),
    "forcerange": (f'<general joint="j" forcerange="-0.5 0.5" {BIAS}/><general joint="k" forcerange="-5 5" {BIAS}/>',
                   "", "", [3.0, 1.0], []),
    "joint actuatorfrcrange": (f'<general joint="j" {BIAS}/><general tendon="t" {BIAS}/>',
                               'actuatorfrcrange="-1 0.5"', "", [3.0, 1.0], []),
    "tendon actuatorfrcrange": (f'<general tendon="t" {BIAS}/><general tendon="t" {BIAS}/>'
                                f'<general tendon="sp" {BIAS}/>',
                                "", 'actuatorfrcrange="-1 0.5"', [3.0, 1.0, 0.5], []),
    "site, slider-crank, tendon across trees": (
        f'<general site="s1" refsite="w0" gear="0 1 0 0 0 .5" {BIAS}/>'
        f'<general cranksite="s2" slidersite="w0" cranklength="1.2" {BIAS}/><general tendon="trees" {BIAS}/>',
        "", "", [1.0, 1.0, 1.0], []),
}


@pytest.mark.parametrize("case", ACTUATORS, ids=str)
@pytest.mark.parametrize("flags", ["", '<flag clampctrl="disable"/>', '<flag actuation="disable"/>',
                                   '<flag damper="disable"/>'])
def test_tendons_and_actuators(case, flags):
    """Nonlinear tendon damping (MuJoCo keeps only M's pattern: a tendon across branches or
    trees damps each branch, not their coupling) and actuators with velocity terms: MuJoCo
    4.0 takes the gain at the clamped control (or the activation, the next one with
    actearly) and drops an actuator whose force is saturated by its forcerange, by its
    joint's or tendon's actuatorfrcrange."""
    actuators, jattr, tattr, ctrl, act = ACTUATORS[case]
    xml = ARM.format(flags=flags, jattr=jattr, tattr=tattr, actuators=actuators)
    check_along_trajectory(xml, np.random.default_rng(7).normal(size=4) * 2, ctrl, act)


@pytest.mark.parametrize("fast", [False, True])
def test_indefinite_modified_mass_matrix(fast):
    """A strong anti-damper on a light link makes M - hD indefinite: like MuJoCo 4.0 the
    factor raises the pivot to 1e-15, records a warning, and the step that follows (its
    huge velocity) resets the state and goes on from there, as MuJoCo's. Accelerated, the
    factor comes from the compiled smooth half and the warning is the same."""
    xml = """<mujoco><worldbody><body><joint name="j" axis="0 1 0"/><geom size=".1" mass="1"/>
        <body pos="0 0 -1"><joint name="k" axis="0 1 0"/><geom size=".1" mass="1"/></body></body></worldbody>
        <actuator><general joint="k" biastype="affine" biasprm="0 0 100"/></actuator></mujoco>"""
    m, model = both(xml)
    model = accelerate(model) if fast else model
    d, data = mujoco.MjData(m), rbd.Data(model)
    d.qvel[:] = data.qvel[:] = [0.1, 1.0]
    mujoco.mj_step(m, d)
    rbd.step(model, data)
    assert d.warning[mujoco.mjtWarning.mjWARN_INERTIA].number == 1
    np.testing.assert_allclose(data.qvel, d.qvel, rtol=1e-9)
    assert data.warning["inertia"].number == 1
    assert isinstance(data.warning["inertia"].last, InertiaWarning) and data.warning["inertia"].last.index == 1
    mujoco.mj_step(m, d)
    with pytest.warns(rbd.simulation.step.DivergenceWarning, match="qpos"):
        rbd.step(model, data)
    assert list(data.warning) == ["inertia", "qpos"] and data.warning["qpos"].number == 1
    assert data.time == d.time == m.opt.timestep                  # reset to 0, then one step
    np.testing.assert_allclose(data.qpos, d.qpos, atol=1e-12)
    np.testing.assert_allclose(data.qvel, d.qvel, rtol=1e-9, atol=1e-12)


DIAGONAL = ["affine gain and bias, ctrl clamped", "activation dynamics, actearly", "forcerange"]


@pytest.mark.parametrize("case", DIAGONAL, ids=str)
@pytest.mark.parametrize("flags", ["", '<flag actuation="disable"/>', '<flag damper="disable"/>'])
def test_diagonal_derivatives(case, flags):
    """Without tendons, with every actuator on a hinge or slide and no fluid, ``qDeriv`` is
    diagonal and implicitfast assembles :math:`M - hD` from M's entries and that diagonal
    (no dense matrices): the same numbers as the dense assembly, and MuJoCo's step."""
    actuators, _, _, ctrl, act = ACTUATORS[case]
    xml = ARM.format(flags=flags, jattr='damping="1.5 0.7 0.4"', tattr="", actuators=actuators)
    xml = xml[:xml.index("<tendon>")] + xml[xml.index("</tendon>") + len("</tendon>"):]
    check_along_trajectory(xml, np.random.default_rng(8).normal(size=4) * 2, ctrl, act)
    _, model = both(xml)
    assert diagonal_qH(model) and np.any(model.dof_dampingpoly)
    data = rbd.Data(model)
    data.qvel[:], data.ctrl[:], data.act[:] = np.random.default_rng(9).normal(size=4) * 2, ctrl, act
    rbd.forward(model, data)
    D = smooth_vel(model, data)
    np.testing.assert_array_equal(D, np.diag(smooth_vel_diagonal(model, data)))
    np.testing.assert_array_equal(qH_entries(model, data), to_tree_sparse(model, implicitfast_matrices(model, data)[0]))
    assert not is_diagonal(both(ARM.format(flags="", jattr="", tattr="", actuators=""))[1])   # tendon dampers
