"""The pipeline and time: ``forward``, ``step``, ``inverse`` and the integrators (MuJoCo's
``engine_forward``, ``engine_inverse``, ``engine_derivative`` and ``engine_sensor``; book,
chapter 8).

==================================  =============================================================
:mod:`.fluid_derivatives`           the fluid wrench's derivative in velocity
:mod:`.velocity_derivatives`        ``qDeriv``: passive and actuator forces' slope in velocity
:mod:`.touch`                       the touch sensors, in one pass over the contacts
:mod:`.rne_post`                    subtree momenta and the wrench each body gets (``cfrc_int``)
:mod:`.sensors`                     position, velocity and acceleration sensors
:mod:`.forward`                     ``forward`` as a recipe of stages
:mod:`.accelerated`                 the recipe's smooth half compiled with JAX (optional extra)
:mod:`.integrators`                 Euler, implicitfast, RK4: one owner of each one's matrix
:mod:`.step`                        ``step`` and ``reset``; the checks for a diverging state
:mod:`.inverse`                     ``inverse``: the force that produces ``qacc``
:mod:`.rollout`                     many steps, the states and sensors as arrays over time
:mod:`.lengthrange`                 an actuator's length range, found by pushing it both ways
==================================  =============================================================
"""
