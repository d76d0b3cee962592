r"""Interactive panels for the chapters: change something with a slider and watch what follows.

=======================================  ======================================================
``state_explorer(model, readout)``       sliders for ``q`` and ``qd`` of every hinge and slide;
                                         a 3D view and a readout (any function of the state)
                                         follow them (chapter 4: energies, Christoffel terms)
``sparsity_explorer(sizes, bfs)``        sliders for the size and the branching of a random
                                         tree; its drawing, the pattern of ``M`` and of its
                                         ``L^T D L`` factor follow (chapter 6)
``collision_explorer(model, q, body)``   a slider moves one free body along a path; its
                                         broadphase boxes, filters and contacts follow (ch. 9)
``picture_slider(values, draw)``         a slider over any values and the matplotlib figure
                                         ``draw(value)`` for each, drawn in advance (ch. 8, 10)
=======================================  ======================================================

Where the possible states can be drawn in advance (:func:`sparsity_explorer`, the text of
:func:`collision_explorer`) the pictures are stacked and a ``jslink`` to the slider picks
one, so they also follow the slider on the static book page. Everything computed from a
free state follows it when a kernel runs (in Jupyter, ``make lab``).
"""
from __future__ import annotations

import io

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from rbdl_edu.collision import candidate_pairs, detect
from rbdl_edu.collision.broadphase import broadphase
from rbdl_edu.collision.geometry import geom_aabb, geom_poses, geom_rbound
from rbdl_edu.crba import crba
from rbdl_edu.factor import factor_ltdl, to_tree_sparse, unpack_ltdl
from rbdl_edu.model.data import Data
from rbdl_edu.model.enums import FREE, HINGE, SLIDE
from rbdl_edu.models import auto_tree
from rbdl_edu.rotation import mat_to_quat
from rbdl_edu.viz.diagrams import draw_tree
from rbdl_edu.viz.geometry import three_quat
from rbdl_edu.viz.scene import contact_objects, scene
from rbdl_edu.viz.style import COLUMN_IN, DPI

KERNEL_NOTE = ("<small style='color:#666'>These sliders work from Python: run the notebook (<code>make lab</code>) "
               "to use them. Drag the view to turn it, scroll to zoom.</small>")


def state_explorer(model, readout, q=None, qd=None, qd_range=3.0, **scene_kwargs):
    """A 3D view of ``model`` with a slider for every hinge/slide position and velocity (a hinge's
    *angle* and *rate*, a slide's *position* and *speed*), and a readout: ``readout(q, qd)``
    returns HTML (with ``$...$`` math) shown under the view and recomputed whenever a slider
    moves.

    Returns an ipywidgets ``VBox`` with ``.view``, ``.q``, ``.qd`` (current values, updated by
    the sliders), ``.sliders`` (``{"q <joint>" | "qd <joint>": FloatSlider}``) and ``.readout``.

    >>> from rbdl_edu.models import double_pendulum
    >>> w = state_explorer(double_pendulum(), lambda q, qd: f"q = {q[0]:.2f}")
    >>> w.sliders["q shoulder"].value = 0.5
    >>> w.readout.value
    'q = 0.50'
    """
    q = np.array(model.qpos0 if q is None else q, dtype=float)
    qd = np.zeros(model.nv) if qd is None else np.array(qd, dtype=float)
    view = scene(model, q, **scene_kwargs)
    text = widgets.HTMLMath(readout(q, qd))
    sliders = {}

    def update(_change=None):
        for name, s in sliders.items():
            kind, adr = s._target
            (box.q if kind == "q" else box.qd)[adr] = s.value
        view.set_q(box.q)
        text.value = readout(box.q.copy(), box.qd.copy())

    for j in range(model.njnt):
        if int(model.jnt_type[j]) not in (HINGE, SLIDE):
            continue
        name = str(model.jnt_names[j]) or f"joint {j}"
        qa, da = int(model.jnt_qposadr[j]), int(model.jnt_dofadr[j])
        hinge = int(model.jnt_type[j]) == HINGE
        lo, hi = (-3.14, 3.14) if hinge else (-1.0, 1.0)          # whole steps of 0.01: values stay on the grid
        labels = ("angle", "rate") if hinge else ("position", "speed")
        for kind, adr, value, (a, b), label in (("q", qa, q[qa], (lo, hi), labels[0]),
                                                ("qd", da, qd[da], (-qd_range, qd_range), labels[1])):
            s = widgets.FloatSlider(value=float(np.clip(value, a, b)), min=a, max=b, step=0.01,
                                    description=f"{name} {label}", readout_format=".2f",
                                    continuous_update=True, style={"description_width": "110px"})
            s._target = (kind, adr)
            s.observe(update, names="value")
            sliders[f"{kind} {name}"] = s
    columns = widgets.HBox([widgets.VBox([s for k, s in sliders.items() if k.startswith("q ")]),
                            widgets.VBox([s for k, s in sliders.items() if k.startswith("qd ")])])
    box = widgets.VBox([view, columns, text, widgets.HTML(KERNEL_NOTE)])
    box.view, box.q, box.qd, box.sliders, box.readout = view, q, qd, sliders, text
    return box


