r"""A 3D view of any model: :func:`scene` builds a pythreejs renderer with OrbitControls.

Every body is a ``Group`` named ``body{i}`` directly under the scene, placed at its world
pose from :func:`rbdl_edu.kinematics.forward_kinematics`; its geoms, frame axes, joint
axes and inertia box are its children, in body coordinates. Moving the model is moving
these groups (:meth:`SceneView.set_q`); an animation keys their ``.position`` and
``.quaternion`` (:mod:`rbdl_edu.viz.animate`).

In Jupyter the view redraws when Python changes it; on the static book page the state
saved with the notebook is shown, and OrbitControls (drag to turn, wheel to zoom) and
``jslink``-ed controls keep working without a kernel.
"""
from __future__ import annotations

import ipywidgets as widgets
import numpy as np
import pythreejs as three

from rbdl_edu.kinematics import forward_kinematics
from rbdl_edu.tree import state
from rbdl_edu.viz import geometry as geo
from rbdl_edu.viz.framing import fit_camera, look_at, model_points, view_direction


class SceneView(three.Renderer):
    """A pythreejs ``Renderer`` that knows its model: ``model``, ``bodies`` (one ``Group`` per
    body, index 0 the world), ``frames``/``inertias``/``overlay`` groups, ``geom_materials``
    and ``extent`` (a length for arrows). ``set_q(q)`` moves the bodies."""

    def set_q(self, q):
        """Move every body to its pose at ``q (nq,)``."""
        (q,) = state(self.model, np.asarray(q, dtype=float))
        pos, quat = geo.pose_lists(*forward_kinematics(self.model, q))
        with self.hold_sync():
            for i in range(1, self.model.nbody):
                self.bodies[i].position, self.bodies[i].quaternion = pos[i], quat[i]
        self.q = q

    def set_overlay(self, objects):
        """Replace the arrows and markers drawn in world coordinates (contacts, forces)."""
        self.overlay.children = tuple(o for o in objects if o is not None)


def _check(model):
    if model.is_symbolic:
        raise ValueError("viz needs a numeric model; build it with symbolic=False")


def contact_objects(contacts, extent):
    """Markers for contact points: a red sphere at each point and, if a frame is known, its
    normal as a short arrow. ``contacts``: array ``(n, 3)`` of points, or objects with ``pos``
    (and optionally ``frame``, whose first row is the normal), as MuJoCo's ``data.contact``."""
    out = []
    for c in contacts:
        pos = np.asarray(getattr(c, "pos", c), dtype=float)
        out.append(three.Mesh(three.SphereGeometry(radius=0.02 * extent), three.MeshStandardMaterial(color="#e01010"),
                              position=[float(x) for x in pos]))
        frame = getattr(c, "frame", None)
        if frame is not None:
            out.append(geo.arrow(pos, np.asarray(frame, float).reshape(-1)[:3], "#e01010",
                                 scale=0.15 * extent, radius=0.004 * extent))
    return out


def force_objects(forces, extent, scale=None, colors=None):
    """Arrows for forces: ``forces`` is an array ``(n, 6)`` of rows ``[point, force]`` in world
    coordinates. Arrows are scaled so the largest is ``0.4 * extent`` long unless ``scale``
    (length per newton) is given; ``colors`` (one per row) tells them apart (default: all red)."""
    F = np.asarray(forces, dtype=float).reshape(-1, 6)
    if len(F) == 0:
        return []
    biggest = float(np.max(np.linalg.norm(F[:, 3:], axis=1)))
    s = scale if scale is not None else (0.4 * extent / biggest if biggest > 0 else 1.0)
    colors = ["#d62728"] * len(F) if colors is None else list(colors)
    return [geo.arrow(p, f, c, scale=s, radius=0.008 * extent, name="force") for p, f, c in zip(F[:, :3], F[:, 3:], colors)]


