"""An independent derivation: the same systems built with ``sympy.physics.mechanics``
(reference frames, points, rigid bodies, ``LagrangesMethod``) must give the same
equations of motion as our RNEA and CRBA — exactly.

Nothing here uses rbdl_edu's kinematics: frames are oriented with ``orient_axis`` and
velocities come from SymPy's own vector calculus.
"""
import numpy as np
import sympy as sp
from sympy.physics import mechanics as me

from rbdl_edu import crba, models, rnea
from rbdl_edu.symbolic import is_identically_zero, state_symbols


def _lagrange(frames_bodies, qs, g_forces):
    """Run LagrangesMethod and return (M, forcing) in plain symbols."""
    t = me.dynamicsymbols._t
    bodies = [b for _, b in frames_bodies]
    L = me.Lagrangian(frames_bodies[0][0], *bodies)
    LM = me.LagrangesMethod(L, qs, forcelist=g_forces, frame=frames_bodies[0][0])
    LM.form_lagranges_equations()
    return LM.mass_matrix, LM.forcing, t


def _to_plain(expr, qs, q, qd, qdd):
    t = me.dynamicsymbols._t
    sub = {}
    for k, qk in enumerate(qs):
        sub[qk.diff(t, 2)] = qdd[k]
        sub[qk.diff(t)] = qd[k]
        sub[qk] = q[k]
    return expr.xreplace(sub)     # one structural pass: derivatives are replaced before q(t)


def _compare(model, M_lm, f_lm, qs):
    q, qd, qdd = state_symbols(model)
    n = model.nv
    M = crba(model, q)
    tau = rnea(model, q, qd, qdd)
    for i in range(n):
        for j in range(n):
            assert is_identically_zero(M[i, j] - _to_plain(M_lm[i, j], qs, q, qd, qdd), q), (i, j)
        # LagrangesMethod: M q̈ = forcing, so τ = M q̈ − forcing
        tau_lm = sum(M_lm[i, j] * sp.Symbol("_a%d" % j) for j in range(n)) - f_lm[i]
        tau_lm = _to_plain(tau_lm, qs, q, qd, qdd).subs({sp.Symbol("_a%d" % j): qdd[j] for j in range(n)})
        assert is_identically_zero(tau[i] - tau_lm, q), i


def test_double_pendulum_matches_sympy_mechanics():
    model = models.double_pendulum(symbolic=True)
    m1, m2, l1, c1, c2, I1, I2, g = sp.symbols("m1 m2 l1 c1 c2 I1 I2 g", positive=True)
    q1, q2 = me.dynamicsymbols("th1 th2")
    N = me.ReferenceFrame("N")
    A = N.orientnew("A", "Axis", (q1, N.y))
    B = A.orientnew("B", "Axis", (q2, A.y))
    O = me.Point("O")
    O.set_vel(N, 0)
    E = O.locatenew("E", -l1 * A.z)                       # the elbow
    G1, G2 = O.locatenew("G1", -c1 * A.z), E.locatenew("G2", -c2 * B.z)
    for P, F in ((G1, A), (E, A), (G2, B)):
        P.v2pt_theory(O if P is not G2 else E, N, F)
    b1 = me.RigidBody("b1", G1, A, m1, (me.inertia(A, I1, I1, I1), G1))
    b2 = me.RigidBody("b2", G2, B, m2, (me.inertia(B, I2, I2, I2), G2))
    forces = [(G1, -m1 * g * N.z), (G2, -m2 * g * N.z)]
    M_lm, f_lm, _ = _lagrange([(N, b1), (N, b2)], [q1, q2], forces)
    _compare(model, M_lm, f_lm, [q1, q2])


def test_skew_axis_3d_arm_matches_sympy_mechanics():
    model = models.skew_arm(symbolic=True)
    g = sp.Symbol("g", positive=True)
    qs = me.dynamicsymbols("th1:4")
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    # the builder's exact axes and link directions, written out again here
    axes = [(0, 0, 1), (sp.Rational(3, 5), 0, sp.Rational(4, 5)), (0, sp.Rational(4, 5), sp.Rational(3, 5))]
    dirs = [(0, 0, 1), (1, 0, 0), (0, 1, 0)]
    parent_frame, joint_point, frames_bodies, forces = N, O, [], []
    for k in range(3):
        m, l, c = sp.symbols(f"m{k + 1} l{k + 1} c{k + 1}", positive=True)
        Ix, Iy, Iz = sp.symbols(f"I{k + 1}x I{k + 1}y I{k + 1}z", positive=True)
        ax = sum((a * e for a, e in zip(axes[k], parent_frame)), 0 * N.x)   # the axis in the parent frame
        F = parent_frame.orientnew(f"F{k}", "Axis", (qs[k], ax))
        d = sum((a * e for a, e in zip(dirs[k], F)), 0 * N.x)
        G = joint_point.locatenew(f"G{k}", c * d)
        G.v2pt_theory(joint_point, N, F)
        body = me.RigidBody(f"b{k}", G, F, m, (me.inertia(F, Ix, Iy, Iz), G))
        frames_bodies.append((N, body))
        forces.append((G, -m * g * N.z))
        nxt = joint_point.locatenew(f"J{k + 1}", l * d)
        nxt.v2pt_theory(joint_point, N, F)
        parent_frame, joint_point = F, nxt
    M_lm, f_lm, _ = _lagrange(frames_bodies, list(qs), forces)
    _compare(model, M_lm, f_lm, list(qs))


def test_oracle_catches_a_wrong_model():
    """Give the rbdl_edu side a different elbow offset: the comparison must fail."""
    model = models.double_pendulum(symbolic=True)
    q, qd, qdd = state_symbols(model)
    wrong = model.replace(body_pos=np.array([[0, 0, 0], [0, 0, 0], [0, 0, -2 * sp.Symbol("l1", positive=True)]],
                                            dtype=object))
    assert not is_identically_zero(crba(wrong, q)[0, 0] - crba(model, q)[0, 0], q)
