"""The contact frame (:func:`rbdl_edu.collision.contact.make_frame`, MuJoCo's ``mju_makeFrame``):
its defining properties on random normals and tangents, and MuJoCo's choices where the
tangent is missing or useless."""
from __future__ import annotations

import numpy as np
import pytest

from rbdl_edu.collision.contact import make_frame


def test_an_orthonormal_right_handed_frame_around_the_normal():
    rng = np.random.default_rng(3)
    for k in range(300):
        normal = rng.normal(size=3) * rng.uniform(0.1, 10)
        tangent = rng.normal(size=3) if k % 2 else None
        F = make_frame(normal, tangent)
        np.testing.assert_allclose(F @ F.T, np.eye(3), atol=1e-14)
        assert np.linalg.det(F) == pytest.approx(1.0, abs=1e-14)
        np.testing.assert_allclose(F[0], normal / np.linalg.norm(normal), atol=1e-15)
        if tangent is not None and tangent @ tangent >= 0.25:     # the tangent's part across the normal
            across = tangent - F[0] * (F[0] @ tangent)
            np.testing.assert_allclose(F[1], across / np.linalg.norm(across), atol=1e-12)


@pytest.mark.parametrize("normal, tangent, second", [
    ([0.0, 0.0, 3.0], None, [0.0, 1.0, 0.0]),             # no tangent: start from y ...
    ([0.0, 1.0, 0.0], None, [0.0, 0.0, 1.0]),             # ... or z, for a normal near y
    ([0.0, 0.0, 1.0], [0.0, 0.1, 0.0], [0.0, 1.0, 0.0]),  # a tangent shorter than 1/2 counts as none
    ([0.0, 0.0, 1.0], [0.0, 0.0, 2.0], [1.0, 0.0, 0.0]),  # along the normal: nothing left, x (MuJoCo)
    ([1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]),
])
def test_mujocos_choices_of_the_second_axis(normal, tangent, second):
    np.testing.assert_allclose(make_frame(np.array(normal), tangent)[1], second, atol=1e-15)
