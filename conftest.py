"""pytest: doctests see NumPy as ``np``, as the book's readers do."""
import numpy
import pytest


@pytest.fixture(autouse=True)
def _doctest_numpy(doctest_namespace):
    doctest_namespace["np"] = numpy
