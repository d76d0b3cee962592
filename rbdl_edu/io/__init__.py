"""Reading and writing models: the MJCF and URDF compilers, and MJCF export.

``load_model`` picks the format: a ``.urdf`` file (or text whose root is ``<robot>``) is
URDF, everything else MJCF. Every failure is a :class:`ModelError` that names the file,
line, element and attribute.

>>> model = load_model('<mujoco><worldbody><body><joint/><geom size="0.1"/></body></worldbody></mujoco>')
>>> model.nv
1
"""
from __future__ import annotations

import os
import re

from .errors import ModelError
from .export import to_mjcf
from .mjcf import load_mjcf
from .urdf import load_urdf
from .xmlread import FileAccess, is_xml_text, read_file


def load_model(path_or_xml_text, **kwargs):
    """Load an MJCF (``.xml``) or URDF (``.urdf``) model from a file path or XML text.

    Parameters
    ----------
    path_or_xml_text : str or os.PathLike
        A file path, or the XML itself (text starting with ``<``).
    **kwargs
        ``base_dir=`` and ``allowed_dirs=``: the folders the model may read files from
        (:func:`load_mjcf`); ``floating_base=True`` adds a free joint to a URDF's root.

    Returns
    -------
    Model

    Raises
    ------
    ModelError
        If the model cannot be loaded; the message names file, line, element, attribute.

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


__all__ = ["FileAccess", "ModelError", "load_model", "load_mjcf", "load_urdf", "to_mjcf"]
