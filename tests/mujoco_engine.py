"""The MuJoCo engine of the lab, where the tests (and older scripts) import it from: it now
ships in the package, :mod:`rbdl_edu.lab.mujoco_engine`."""
from rbdl_edu.lab.mujoco_engine import MUJOCO, MujocoData, MujocoEngine, MujocoModel  # noqa: F401
