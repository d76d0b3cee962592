"""Loading a model file, as MuJoCo's ``mj_loadXML`` does: read and compile it
(:mod:`rbdl_edu.io`, which imports no algorithm), compute the constants that need the
dynamics at ``qpos0`` (:func:`rbdl_edu.setconst.set_const`), then the actuator length
ranges that ``<compiler><lengthrange>`` asks for, a muscle's by default, by simulating the
model (:func:`rbdl_edu.simulation.lengthrange.set_length_ranges`). This is the one loader:
``rbd.load_model`` picks the format, ``rbd.load_mjcf`` and ``rbd.load_urdf`` name it. It
stands above the simulation, which it runs.
"""
from __future__ import annotations

import os
import re

from rbdl_edu.io.errors import ModelError, keep_sources
from rbdl_edu.io.mjcf import read_mjcf
from rbdl_edu.io.mjcf_settings import lengthrange_options
from rbdl_edu.io.urdf import read_urdf
from rbdl_edu.io.xmlread import is_xml_text, read_file
from rbdl_edu.setconst import set_const
from rbdl_edu.simulation.lengthrange import set_length_ranges


def load_model(path_or_xml_text, **kwargs):
    """Load an MJCF (``.xml``) or URDF (``.urdf``) model from a file path or XML text.

    Parameters
    ----------
    path_or_xml_text : str or os.PathLike
        A file path, or the XML itself (text starting with ``<``).
    **kwargs
        ``base_dir=`` and ``allowed_dirs=``: the folders the model may read files from
        (:func:`load_mjcf`); for a URDF also ``floating_base=True`` (a free joint on the
        root), ``package_dirs=[...]`` (where ``package://`` mesh URIs are looked for, then
        ``ROS_PACKAGE_PATH``) and ``fusestatic=True`` (links on fixed joints merged into
        their parents, as MuJoCo imports a URDF): :func:`~rbdl_edu.io.urdf.read_urdf`.

    Returns
    -------
    Model

    Raises
    ------
    ModelError
        If the model cannot be loaded; the message names file, line, element, attribute.

    >>> model = load_model('<mujoco><worldbody><body><joint/><geom size="0.1"/></body></worldbody></mujoco>')
    >>> model.nv, model.dof_M0.round(6)              # dof_M0: a constant at qpos0 (set_const)
    (1, array([0.016755]))
    >>> load_model('<robot name="r"><link name="base"/></robot>').body_names
    ('world', 'base')
    >>> load_model("models/no_such_file.xml")
    Traceback (most recent call last):
        ...
    rbdl_edu.io.errors.ModelError: models/no_such_file.xml:?: cannot read 'models/no_such_file.xml': No such file or directory
    """
    src = path_or_xml_text
    if not isinstance(src, (str, os.PathLike)):
        raise ModelError(f"expected a file path or XML text, got {type(src).__name__}")
    files = {k: kwargs.pop(k) for k in ("base_dir", "allowed_dirs") if k in kwargs}
    if is_xml_text(src):
        if _root_tag(src) == "robot":
            return load_urdf(src, **kwargs, **files)
        return load_mjcf(src, **_mjcf_only(kwargs), **files)
    path = os.fspath(src)
    # a URDF saved as .xml still says <robot> first
    if path.lower().endswith(".urdf") or _root_tag(read_file(path)) == "robot":
        return load_urdf(path, **kwargs, **files)
    return load_mjcf(path, **_mjcf_only(kwargs), **files)


def _mjcf_only(kwargs):
    """The keyword arguments, which an MJCF model must not be given a URDF option in."""
    if kwargs:
        raise TypeError(f"load_model: {sorted(kwargs)} apply to URDF files only")
    return kwargs


def _root_tag(text):
    """The name of the first element of an XML text (skipping declarations and comments)."""
    match = re.search(r"<\s*([A-Za-z_][\w.-]*)", re.sub(r"<\?.*?\?>|<!--.*?-->|<!.*?>", "", text, flags=re.S))
    return match.group(1) if match else None


def load_mjcf(source, file=None, **kwargs):
    """Load an MJCF model (file path or XML text): :func:`~rbdl_edu.io.mjcf.read_mjcf`
    (``base_dir=``, ``allowed_dirs=``), then :func:`set_const` and the length ranges."""
    return _set_const(read_mjcf(source, file, **kwargs), source, file)


def load_urdf(source, floating_base=False, file=None, **kwargs):
    """Load a URDF robot (file path or XML text): :func:`~rbdl_edu.io.urdf.read_urdf`
    (``floating_base=True`` adds a free joint to the root link; ``package_dirs=``,
    ``fusestatic=``, ``base_dir=``, ``allowed_dirs=``), then :func:`set_const` (a URDF has
    no muscles: no length range to find)."""
    return _set_const(read_urdf(source, floating_base, file, **kwargs), source, file)


def _set_const(model, source, file=None):
    """:func:`set_const`, then the length ranges (:func:`set_length_ranges`, with the
    options ``model`` was compiled with); a model they refuse (a mass matrix that is
    singular or not finite at ``qpos0``, a length range that does not settle) is a
    :class:`~rbdl_edu.io.errors.ModelError` that names the file."""
    try:
        return set_length_ranges(keep_sources(model, set_const(model)), lengthrange_options(model))
    except ModelError as e:
        if e.file is None and not is_xml_text(source):
            file = str(source)
        if e.file is None and file:
            raise ModelError(e.reason, file, e.line, e.element, e.attribute) from None
        raise
