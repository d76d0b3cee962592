r"""One figure style for the whole book: every figure fits the text column at its own size.

The book's column is 688 px wide and figures are drawn at :data:`DPI` = 100 pixels per inch,
so a figure at most :data:`COLUMN_IN` inches wide is shown at the size it was drawn, and a
9 pt label reads as 9 pt (a 12-inch figure squeezed into the column would shrink its fonts by
half). :data:`STYLE` sets the fonts (10 pt text, 9 pt ticks and legends), a default size, and
constrained layout (labels and outside legends kept inside the picture); its ``figure.hooks``
entry narrows any pyplot figure asked for wider than the column to :data:`COLUMN_IN` (the
height stays). Importing :mod:`rbdl_edu.viz` applies the style (:func:`use_book_style`), so
every notebook that draws with the package's helpers or with pyplot gets it; a figure made
without pyplot (``matplotlib.figure.Figure``) should take its width from :data:`COLUMN_IN`.

Legends: put them where there is no data (``loc=`` a free corner), or outside the axes with
``fig.legend(loc="outside upper center", ncols=...)``, which constrained layout makes room for.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> use_book_style()
>>> fig = plt.figure(figsize=(12, 3))
>>> [float(x) for x in fig.get_size_inches()], fig.dpi
([6.4, 3.0], 100.0)
>>> fig.tight_layout()                 # allowed: that figure switches to tight layout, silently
>>> plt.close(fig)
"""
from __future__ import annotations

import warnings

import matplotlib as mpl

#: pixels per inch of every figure (on screen and saved)
DPI = 100
#: the widest figure, in inches: 640 px, and with the 0.1 in margins that Jupyter adds when it
#: saves a figure (``bbox_inches="tight"``) at most 660 px, inside the 688 px column
COLUMN_IN = 6.4
#: the book's matplotlib settings (:func:`use_book_style`)
STYLE = {
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "figure.figsize": (6.0, 3.4),
    "figure.constrained_layout.use": True,
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "figure.titlesize": 11,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.framealpha": 0.9,
    "lines.linewidth": 1.5,
    "figure.hooks": ["rbdl_edu.viz.style:fit_column"],
}


def fit_column(fig):
    """Narrow ``fig`` to :data:`COLUMN_IN` if it is wider (pyplot calls this for every new
    figure, through ``figure.hooks``)."""
    width, height = fig.get_size_inches()
    if width > COLUMN_IN:
        fig.set_size_inches(COLUMN_IN, height)


def use_book_style():
    """Apply :data:`STYLE` to matplotlib's settings (``rcParams``). A cell that still calls
    ``fig.tight_layout()`` gets tight layout for that figure, without matplotlib's notice that
    the layout engine changed (which would print under the figure on the page)."""
    mpl.rcParams.update(STYLE)
    warnings.filterwarnings("ignore", message="The figure layout has changed to tight", category=UserWarning)


__all__ = ["DPI", "COLUMN_IN", "STYLE", "fit_column", "use_book_style"]
