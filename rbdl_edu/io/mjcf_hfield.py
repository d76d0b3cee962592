"""``<asset><hfield>``: height fields from a PNG image, MuJoCo's binary format or inline
``elevation``, and the geoms that use them (``<geom type="hfield" hfield="...">``).

A height field is a grid of ``nrow x ncol`` elevations over the rectangle
``[-radius_x, radius_x] x [-radius_y, radius_y]`` of its geom's frame, with
``size = (radius_x, radius_y, elevation_z, base_z)``: the compiler normalizes the samples
to [0, 1], ``elevation_z`` scales them, and a solid base reaches ``base_z`` below 0.
The conventions are MuJoCo's, checked against its compiler:

* **row order**: row 0 of ``hfield_data`` lies at ``y = -radius_y``. The last row of a
  PNG image (its bottom) and the last row of ``elevation`` (as written in the file) become
  row 0, so the picture and the text read as a map seen from above, with +y up.
* **PNG pixels**: 8 bits per sample, as MuJoCo decodes them (with lodepng, to grey):
  a grey image's values; a colour or palette image's *red* channel; a 16-bit image's high
  byte. Alpha is ignored. Read with :mod:`PIL` (pillow).
* **binary files** (any other extension, or ``content_type="image/vnd.mujoco.hfield"``):
  ``int32 nrow, int32 ncol, float32 data[nrow * ncol]``, rows in file order.
* **normalization** in single precision, ``h = (h - min) / (max - min)``
  (:meth:`~rbdl_edu.model.spec.ModelSpec.add_hfield`).
* a height field geom takes the size ``(radius_x, radius_y, elevation_z / 4 + base_z / 2)``
  and, on a body, the mass and inertia of a box of those half-sizes (as MuJoCo).

Files are found as meshes are (``meshdir``, else ``assetdir``, relative to the model file,
and only inside the folders :class:`~rbdl_edu.io.xmlread.FileAccess` allows), and anything
unreadable is a :class:`~rbdl_edu.io.errors.ModelError` naming the element.

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><asset>
...   <hfield name="hill" nrow="2" ncol="3" size="1 0.5 0.2 0.1" elevation="0 2 0  0 1 0"/>
... </asset><worldbody><geom type="hfield" hfield="hill"/></worldbody></mujoco>''')
>>> m.hfield_data.reshape(2, 3)          # the file's last row is row 0 (y = -0.5)
array([[0. , 0.5, 0. ],
       [0. , 1. , 0. ]])
>>> m.geom_size[0], m.geom_dataid[0]
(array([1. , 0.5, 0.1]), np.int64(0))
"""
from __future__ import annotations

import io
import os

import numpy as np
from PIL import Image

from rbdl_edu.io.mjcf_defaults import check_attributes
from rbdl_edu.io.xmlread import read_bytes

PNG = "image/png"
BINARY = "image/vnd.mujoco.hfield"
MAX_SAMPLES = 4096 * 4096        # a larger grid is refused (a 64 MB PNG bomb would not fit)


def _path(compiler, node):
    """The file an ``<hfield file=...>`` names: relative to ``meshdir`` (else ``assetdir``)
    in the model's directory, as MuJoCo resolves it; it must exist, be a regular file and lie
    in a folder the model may read (:meth:`~rbdl_edu.io.xmlread.FileAccess.resolve`)."""
    s = compiler.settings
    return compiler.files.resolve(node.get("file"), node, "file", s.meshdir or s.assetdir)


def _read_png(node, path):
    """``(nrow, ncol, samples)`` of a PNG file, rows bottom (row 0) to top."""
    data = read_bytes(path, node)
    name = node.get("file")
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != "PNG":
                raise ValueError(f"not a PNG file but {image.format}")
            if image.width * image.height > MAX_SAMPLES:
                raise ValueError(f"{image.width} x {image.height} pixels is more than {MAX_SAMPLES}")
            if image.mode in ("I;16", "I;16B", "I;16L", "I"):       # 16 bits: the high byte
                pixels = np.asarray(image, dtype=np.int64) >> 8
            else:                                                   # grey is red, as lodepng
                pixels = np.asarray(image.convert("RGBA"))[..., 0]
    except ValueError as e:       # ours, above
        raise node.error(f"cannot read PNG height field {name!r}: {e}", "file") from None
    except Exception as e:        # pillow's errors for broken or foreign files are of many types
        # (their messages may quote the file: name only the kind of failure)
        raise node.error(f"cannot read PNG height field {name!r} ({type(e).__name__}): not a valid "
                         "PNG image", "file") from None
    nrow, ncol = pixels.shape
    return nrow, ncol, pixels[::-1].reshape(-1).astype(float)