def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)   # the book's style: shown at its own size
    plt.close(fig)
    return buf.getvalue()


def picture_slider(values, draw, description="value", value=None):
    """A slider over ``values`` and, for each, the figure that ``draw(value)`` returns (a
    matplotlib ``Figure``). Every figure is drawn in advance and the slider picks one through
    ``jslink``, so the slider works on the static book page too; ``draw`` is called once per
    value, in order. Returns an ipywidgets ``VBox`` with ``.slider``.

    >>> from matplotlib.figure import Figure
    >>> def draw(a):
    ...     fig = Figure(); fig.subplots().plot([0, 1], [0, a]); return fig
    >>> w = picture_slider([1.0, 2.0], draw, "slope", value=2.0)
    >>> w.slider.index, len(w.children[1].children)
    (1, 2)
    """
    values = list(values)
    slider = widgets.SelectionSlider(options=[(f"{v:g}", v) for v in values], description=description,
                                     value=values[0] if value is None else value,
                                     style={"description_width": "initial"}, layout=widgets.Layout(width="60%"))
    pictures = [widgets.Image(value=_png(draw(v)), format="png", layout=widgets.Layout(width="100%"))
                for v in values]
    stack = widgets.Stack(pictures, selected_index=slider.index)
    box = widgets.VBox([slider, stack])
    box.slider, box._link = slider, widgets.jslink((slider, "index"), (stack, "selected_index"))
    return box


def sparsity_picture(model):
    """PNG bytes: the tree of ``model``, the nonzeros of ``M`` and of the ``L`` of
    :math:`M = L^TDL` (from :mod:`rbdl_edu.factor`), with their counts; and the counts
    ``(nonzeros of M's lower triangle, nonzeros of L)``.

    >>> png, (nm, nl) = sparsity_picture(auto_tree(6, bf=2.0, seed=1))
    >>> png[:4] == b"\\x89PNG", nm == nl
    (True, True)
    """

    M = crba(model, model.qpos0)
    L, _ = unpack_ltdl(model, factor_ltdl(model, to_tree_sparse(model, M)))
    lower = np.abs(np.tril(M)) > 1e-12
    nz_L = np.abs(L) > 1e-12
    fig = Figure(figsize=(COLUMN_IN, 2.6), layout="constrained")
    ax_tree, ax_m, ax_l = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1.4, 1, 1]})
    draw_tree(model, ax=ax_tree, addresses=False, node_size=min(420, 4000 / model.nbody))
    for t in ax_tree.texts:                    # numbers only: names would crowd a big tree
        if not t.get_text().isdigit():
            t.set_visible(False)
    for ax, A, title in ((ax_m, np.abs(M) > 1e-12, f"$M$: {int(lower.sum())} nonzeros\nin the lower triangle"),
                         (ax_l, nz_L, f"$L$ of $M = L^TDL$:\n{int(nz_L.sum())} nonzeros")):
        ax.spy(A, markersize=max(2.0, 60.0 / model.nv))
        ax.set_title(title, fontsize=10)
        ax.set_xticks([])
        ax.set_yticks([])
    plt.close("all")
    return _png(fig), (int(lower.sum()), int(nz_L.sum()))


