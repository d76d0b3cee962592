r"""What the chapter notebooks share, so that each chapter starts with its ideas.

=====================  ===========================================================
``FAST``               True under CI (``RBDL_EDU_FAST=1`` or ``CI=true``): long
                       simulations and cost studies shorten themselves
``tidy(x)``            numbers rounded for printing (and ``-0.0`` made ``0.0``), so
                       that printed outputs do not depend on round-off
``clean(expr)``        a SymPy result with exact rationals for the floats numeric code
                       paths leave (``0.5``, ``1.0``), simplified, element by element
``model_path(name)``   a model file of the repository's ``models/`` folder, wherever
                       the notebook runs (:func:`rbdl_edu.models.path`)
``read_table(name)``   a measurement the book commits (``book/data/<name>.csv``):
                       its header (machine, date, ...) and its rows
``repo_path(*parts)``  a path in the repository (``repo_path("benchmarks")``)
``equations(...)``     long SymPy results as ``lhs = ...`` rows, each sum broken
                       between its terms so that no row is wider than the page
=====================  ===========================================================

>>> tidy([1.23456789, -0.0])
array([1.234568, 0.      ])
>>> import sympy as sp
>>> x = sp.Symbol("x")
>>> clean(0.5 * x + 0.5 * x)
x
"""
from __future__ import annotations

import csv
import os
import re
from pathlib import Path

import numpy as np
import sympy as sp

from rbdl_edu.models import path as model_path

FAST = os.environ.get("RBDL_EDU_FAST", "0") == "1" or os.environ.get("CI", "").lower() == "true"
ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = ROOT / "book" / "data"


def repo_path(*parts):
    """A path in the repository the package was installed from, wherever the notebook runs.

    >>> repo_path("models", "pendulum.xml").is_file()
    True
    """
    return ROOT.joinpath(*parts)


def tidy(x, digits=6):
    """Round for display (and turn ``-0.0`` into ``0.0``) so printed numbers do not depend on
    round-off.

    >>> tidy(np.array([1e-17, -2.0000000001]), 4)
    array([ 0., -2.])
    """
    return np.round(np.asarray(x, dtype=float), digits) + 0.0


def clean(expr):
    """Exact rationals instead of the floats that numeric code paths leave in symbolic results
    (``0.5``, ``1.0``), then simplified: a scalar stays a scalar, an array or matrix becomes a
    ``sympy.Matrix``.

    >>> q = sp.Symbol("q")
    >>> clean(np.array([1.0 * sp.sin(q) ** 2 + 1.0 * sp.cos(q) ** 2, 0.5 * q], dtype=object))
    Matrix([
    [  1],
    [q/2]])
    """
    def one(e):
        return sp.simplify(sp.nsimplify(e))

    if isinstance(expr, (np.ndarray, list, tuple, sp.MatrixBase)):
        return sp.Matrix(expr).applyfunc(one)
    return one(expr)


def read_table(name):
    """A table the book commits in ``book/data/<name>.csv`` (written by ``tools/bench_book.py``):
    ``(header, rows)`` with ``header`` the ``# key: value`` lines above the table (which
    machine measured it, when) and ``rows`` a list of dicts, numbers as floats.

    >>> header, rows = read_table("broadphase")
    >>> "machine" in header and {"n", "method", "seconds"} <= set(rows[0])
    True
    """
    path = DATA_DIR / f"{name}.csv"
    lines = path.read_text().splitlines()
    header = {}
    for line in lines:
        if line.startswith("#") and ":" in line:
            key, _, value = line[1:].partition(":")
            header[key.strip()] = value.strip()

    def number(x):
        try:
            return float(x)
        except ValueError:
            return x

    rows = [{k: number(v) for k, v in row.items()}
            for row in csv.DictReader(line for line in lines if not line.startswith("#"))]
    return header, rows


#: how many characters (as :func:`glyphs` counts them) fit on one row of the book's column
ROW = 48
_SILENT = re.compile(r"\\(left|right|displaystyle|dot|ddot|hat|bar|tilde|mathrm|operatorname|quad|qquad|,|;)(?![a-zA-Z])")


def glyphs(latex):
    r"""About how many characters ``latex`` shows: TeX commands count as one (``\sin`` as
    three), braces, ``^`` and ``_`` as none. A measure for breaking rows, not a typesetter.

    >>> glyphs(r"\dot{q}_{1}^{2} \sin{\left(q_{2} \right)}")
    10
    """
    text = _SILENT.sub("", latex)
    text = re.sub(r"\\(sin|cos|tan|log|exp)(?![a-zA-Z])", "xxx", text)
    text = re.sub(r"\\[a-zA-Z]+", "x", text)
    return len(re.sub(r"[{}^_\s]", "", text))


def _rows(expr, width):
    """The terms of ``expr`` (a sum, in SymPy's printing order) gathered into rows of at most
    ``width`` glyphs; each row after the first starts with its sign."""
    terms = sp.Add.make_args(sp.sympify(expr))
    if len(terms) > 1:
        terms = sp.Add(*terms).as_ordered_terms()
    rows, row = [], ""
    for k, t in enumerate(terms):
        piece = sp.latex(t) if k == 0 else (f"- {sp.latex(-t)}" if t.could_extract_minus_sign() else f"+ {sp.latex(t)}")
        if row and glyphs(row + piece) > width:
            rows.append(row)
            row = ""
        row = f"{row} {piece}".strip()
    return rows + [row]


class Equations:
    """Display math that Jupyter and the book typeset (``_repr_latex_``): an ``aligned`` block."""

    def __init__(self, latex):
        self.latex = latex

    def _repr_latex_(self):
        return f"$\\displaystyle {self.latex}$"

    def __repr__(self):
        return self.latex


def equations(*pairs, width=ROW):
    r"""``lhs = rhs`` for each ``(lhs, rhs)`` pair (``lhs`` a LaTeX string, ``rhs`` a SymPy
    expression or matrix), aligned at the ``=``: a sum longer than ``width`` glyphs continues on
    the next rows, broken between its terms, so that a long SymPy result fits the book's
    column instead of running off its edge. A matrix ``rhs`` is shown whole.

    >>> x, y = sp.symbols("x y")
    >>> print(equations(("f", x + y), width=2).latex)
    \begin{aligned} f &= x \\ &\quad + y \end{aligned}
    """
    lines = []
    for lhs, rhs in pairs:
        rows = [sp.latex(rhs)] if isinstance(rhs, sp.MatrixBase) else _rows(rhs, width)
        lines.append(f"{lhs} &= {rows[0]}")
        lines += [f"&\\quad {r}" for r in rows[1:]]
    return Equations("\\begin{aligned} " + " \\\\ ".join(lines) + " \\end{aligned}")


__all__ = ["FAST", "tidy", "clean", "model_path", "read_table", "repo_path", "equations", "glyphs", "ROW"]