def _read_binary(node, path):
    """``(nrow, ncol, samples)`` of a file in MuJoCo's format (int32 nrow, ncol; float32 data)."""
    raw = read_bytes(path, node)
    if len(raw) < 8:
        raise node.error(f"height field file {path} has no header (int32 nrow, ncol)", "file")
    nrow, ncol = (int(v) for v in np.frombuffer(raw[:8], dtype="<i4"))
    if nrow < 1 or ncol < 1 or nrow * ncol > MAX_SAMPLES or len(raw) != 8 + 4 * nrow * ncol:
        raise node.error(f"height field file {path}: a header of {nrow} x {ncol} does not match "
                         f"its {len(raw)} bytes", "file")
    data = np.frombuffer(raw[8:], dtype="<f4").astype(float)
    if not np.all(np.isfinite(data)):
        raise node.error(f"height field file {path} holds a NaN or an infinity", "file")
    return nrow, ncol, data


def _read_samples(compiler, node):
    """``(nrow, ncol, samples)`` of one ``<hfield>``: from its file, or from ``nrow``, ``ncol``
    and ``elevation`` (written top row first, so it is flipped; zeros if absent)."""
    nrow, ncol = node.int("nrow", 0), node.int("ncol", 0)
    if node.has("file"):
        if nrow or ncol or node.has("elevation"):
            raise node.error("give the elevation data by file or by nrow/ncol/elevation, not both",
                             "nrow" if nrow or ncol else "elevation")
        path = _path(compiler, node)
        kind = node.get("content_type") or (PNG if path.lower().endswith(".png") else BINARY)
        if kind not in (PNG, BINARY):
            raise node.error(f"content_type {kind!r}: only {PNG} and {BINARY} are supported",
                             "content_type")
        return (_read_png if kind == PNG else _read_binary)(node, path)
    if nrow < 1 or ncol < 1:
        raise node.error("a height field needs a file, or nrow and ncol", "nrow")
    if nrow * ncol > MAX_SAMPLES:
        raise node.error(f"nrow * ncol = {nrow * ncol} is more than {MAX_SAMPLES}", "nrow")
    if not node.has("elevation"):
        return nrow, ncol, np.zeros(nrow * ncol)
    h = node.floats("elevation")
    if len(h) != nrow * ncol:
        raise node.error(f"elevation needs nrow * ncol = {nrow * ncol} numbers, got {len(h)}", "elevation")
    return nrow, ncol, h.reshape(nrow, ncol)[::-1].reshape(-1)


def load_hfields(compiler):
    """Add every ``<asset><hfield>`` to the spec; returns a name -> id map."""
    ids = {}
    for asset in (c for c in compiler.root.children if c.tag == "asset"):
        for node in asset.children:
            if node.tag != "hfield":
                continue
            check_attributes(node)
            name = node.get("name") or os.path.splitext(os.path.basename(node.get("file", "")))[0]
            if not name:
                raise node.error("a height field needs a name (or a file to take it from)", "name")
            if name in ids:
                raise node.error(f"repeated hfield name {name!r}", "name")
            size = node.floats("size", 4)
            if size is None:
                raise node.error("a height field needs size = (radius_x, radius_y, elevation_z, base_z)", "size")
            if not np.all(size > 0):
                raise node.error("every size of a height field must be positive", "size")
            nrow, ncol, data = _read_samples(compiler, node)
            if nrow < 2 or ncol < 2:
                raise node.error(f"a height field needs at least 2 rows and 2 columns, not {nrow} x {ncol}",
                                 "file" if node.has("file") else "nrow")
            ids[name] = compiler.spec.add_hfield(name, size, nrow, ncol, data)
    return ids


def hfield_geom(compiler, g):
    """``(id, size)`` of the height field the geom element ``g`` (``type="hfield"``) names,
    with MuJoCo's geom size of it: ``(radius_x, radius_y, elevation_z / 4 + base_z / 2)``."""
    name = g.get("hfield")
    if name not in compiler.hfield_id:
        raise g.error(f"unknown hfield {name!r}" if name else "a height field geom needs hfield=", "hfield")
    k = compiler.hfield_id[name]
    radius_x, radius_y, elevation_z, base_z = compiler.spec.objects["hfield"][k]["size"]
    return k, np.array([radius_x, radius_y, 0.25 * elevation_z + 0.5 * base_z])
