"""Height field assets (``<asset><hfield>``) and hfield geoms, against MuJoCo 4.0.0's compiler.

Every model here is compiled by both, and every typed field compared
(:func:`mujoco_oracle.compare_fields`: ``nhfield``, ``nhfielddata``, ``hfield_size``,
``hfield_nrow``, ``hfield_ncol``, ``hfield_adr``, ``hfield_data`` bit for bit in single
precision, ``hfield_names``, ``geom_dataid``, ``geom_size``, the bodies' masses, ...), plus
the bounding volumes MuJoCo's compiler stores (``geom_rbound``, ``geom_aabb``), which ours
computes in :mod:`rbdl_edu.collision.geometry`.

PNG files of every colour type and bit depth are written here, so the conventions MuJoCo
follows (row order, grey = red channel, 16 bits = high byte) are pinned by its binary.
"""
from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

import mujoco
import numpy as np
import pytest
from mujoco_oracle import compare_fields
from PIL import Image

import rbdl_edu as rbd
from rbdl_edu.collision.geometry import geom_aabb, geom_rbound
from rbdl_edu.io import ModelError

ROOT = Path(__file__).resolve().parents[1]
ELEV = " ".join(str(v) for v in range(12))


def both(xml_or_path):
    """Our model and MuJoCo's, compiled from the same text or file, compared field by field."""
    model = rbd.load_model(xml_or_path)
    m = (mujoco.MjModel.from_xml_string(xml_or_path) if str(xml_or_path).lstrip().startswith("<")
         else mujoco.MjModel.from_xml_path(str(xml_or_path)))
    compare_fields(model, m)
    np.testing.assert_allclose(geom_rbound(model), m.geom_rbound, rtol=0, atol=1e-12)
    np.testing.assert_allclose(geom_aabb(model), m.geom_aabb, rtol=0, atol=1e-12)
    return model, m


SCENES = {
    "inline": f"""<mujoco><asset>
        <hfield name="h" nrow="3" ncol="4" size="2 1 0.5 0.1" elevation="{ELEV}"/></asset>
        <worldbody><geom name="t" type="hfield" hfield="h" pos="0.1 0.2 0.3" euler="10 20 30"/>
        <body pos="0 0 1"><freejoint/><geom size="0.2"/></body></worldbody></mujoco>""",
    "zeros_and_constant": """<mujoco><asset>
        <hfield name="flat" nrow="2" ncol="5" size="1 1 1 1"/>
        <hfield name="level" nrow="3" ncol="2" size="1 2 0.3 0.2" elevation="7 7 7 7 7 7"/></asset>
        <worldbody><geom type="hfield" hfield="flat"/><geom type="hfield" hfield="level" pos="3 0 0"/>
        </worldbody></mujoco>""",
    # a height field on bodies weighs as the box of its geom size, as in MuJoCo (which lets
    # it sit on a free body too)
    "on_bodies": f"""<mujoco><asset>
        <hfield name="h" nrow="3" ncol="4" size="2 1 0.5 0.1" elevation="{ELEV}"/>
        <hfield name="g" nrow="2" ncol="2" size="0.3 0.2 0.1 0.05" elevation="0 1 2 3"/></asset>
        <worldbody><body pos="1 0 0" euler="0 0 30"><geom type="hfield" hfield="h" density="10"/></body>
        <body pos="0 0 1"><freejoint/><geom type="sphere" size="0.2"/>
          <geom type="hfield" hfield="g" pos="0 0 -0.3" mass="2"/></body>
        <frame pos="0 1 0" euler="0 0 90"><geom type="hfield" hfield="g"/></frame></worldbody></mujoco>""",
    "default_class": f"""<mujoco><default><default class="ground">
          <geom type="hfield" hfield="h" friction="0.5" condim="4"/></default></default>
        <asset><hfield name="h" nrow="3" ncol="4" size="2 1 0.5 0.1" elevation="{ELEV}"/></asset>
        <worldbody><geom name="terrain" class="ground"/>
        <body><freejoint/><geom type="sphere" size="0.1"/></body></worldbody></mujoco>""",
}


@pytest.mark.parametrize("name", SCENES)
def test_scenes_match_mujoco(name):
    model, m = both(SCENES[name])
    assert model.nhfield >= 1 and np.all(model.geom_dataid[model.geom_type == rbd.model.enums.HFIELD] >= 0)


