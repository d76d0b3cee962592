"""Visualization for the book: pythreejs 3D views, ipywidgets panels, matplotlib helpers.

Nothing in the algorithm modules imports this package; it only reads models and calls
the package's public functions.

=====================================  ==================================================
``scene(model, q)``                    3D view of any model (geoms, frames, joint axes,
                                       inertia boxes, contacts, forces), OrbitControls
``view_controls(view)``                ``jslink``-ed checkboxes/slider (frames, inertia,
                                       opacity) that work on the static page
``animate(model, qs, fps)``            client-side keyframe animation with play/pause
``joint_sliders(model, q)``            a slider per hinge/slide joint driving a view
``rnea_stepper(model, q, qd, qdd)``    step through RNEA body by body
``state_explorer(model, readout)``     sliders for q and q̇, a view and a readout follow
``sparsity_explorer()``                a random tree, its ``M`` and factor, by slider
``collision_explorer(model, q, body)`` move a body; boxes, filters, contacts follow
``picture_slider(values, draw)``       a slider picks one of figures drawn in advance
``draw_tree`` ``draw_passes``          diagrams drawn from a model's arrays: the tree,
``draw_composites``                    the passes of RNEA/CRBA/ABA, composite bodies,
``draw_planar_frames``                 frames and a turning body's velocity field
``draw_planar`` ``plot_trajectory``    matplotlib helpers
``plot_matrix`` ``plot_cost``
``use_book_style()`` ``COLUMN_IN``     the book's figure style (:mod:`.style`): every
                                       figure fits the text column; applied on import
=====================================  ==================================================

>>> from rbdl_edu import viz
>>> from rbdl_edu.models import cart_pole
>>> view = viz.scene(cart_pole(), [0.2, 0.4], show_inertia=True)
>>> len(view.inertias)
2
"""
from rbdl_edu.viz.animate import animate, keyframes
from rbdl_edu.viz.diagrams import draw_composites, draw_passes, draw_planar_frames, draw_tree, tree_layout
from rbdl_edu.viz.explorers import collision_explorer, picture_slider, sparsity_explorer, state_explorer
from rbdl_edu.viz.plots import draw_planar, plot_cost, plot_matrix, plot_trajectory
from rbdl_edu.viz.scene import SceneView, scene, scene_with_controls, view_controls
from rbdl_edu.viz.sliders import joint_sliders
from rbdl_edu.viz.stepper import rnea_stepper, rnea_trace
from rbdl_edu.viz.style import COLUMN_IN, use_book_style

use_book_style()          # one figure style for every chapter (rbdl_edu/viz/style.py)

__all__ = ["scene", "SceneView", "view_controls", "scene_with_controls", "animate", "keyframes",
           "joint_sliders", "rnea_stepper", "rnea_trace", "draw_planar", "plot_trajectory",
           "plot_matrix", "plot_cost", "state_explorer", "sparsity_explorer", "collision_explorer", "picture_slider",
           "draw_tree", "draw_passes", "draw_composites", "draw_planar_frames", "tree_layout",
           "use_book_style", "COLUMN_IN"]
