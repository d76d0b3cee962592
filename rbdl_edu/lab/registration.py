"""The mouse's id in ``gymnasium``'s registry: :func:`register_envs` registers
``"rbdl_edu/Mouse-v0"`` (entry point ``rbdl_edu.lab.env:MouseEnv``, imported only when an
environment is made).

``import rbdl_edu.lab`` calls it when ``gymnasium`` is installed, so after that import
``gymnasium.make("rbdl_edu/Mouse-v0")`` works. In a fresh interpreter, without importing
rbdl_edu first, name the module in the id, gymnasium's way of loading a registration::

    gymnasium.make("rbdl_edu.lab:rbdl_edu/Mouse-v0", engine="mujoco")
    gymnasium.make_vec("rbdl_edu.lab:rbdl_edu/Mouse-v0", num_envs=4, vectorization_mode="async")

Why not a package entry point? gymnasium 0.26 to 0.29 read plugins from the
``gymnasium.envs`` entry-point group at import (``load_plugin_envs``); gymnasium 1.x (1.4.0 is
pinned) dropped that, and finds an id only in its registry, so nothing a package declares
registers it before it is imported (``tests/test_lab_registration.py`` checks both facts).

This module imports nothing of rbdl_edu and imports ``gymnasium`` only when called.
"""
from __future__ import annotations

#: the id under which ``gymnasium.make`` finds the environment
ENV_ID = "rbdl_edu/Mouse-v0"
#: where gymnasium finds the environment's class when one is made
ENTRY_POINT = "rbdl_edu.lab.env:MouseEnv"


def register_envs():
    """Register :data:`ENV_ID` with gymnasium (once: calling it again changes nothing)."""
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=ENTRY_POINT)
