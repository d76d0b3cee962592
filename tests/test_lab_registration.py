"""The mouse in gymnasium's registry, seen from fresh interpreters (subprocesses, so that
nothing this test session imported helps): ``gymnasium.make`` finds ``rbdl_edu/Mouse-v0``,
``from rbdl_edu.lab import MouseEnv`` works, and ``import rbdl_edu.lab`` still works where
gymnasium (an optional dependency: the ``lab`` extra) is missing.

gymnasium 1.x loads no plugins from entry points: an id is found only once something has
registered it. ``gymnasium.make("rbdl_edu.lab:rbdl_edu/Mouse-v0")`` is gymnasium's own way of
importing the registering module first; after ``import rbdl_edu.lab`` the plain id works.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
ROOT = Path(__file__).resolve().parents[1]


def fresh(code):
    """Run ``code`` in a fresh interpreter (at the repository's root, as the tests run);
    return its standard output, or fail with its error output."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    res = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    assert res.returncode == 0, f"exit code {res.returncode}:\n{res.stdout}\n{res.stderr[-4000:]}"
    return res.stdout


def test_make_in_a_fresh_interpreter_without_importing_rbdl_edu():
    out = fresh("""
        import sys
        import gymnasium
        assert "rbdl_edu" not in sys.modules
        env = gymnasium.make("rbdl_edu.lab:rbdl_edu/Mouse-v0")
        obs, info = env.reset(seed=0)
        from rbdl_edu.lab.env import MouseEnv
        assert type(env.unwrapped) is MouseEnv and env.spec.id == "rbdl_edu/Mouse-v0"
        assert obs.shape == env.observation_space.shape and obs.size > 0, obs.shape
        obs2, *_ = gymnasium.make("rbdl_edu/Mouse-v0").reset(seed=0)   # now registered: the plain id
        assert (obs2 == obs).all()
        print("ok", obs.shape)
    """)
    assert out.startswith("ok")


def test_import_rbdl_edu_lab_registers_the_id():
    out = fresh("""
        import rbdl_edu.lab
        import gymnasium
        assert "rbdl_edu/Mouse-v0" in gymnasium.registry
        assert "rbdl_edu.lab.env" not in __import__("sys").modules     # the class: only when made
        env = gymnasium.make("rbdl_edu/Mouse-v0")
        obs, info = env.reset(seed=0)
        rbdl_edu.lab.register_envs()                                     # again: changes nothing
        print("ok", obs.shape)
    """)
    assert out.startswith("ok")


def test_mouse_env_is_exported_from_the_lab():
    out = fresh("""
        import sys
        import rbdl_edu.lab
        assert "rbdl_edu.lab.env" not in sys.modules                    # imported on first use
        from rbdl_edu.lab import MouseEnv
        from rbdl_edu.lab.env import MouseEnv as FromModule
        assert MouseEnv is FromModule
        obs, info = MouseEnv().reset(seed=0)
        print("ok", obs.shape)
    """)
    assert out.startswith("ok")


def test_the_lab_imports_without_gymnasium():
    out = fresh("""
        import sys
        sys.modules["gymnasium"] = None                                  # as if not installed
        import rbdl_edu.lab
        from rbdl_edu.lab import *                                       # noqa: F403
        assert rbdl_edu.lab.scene_path("flat").exists()
        try:
            rbdl_edu.lab.MouseEnv
        except ImportError:
            print("ok")
    """)
    assert out.strip() == "ok"


def test_gymnasium_loads_no_plugins_so_the_id_names_its_module():
    # gymnasium 0.26 to 0.29 loaded plugins from the "gymnasium.envs" entry-point group
    # (load_plugin_envs); 1.x dropped it, so a package cannot register itself at gymnasium's
    # import: in a fresh interpreter the plain id is unknown until something imports rbdl_edu.lab,
    # and the module-prefixed id is the way (this is what the lab's docs say; if a later
    # gymnasium brings plugins back, this test says so)
    out = fresh("""
        import gymnasium
        import gymnasium.envs.registration as reg
        assert not hasattr(reg, "load_plugin_envs")
        assert "rbdl_edu/Mouse-v0" not in gymnasium.registry
        try:
            gymnasium.make("rbdl_edu/Mouse-v0")
        except gymnasium.error.NamespaceNotFound as e:
            assert "rbdl_edu not found" in str(e), e
        else:
            raise AssertionError("the plain id was found without importing rbdl_edu.lab")
        env = gymnasium.make("rbdl_edu.lab:rbdl_edu/Mouse-v0", engine="mujoco", obstacle="plank")
        obs, info = env.reset(seed=0)
        assert type(env.unwrapped.engine).__name__ == "MujocoEngine" and info["scene"] == "boards"
        print("ok")
    """)
    assert out.strip() == "ok"


def test_make_vec_in_a_fresh_interpreter():
    out = fresh("""
        import sys
        import gymnasium
        import numpy as np
        vec = gymnasium.make_vec("rbdl_edu.lab:rbdl_edu/Mouse-v0", num_envs=2, vectorization_mode="async",
                                 engine="mujoco", scene=["flat", "terrain"])
        obs, infos = vec.reset(seed=1)
        obs, reward, terminated, truncated, infos = vec.step(np.zeros((2, 8), np.float32))
        vec.close()
        assert obs.shape == (2, 32) and np.all(reward > 0), reward
        print("ok", sorted(infos["scene"]))
    """)
    assert out.startswith("ok")