def test_rows_bottom_to_top():
    """``elevation`` is written top row (``y = +radius_y``) first; ``hfield_data`` stores row 0
    at ``y = -radius_y``: the last written row comes first. Values become (h - min)/(max - min)."""
    model, _ = both(SCENES["inline"])
    data = model.hfield_data.reshape(3, 4)
    np.testing.assert_allclose(data, (np.arange(12.0).reshape(3, 4)[::-1]) / 11, atol=1e-7)
    assert data.dtype == float and np.all(data.astype(np.float32) == data)     # single precision
    x, y, z = rbd.collision.hfield.hfield_grid(model, 0)
    np.testing.assert_allclose(x, [-2, -2 / 3, 2 / 3, 2], atol=1e-15)
    np.testing.assert_allclose(y, [-1, 0, 1])
    np.testing.assert_allclose(z[0], 0.5 * np.array([8, 9, 10, 11]) / 11, atol=1e-7)  # the last row written


def test_geom_size_and_mass():
    """An hfield geom's size is ``(radius_x, radius_y, elevation_z/4 + base_z/2)``; on a body it
    weighs as a box of those half-sizes (checked by ``both`` against MuJoCo; here the numbers)."""
    model, _ = both(SCENES["on_bodies"])
    g = int(np.flatnonzero(model.geom_bodyid == 1)[0])
    np.testing.assert_allclose(model.geom_size[g], [2, 1, 0.175])
    assert np.isclose(model.body_mass[1], 10 * 8 * 2 * 1 * 0.175)


# -- files -----------------------------------------------------------------------------------------
def write_png16(path, pixels, colortype):
    """A 16-bit PNG (pillow writes only 8-bit colour), ``pixels (h, w, channels)``."""
    h, w = pixels.shape[:2]
    raw = b"".join(b"\x00" + pixels[r].astype(">u2").tobytes() for r in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, colortype, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def png_files(folder):
    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, (5, 7, 3), dtype=np.uint8)
    images = {"grey": Image.fromarray(rgb[..., 0], "L"), "rgb": Image.fromarray(rgb, "RGB"),
              "rgba": Image.fromarray(np.dstack([rgb, rgb[..., :1]]), "RGBA"),
              "palette": Image.fromarray(rgb, "RGB").convert("P", palette=Image.ADAPTIVE, colors=16),
              "grey_alpha": Image.fromarray(np.dstack([rgb[..., 1], rgb[..., 2]]), "LA"),
              "bits": Image.fromarray(rgb[..., 0] > 128).convert("1"),
              "grey16": Image.fromarray(rng.integers(0, 65536, (4, 6)).astype(np.uint16))}
    for name, image in images.items():
        image.save(folder / f"{name}.png")
    write_png16(folder / "rgb16.png", rng.integers(0, 65536, (4, 6, 3)), 2)
    write_png16(folder / "grey_alpha16.png", rng.integers(0, 65536, (4, 6, 2)), 4)
    # MuJoCo's own binary format: int32 nrow, ncol, then float32 samples
    (folder / "custom.bin").write_bytes(np.array([3, 4], "<i4").tobytes()
                                        + rng.normal(size=12).astype("<f4").tobytes())
    return sorted(p.name for p in folder.iterdir())


def test_png_and_binary_files_match_mujoco(tmp_path):
    """Every PNG colour type and depth, and the binary format, read from ``meshdir``."""
    (tmp_path / "terrain").mkdir()
    files = png_files(tmp_path / "terrain")
    assets = "".join(f'<hfield file="{f}" size="1 2 0.5 0.25"/>' for f in files)
    geoms = "".join(f'<geom type="hfield" hfield="{f.split(".")[0]}" pos="{3 * k} 0 0"/>' for k, f in enumerate(files))
    path = tmp_path / "model.xml"
    path.write_text(f'<mujoco><compiler meshdir="terrain"/><asset>{assets}</asset>'
                    f'<worldbody>{geoms}</worldbody></mujoco>')
    model, _ = both(path)
    assert model.nhfield == len(files) == 10
    # assetdir works as well when there is no meshdir, as for meshes
    path.write_text(path.read_text().replace("meshdir", "assetdir"))
    both(path)