def scene(model, q=None, show_frames=True, show_inertia=False, contacts=None, forces=None,
          width=600, height=400, show_joints=True, opacity=None, camera_position=None, background="#f4f4f4",
          bounds=None, groups=(0, 1, 2), direction=None, force_colors=None):
    """A pythreejs view of ``model`` at configuration ``q`` (default ``model.qpos0``).

    Parameters
    ----------
    model : Model (numeric)
    q : array (nq,), optional
    show_frames : bool — body frames (x red, y green, z blue)
    show_inertia : bool — each body's equivalent-inertia box (the uniform box with its
        mass and principal moments, at its center of mass)
    contacts : array (n, 3) or list of contacts with ``pos``/``frame``, optional
    forces : array (n, 6) of ``[point, force]`` rows in world coordinates, optional
    force_colors : a color per row of ``forces``, optional (default: all red)
    width, height : int — pixels
    show_joints : bool — arrows along hinge (orange) and slide (cyan) axes
    opacity : float, optional — override every geom's alpha (see the joint axes inside)
    camera_position : (3,), optional — in world coordinates
    groups : geom groups drawn (MJCF ``group``, ``geom_group``); as MuJoCo's
        viewer, groups 0-2 by default (models often put collision-only geoms in group 3)
    bounds : array (n, 3) of world points, or (center (3,), size), optional — what the camera
        frames: the points, or a sphere of diameter ``size`` (default: the model at ``q``,
        :func:`~rbdl_edu.viz.framing.model_points`; :func:`~rbdl_edu.viz.animate.animate`
        passes the points of the whole trajectory)
    direction : (3,), optional — from where the camera looks (a vector towards the camera;
        default :func:`~rbdl_edu.viz.framing.view_direction`: front-right, a little above)

    Returns
    -------
    SceneView — a pythreejs ``Renderer`` (display it, or put it in an ipywidgets box).

    >>> from rbdl_edu.models import double_pendulum
    >>> view = scene(double_pendulum(), [0.3, -0.5])
    >>> [b.name for b in view.bodies]
    ['body0', 'body1', 'body2']
    """
    _check(model)
    q = np.asarray(model.qpos0 if q is None else q, dtype=float)
    (q,) = state(model, q)
    xpos, xmat = forward_kinematics(model, q)
    pos, quat = geo.pose_lists(xpos, xmat)
    points = _frame_points(model, xpos, xmat, bounds)
    extent = float(max(np.ptp(points, axis=0).max(), 0.5))         # a length for arrows and frames
    if bounds is None:                                  # the world axes at the origin are in view too
        points = np.concatenate([points, 0.3 * extent * np.eye(3)])
    direction = view_direction(points) if direction is None else np.asarray(direction, float)
    center, distance = fit_camera(points, direction, aspect=width / height)
    bodies, frames, inertias, materials = [], [], [], []
    for i in range(model.nbody):
        kids = []
        for g in np.flatnonzero(np.asarray(model.geom_bodyid) == i):
            if int(model.geom_group[g]) not in groups:
                continue
            obj = geo.geom_object(model, int(g), opacity=opacity, plane_size=4 * extent)
            if obj is not None:
                kids.append(obj)
                materials.extend(m.material for m in obj.children if isinstance(m, three.Mesh))
        if i > 0 and not kids:
            kids.extend(geo.bones(model, i, 0.012 * extent))
        if i > 0:
            ax = geo.frame_axes(0.15 * extent)
            ax.visible = show_frames
            frames.append(ax)
            kids.append(ax)
            if show_joints:
                kids.extend(geo.joint_axes(model, i, 0.25 * extent))
            box = geo.inertia_box(model, i)
            if box is not None:
                box.visible = show_inertia
                inertias.append(box)
                kids.append(box)
        bodies.append(three.Group(children=kids, name=f"body{i}", position=pos[i], quaternion=quat[i]))
    world_axes = geo.frame_axes(0.3 * extent)
    overlay = three.Group(name="overlay")
    # The model is shifted so that what the view frames sits at the scene's origin: the
    # camera and OrbitControls aim at the origin from the first frame on.
    root = three.Group(children=[*bodies, world_axes, overlay], name="model",
                       position=[-float(c) for c in center])
    # the camera stands on `direction`, far enough that what it frames fills the picture
    cam_pos = (np.asarray(camera_position, float) - center if camera_position is not None
               else distance * direction / np.linalg.norm(direction))
    camera = three.PerspectiveCamera(position=[float(c) for c in cam_pos], up=[0.0, 0.0, 1.0],
                                     quaternion=[float(c) for c in look_at(cam_pos, [0.0, 0.0, 0.0])],
                                     aspect=width / height, fov=40, near=0.01 * extent, far=100 * extent,
                                     children=[three.DirectionalLight(color="white", intensity=0.7,
                                                                      position=[1.0, 2.0, 3.0])])
    sc = three.Scene(children=[root, camera, three.AmbientLight(color="white", intensity=0.5)],
                     background=background)
    view = SceneView(camera=camera, scene=sc, width=width, height=height, antialias=True,
                     controls=[three.OrbitControls(controlling=camera, target=[0.0, 0.0, 0.0])])
    view.model, view.q, view.extent, view.root = model, q, extent, root
    view.bodies, view.frames, view.inertias, view.overlay = bodies, frames, inertias, overlay
    view.geom_materials = materials
    marks = []
    if contacts is not None:
        marks += contact_objects(contacts, extent)
    if forces is not None:
        marks += force_objects(forces, extent, colors=force_colors)
    view.set_overlay(marks)
    return view


def _frame_points(model, xpos, xmat, bounds):
    """The world points the camera frames: ``bounds`` given as points, or as ``(center, size)``
    (the corners of an octahedron of that diameter: a sphere's extremes), or the model itself."""
    if bounds is None:
        return model_points(model, xpos, xmat)
    if isinstance(bounds, tuple) and len(bounds) == 2 and np.ndim(bounds[1]) == 0:
        center, size = np.asarray(bounds[0], float), float(bounds[1])
        return center + 0.5 * size * np.concatenate([np.eye(3), -np.eye(3)])
    return np.asarray(bounds, float).reshape(-1, 3)


def view_controls(view):
    """Checkboxes for the body frames and the inertia boxes and a slider for the geoms'
    opacity, each ``jslink``-ed to the view, so they work on the static page too.

    >>> from rbdl_edu.models import pendulum
    >>> len(view_controls(scene(pendulum())).children)
    3
    """
    frames = widgets.Checkbox(value=bool(view.frames and view.frames[0].visible), description="frames", indent=False)
    inertia = widgets.Checkbox(value=bool(view.inertias and view.inertias[0].visible), description="inertia boxes",
                               indent=False)
    alpha = widgets.FloatSlider(value=view.geom_materials[0].opacity if view.geom_materials else 1.0,
                                min=0.05, max=1.0, step=0.05, description="opacity", continuous_update=True)
    view._links = [widgets.jslink((frames, "value"), (ax, "visible")) for ax in view.frames]
    view._links += [widgets.jslink((inertia, "value"), (box, "visible")) for box in view.inertias]
    view._links += [widgets.jslink((alpha, "value"), (m, "opacity")) for m in view.geom_materials]
    return widgets.HBox([frames, inertia, alpha])


def scene_with_controls(model, q=None, **kwargs):
    """:func:`scene` with :func:`view_controls` under it, in a ``VBox`` (``.view`` is the scene)."""
    view = scene(model, q, **kwargs)
    box = widgets.VBox([view, view_controls(view)])
    box.view = view
    return box
