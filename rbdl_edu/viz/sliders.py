r"""Joint sliders: one ipywidgets slider per hinge and slide joint, driving a 3D view.

Moving a slider sets that joint's ``qpos`` entry and moves the bodies (a kernel callback:
live in Jupyter; on the static page the view shows the saved configuration and the sliders
are inert, so the chapters show :func:`~rbdl_edu.viz.scene.scene_with_controls` in the book
and keep the sliders in a cell the book hides). Ball and free joints keep their ``q`` (a quaternion is not a slider).
"""
from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from rbdl_edu.model.enums import HINGE, SLIDE
from rbdl_edu.viz.scene import scene, view_controls


#: the sliders' step; their ends are whole steps, so a value such as 0.4 lies on the slider's grid
#: and the readout shows the configuration that is drawn (a slider snaps to min + k * step)
STEP = 0.01


def slider_range(model, j):
    """``(lo, hi)`` for joint ``j``'s slider: its range if limited, else ±π (hinge) or ±1 (slide),
    rounded inwards to whole :data:`STEP` s.

    >>> from rbdl_edu.models import pendulum
    >>> slider_range(pendulum(), 0)
    (-3.14, 3.14)
    """
    if bool(model.jnt_limited[j]) and model.jnt_range[j][1] > model.jnt_range[j][0]:
        lo, hi = float(model.jnt_range[j][0]), float(model.jnt_range[j][1])
    else:
        lo, hi = (-np.pi, np.pi) if int(model.jnt_type[j]) == HINGE else (-1.0, 1.0)
    return round(float(np.ceil(lo / STEP - 1e-9)) * STEP, 2), round(float(np.floor(hi / STEP + 1e-9)) * STEP, 2)


def joint_sliders(model, q=None, view=None, controls=True, **scene_kwargs):
    """A 3D view of ``model`` with a slider per hinge/slide joint.

    Returns an ipywidgets ``VBox`` with ``.view`` (the :func:`~rbdl_edu.viz.scene.scene`),
    ``.sliders`` (``{joint name: FloatSlider}``) and ``.q`` (the current configuration, a
    copy that the sliders update). ``controls`` adds :func:`view_controls` (frames, inertia
    boxes, opacity: ``jslink``-ed, so they work on the static page).

    >>> from rbdl_edu.models import double_pendulum
    >>> w = joint_sliders(double_pendulum())
    >>> w.sliders["elbow"].value = 0.5
    >>> w.q
    array([0. , 0.5])
    """
    q = np.array(model.qpos0 if q is None else q, dtype=float)
    view = view if view is not None else scene(model, q, **scene_kwargs)
    sliders = {}
    for j in range(model.njnt):
        if int(model.jnt_type[j]) not in (HINGE, SLIDE):
            continue
        lo, hi = slider_range(model, j)
        adr = int(model.jnt_qposadr[j])
        s = widgets.FloatSlider(value=float(np.clip(q[adr], lo, hi)), min=lo, max=hi, step=STEP,
                                description=str(model.jnt_names[j]) or f"joint {j}", continuous_update=True,
                                readout_format=".2f")

        def on_change(change, adr=adr):
            box.q[adr] = change["new"]
            view.set_q(box.q)

        s.observe(on_change, names="value")
        sliders[s.description] = s
    rows = [view, *sliders.values()]
    if sliders:
        rows.append(widgets.HTML("<small style='color:#666'>The joint sliders move the model from Python: "
                                 "run the notebook to use them. Drag the view to turn it, scroll to zoom."
                                 "</small>"))
    if controls:
        rows.append(view_controls(view))
    box = widgets.VBox(rows)
    box.view, box.sliders, box.q = view, sliders, q
    return box