def test_png_conventions_by_hand(tmp_path):
    """What the comparison above pins, on a 2 x 3 colour image: the bottom image row is row 0,
    a colour pixel's height is its red channel."""
    red = np.array([[0, 50, 100], [150, 200, 250]], dtype=np.uint8)
    Image.fromarray(np.dstack([red, 255 - red, red // 2]), "RGB").save(tmp_path / "map.png")
    model = rbd.load_model(f'<mujoco><asset><hfield file="{tmp_path / "map.png"}" size="1 1 1 1"/>'
                           '</asset></mujoco>', allowed_dirs=[tmp_path])
    assert model.hfield_names == ("map",)                 # the name from the file
    np.testing.assert_allclose(model.hfield_data, np.float32([[150, 200, 250], [0, 50, 100]]).ravel() / 250,
                               rtol=0, atol=1e-7)


def test_terrain_model_matches_mujoco():
    model, m = both(str(ROOT / "models" / "terrain_hfield.xml"))
    assert (model.hfield_nrow[0], model.hfield_ncol[0]) == (21, 21)


# -- what is refused --------------------------------------------------------------------------------
def hfield(attrs):
    return f'<mujoco><asset><hfield name="h" {attrs}/></asset></mujoco>'


REFUSED = {  # xml, attribute named, part of the message, and does MuJoCo refuse it too?
    "size_missing": (hfield('nrow="2" ncol="2"'), "size", "needs size", True),
    "size_short": (hfield('nrow="2" ncol="2" size="1 1 1"'), "size", "needs 4 numbers", True),
    "size_zero": (hfield('nrow="2" ncol="2" size="1 1 1 0"'), "size", "positive", True),
    "one_row": (hfield('nrow="1" ncol="4" size="1 1 1 1"'), "nrow", "at least 2", True),
    "no_data": (hfield('size="1 1 1 1"'), "nrow", "needs a file", True),
    "elevation_without_grid": (hfield('size="1 1 1 1" elevation="1 2 3 4"'), "nrow", "needs a file", True),
    "elevation_length": (hfield('nrow="2" ncol="2" size="1 1 1 1" elevation="1 2 3"'), "elevation",
                         "nrow * ncol = 4", True),
    "elevation_nan": (hfield('nrow="2" ncol="2" size="1 1 1 1" elevation="1 2 nan 4"'), "elevation", "NaN", False),
    "unknown_attribute": (hfield('nrow="2" ncol="2" size="1 1 1 1" scale="2"'), "scale", "unknown attribute", True),
    "unnamed": ('<mujoco><asset><hfield nrow="2" ncol="2" size="1 1 1 1"/></asset></mujoco>', "name",
                "needs a name", True),
    "repeated": ('<mujoco><asset><hfield name="h" nrow="2" ncol="2" size="1 1 1 1"/>'
                 '<hfield name="h" nrow="2" ncol="2" size="1 1 1 1"/></asset></mujoco>', "name", "repeated", True),
    "geom_without_hfield": ('<mujoco><worldbody><geom type="hfield"/></worldbody></mujoco>', "hfield",
                            "needs hfield=", True),
    "geom_unknown_hfield": ('<mujoco><worldbody><geom type="hfield" hfield="x"/></worldbody></mujoco>', "hfield",
                            "unknown hfield 'x'", True),
    "hfield_on_a_sphere": (hfield('nrow="2" ncol="2" size="1 1 1 1"').replace(
        "</mujoco>", '<worldbody><geom type="sphere" size="1" hfield="h"/></worldbody></mujoco>'), "hfield",
        "hfield given for a geom of type 'sphere'", True),
    "fromto": (hfield('nrow="2" ncol="2" size="1 1 1 1"').replace(
        "</mujoco>", '<worldbody><geom type="hfield" hfield="h" fromto="0 0 0 1 1 1"/></worldbody></mujoco>'),
        "fromto", "fromto cannot be used", True),
}


@pytest.mark.parametrize("case", REFUSED)
def test_refused_with_the_place(case):
    xml, attribute, message, mujoco_refuses = REFUSED[case]
    with pytest.raises(ModelError, match=re.escape(message)) as info:
        rbd.load_model(xml)
    assert info.value.attribute == attribute and info.value.line == 1, str(info.value)
    if mujoco_refuses:
        with pytest.raises(ValueError):
            mujoco.MjModel.from_xml_string(xml)


def test_bad_files_refused(tmp_path):
    """Unreadable, foreign or inconsistent files are a ModelError naming the <hfield> element
    and its ``file`` (MuJoCo refuses each of them too)."""
    (tmp_path / "text.png").write_text("not a picture")
    Image.fromarray(np.zeros((4, 4), np.uint8)).save(tmp_path / "jpeg.png", format="JPEG")
    Image.fromarray(np.zeros((1, 4), np.uint8)).save(tmp_path / "thin.png")
    (tmp_path / "short.bin").write_bytes(np.array([3, 4], "<i4").tobytes() + bytes(8))
    (tmp_path / "tiny.bin").write_bytes(bytes(3))
    cases = {"text.png": "cannot read PNG", "jpeg.png": "not a PNG", "thin.png": "at least 2 rows",
             "short.bin": "does not match", "tiny.bin": "no header", "missing.png": "not found"}
    for name, message in cases.items():
        path = tmp_path / "m.xml"
        path.write_text(f'<mujoco>\n<asset>\n<hfield file="{name}" size="1 1 1 1"/></asset></mujoco>')
        with pytest.raises(ModelError, match=message) as info:
            rbd.load_model(path)
        e = info.value
        assert (e.element, e.attribute, e.line) == ("hfield", "file", 3), str(e)
        assert str(e).startswith(str(path)), str(e)
        with pytest.raises(ValueError):
            mujoco.MjModel.from_xml_path(str(path))
    # a file and a grid at once: MuJoCo refuses nrow/ncol with a file; we also refuse an
    # elevation there (MuJoCo would ignore it silently)
    Image.fromarray(np.zeros((3, 3), np.uint8)).save(tmp_path / "ok.png")
    for extra, attribute in (('nrow="3" ncol="3"', "nrow"), ('elevation="1 2 3 4 5 6 7 8 9"', "elevation")):
        with pytest.raises(ModelError, match="not both") as info:
            rbd.load_model(hfield(f'file="{tmp_path / "ok.png"}" size="1 1 1 1" {extra}'),
                           allowed_dirs=[tmp_path])
        assert info.value.attribute == attribute
    with pytest.raises(ModelError, match="content_type 'image/jpeg'"):
        rbd.load_model(hfield(f'file="{tmp_path / "ok.png"}" content_type="image/jpeg" size="1 1 1 1"'),
                       allowed_dirs=[tmp_path])


def test_spec_api():
    """``ModelSpec.add_hfield`` normalizes as the compiler does and checks its input; a geom
    takes its size from its height field; ``from_model`` round-trips."""
    spec = rbd.ModelSpec()
    h = spec.add_hfield("h", [1, 2, 0.4, 0.2], 2, 3, [1, 3, 5, 7, 9, 11])
    g = spec.add_geom(0, "hfield", [9, 9, 9], hfield="h")
    model = spec.compile()
    np.testing.assert_allclose(model.hfield_data, np.arange(6) / 5, atol=1e-7)
    np.testing.assert_allclose(model.geom_size[g], [1, 2, 0.2])
    assert model.geom_dataid[g] == h == 0
    back = rbd.ModelSpec.from_model(model).compile()
    for name in ("hfield_data", "hfield_size", "hfield_nrow", "geom_size", "geom_dataid"):
        np.testing.assert_array_equal(getattr(back, name), getattr(model, name), err_msg=name)
    for bad in (dict(size=[1, 1, 1, -1]), dict(nrow=1), dict(data=[1, 2, 3])):
        kw = dict(name="x", size=[1, 1, 1, 1], nrow=2, ncol=2, data=None) | bad
        with pytest.raises(ValueError):
            rbd.ModelSpec().add_hfield(**kw)
    with pytest.raises(ValueError, match="needs an hfield"):
        rbd.ModelSpec().add_geom(0, "hfield", None)
    with pytest.raises(ValueError, match="needs an hfield"):
        spec.add_geom(0, "sphere", [1], hfield="h")


def test_export_round_trip():
    """``to_mjcf`` writes the height fields back (rows top first) and MuJoCo reads them alike."""
    from rbdl_edu.io.export import to_mjcf
    model = rbd.load_model(str(ROOT / "models" / "terrain_hfield.xml"))
    m = mujoco.MjModel.from_xml_string(to_mjcf(model))
    np.testing.assert_array_equal(m.hfield_data, model.hfield_data)
    np.testing.assert_array_equal(m.geom_size, model.geom_size)