def sparsity_explorer(sizes=(4, 8, 12, 16, 20), bfs=(1.0, 1.5, 2.0, 4.0), seed=1):
    """Two sliders — the number of bodies and the branching factor of Featherstone's random
    tree ``auto_tree(N, bf, seed=seed)`` — and the picture of :func:`sparsity_picture` for
    the chosen tree. Every picture is drawn in advance and the sliders pick one through
    ``jslink``, so this works on the static book page too.

    Returns an ipywidgets ``VBox`` with ``.sliders`` (``N``, ``bf``) and ``.counts``
    (``{(bf, N): (nonzeros of M's lower triangle, nonzeros of L)}``).

    >>> w = sparsity_explorer(sizes=(3, 5), bfs=(1.0, 2.0))
    >>> w.counts[(1.0, 5)]                        # a chain: M and L are full
    (15, 15)
    """
    wide = {"description_width": "initial"}
    n_slider = widgets.SelectionSlider(options=[(str(n), n) for n in sizes], value=sizes[-1], description="bodies N",
                                       style=wide)
    bf_slider = widgets.SelectionSlider(options=[(f"{bf:g}", bf) for bf in bfs], value=bfs[-1],
                                        description="branching factor bf", style=wide)
    counts, rows, links = {}, [], []
    for bf in bfs:
        pictures = []
        for n in sizes:
            png, counts[(bf, n)] = sparsity_picture(auto_tree(n, bf=bf, seed=seed))
            pictures.append(widgets.Image(value=png, format="png", layout=widgets.Layout(width="100%")))
        inner = widgets.Stack(pictures, selected_index=n_slider.index)
        links.append(widgets.jslink((n_slider, "index"), (inner, "selected_index")))
        rows.append(inner)
    outer = widgets.Stack(rows, selected_index=bf_slider.index)
    links.append(widgets.jslink((bf_slider, "index"), (outer, "selected_index")))
    box = widgets.VBox([widgets.HBox([n_slider, bf_slider]), outer])
    box.sliders, box.counts, box._links = {"N": n_slider, "bf": bf_slider}, counts, links
    return box


def collision_stages(model, qpos, body):
    """What each stage of collision detection says about ``body`` at ``qpos``: a dict with
    ``frame`` (the sweep-and-prune axes, rows), ``boxes`` (``{body: (min (3,), max (3,))}``
    in that frame), ``candidates`` (the bodies the broadphase pairs with ``body``), ``log``
    (``(geom1, geom2, verdict)`` of the geom-level filters for pairs with ``body``'s geoms;
    ``verdict`` None: on to the narrowphase) and ``contacts`` (those touching ``body``).

    >>> from rbdl_edu.models import cart_pole
    >>> sorted(collision_stages(cart_pole(), [0.0, 0.0], 1))
    ['boxes', 'candidates', 'contacts', 'frame', 'log']
    """
    body = model.as_id("body", body)                 # a name or an id
    qpos = np.asarray(qpos, dtype=float)
    gpos, gmat = geom_poses(model, qpos)
    cand, frame, bodies, boxes = broadphase(model, gpos, gmat, geom_rbound(model), geom_aabb(model), return_sap=True)
    log = []
    candidate_pairs(model, gpos, gmat, log)
    mine = set(np.flatnonzero(np.asarray(model.geom_bodyid) == body).tolist())
    data = Data(model)
    data.qpos[:] = qpos
    return dict(frame=np.asarray(frame, float),
                boxes={int(b): (np.asarray(box[:3], float), np.asarray(box[3:], float)) for b, box in zip(bodies, boxes)},
                candidates=sorted(int(b2 if b1 == body else b1) for b1, b2 in cand if body in (b1, b2)),
                log=[(int(a), int(b), r) for a, b, r in log if r != "exclude" and (a in mine or b in mine)]
                + [(int(a), int(b), r) for a, b, r in log if r == "exclude" and body in (a, b)],
                contacts=[c for c in detect(model, data) if int(c.geom1) in mine or int(c.geom2) in mine])


def _stage_text(model, body, st):
    """The stages of :func:`collision_stages` as a small HTML report."""
    bname, gname = (lambda b: model.body_names[b]), (lambda g: model.geom_names[g])
    paired = [("the world (a plane pairs with every body)" if b == 0 else bname(b)) for b in st["candidates"]]
    rows = [f"<b>broadphase</b>: {bname(body)} is paired with " + (", ".join(paired) or "no body")]
    for a, b, verdict in st["log"]:
        if verdict == "exclude":
            rows.append(f"<b>filter</b>: bodies {bname(a)} – {bname(b)}: dropped by &lt;exclude&gt;")
        else:
            rows.append(f"<b>filter</b>: geoms {gname(a)} – {gname(b)}: "
                        + ("on to the narrowphase" if verdict is None else f"dropped ({verdict})"))
    for c in st["contacts"]:
        rows.append(f"<b>contact</b>: {gname(c.geom1)} – {gname(c.geom2)}, distance {float(c.dist):+.4f}, "
                    f"at ({', '.join(f'{float(x):.3f}' for x in c.pos)})")
    if not st["contacts"]:
        rows.append("<b>contact</b>: none")
    return "<br>".join(rows)


