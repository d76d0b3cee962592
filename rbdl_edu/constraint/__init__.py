"""Constraints: from contacts, limits, friction loss and equalities to the forces that hold them
(MuJoCo's ``engine_core_constraint``, ``engine_solver`` and ``engine_island``; book, chapter 10).

=====================  ==========================================================================
:mod:`.rows`           the ``efc_*`` rows: Jacobians, distances, friction
:mod:`.blocks`         the one walk over the rows, constraint by constraint (a block of rows each)
:mod:`.impedance`      ``solref``/``solimp``: impedance, stiffness, damping, the reference ``aref``
:mod:`.island`         the islands: trees coupled by constraints, solved apart
:mod:`.state`          the solver's state (a dataclass with every field's shape) and its statistics
:mod:`.cost`           the convex cost :math:`s(x)`: each row's zone, force and the cone blocks
:mod:`.pgs`            projected Gauss-Seidel on the dual
:mod:`.primal`         CG and Newton on the primal, with their exact line search
:mod:`.noslip`         NoSlip: hard friction after the main solver
:mod:`.solver`         the dispatcher: ``fwd_constraint`` (``qacc``, ``efc_force``, ``qfrc_constraint``)
=====================  ==========================================================================
"""