def _box_object(lo, hi, frame, color):
    """A wireframe box with corners ``lo``, ``hi`` in the coordinates of the axes ``frame``
    (rows), drawn in world coordinates."""
    import pythreejs as three


    R = np.asarray(frame, float).T.copy()              # columns: the frame's axes in the world
    if np.linalg.det(R) < 0:                           # a box is its own mirror image
        R[:, 2] *= -1
    size = np.maximum(hi - lo, 1e-4)
    geometry = three.BoxGeometry(width=float(size[0]), height=float(size[1]), depth=float(size[2]))
    return three.LineSegments(three.EdgesGeometry(geometry), three.LineBasicMaterial(color=color, linewidth=2),
                              position=[float(x) for x in np.asarray(frame, float).T @ (0.5 * (lo + hi))],
                              quaternion=three_quat(mat_to_quat(R)))


def collision_explorer(model, qpos, body, start, end, steps=21, **scene_kwargs):
    """A slider that moves free body ``body`` (a name or an id) in a straight line from
    ``start`` to ``end`` (world positions), and what collision detection says at each stop:
    its sweep-and-prune box (red) and the boxes it overlaps (orange), the geom filters'
    verdicts and the contacts (red dots), from :func:`collision_stages`.

    The report under the view is drawn for every stop in advance and follows the slider on
    the static page too; the 3D view follows it when a kernel runs.

    Returns an ipywidgets ``VBox`` with ``.view``, ``.slider``, ``.stages`` (one dict per stop)
    and ``.qpos`` (one configuration per stop).

    >>> from rbdl_edu import ModelSpec
    >>> spec = ModelSpec(); _ = spec.add_geom(0, "plane", [0, 0, 1])
    >>> b = spec.add_body(0, "ball", pos=[0, 0, 1], mass=1.0, inertia=[1e-3] * 3)
    >>> _ = spec.add_joint(b, "free"); _ = spec.add_geom(b, "sphere", [0.1])
    >>> w = collision_explorer(spec.compile(), None, "ball", [0, 0, 0.5], [0, 0, 0.05], steps=3)
    >>> [len(st["contacts"]) for st in w.stages]       # high, low, touching the floor
    [0, 0, 1]
    """

    body = model.body_names.index(body) if isinstance(body, str) else int(body)
    joints = [j for j in range(model.njnt) if int(model.jnt_bodyid[j]) == body and int(model.jnt_type[j]) == FREE]
    if not joints:
        raise ValueError(f"body {model.body_names[body]!r} has no free joint to move it by")
    adr = int(model.jnt_qposadr[joints[0]])
    base = np.array(model.qpos0 if qpos is None else qpos, dtype=float)
    stops = np.linspace(np.asarray(start, float), np.asarray(end, float), steps)
    qposes = []
    for p in stops:
        q = base.copy()
        q[adr:adr + 3] = p
        qposes.append(q)
    stages = [collision_stages(model, q, body) for q in qposes]
    k0 = steps // 2
    view = scene(model, qposes[k0], **{"show_frames": False, "show_joints": False, **scene_kwargs})
    slider = widgets.SelectionSlider(options=[(f"{k + 1}/{steps}", k) for k in range(steps)], value=k0,
                                     description="position", continuous_update=True)
    report = widgets.Stack([widgets.HTML(_stage_text(model, body, st)) for st in stages], selected_index=k0)
    link = widgets.jslink((slider, "index"), (report, "selected_index"))

    def show(k):

        st = stages[k]
        marks = [_box_object(*st["boxes"][b], st["frame"], "#d62728" if b == body else "#ff8c00")
                 for b in [body, *st["candidates"]] if b in st["boxes"]]
        marks += contact_objects(st["contacts"], view.extent)
        view.set_q(qposes[k])
        view.set_overlay(marks)

    slider.observe(lambda change: show(change["new"]), names="value")
    show(k0)
    note = widgets.HTML("<small style='color:#666'>The report follows the slider on this page; the 3D view "
                        "follows it when the notebook runs (<code>make lab</code>).</small>")
    box = widgets.VBox([view, slider, report, note])
    box.view, box.slider, box.stages, box.qpos, box._link = view, slider, stages, qposes, link
    return box


__all__ = ["state_explorer", "sparsity_explorer", "sparsity_picture", "collision_explorer", "collision_stages",
           "KERNEL_NOTE"]
