r"""Client-side animation of a trajectory: the poses become pythreejs keyframes.

For every moving body the world position and orientation at each sample go into a
``VectorKeyframeTrack`` (``body{i}.position``) and a ``QuaternionKeyframeTrack``
(``body{i}.quaternion``, consecutive quaternions on the same side so that slerp takes the
short way). The browser plays the clip with its own clock: the play/pause/stop buttons
work on the static book page, with no kernel, and a speed slider is ``jslink``-ed to the
action's ``timeScale``.
"""
from __future__ import annotations

import ipywidgets as widgets
import numpy as np
import pythreejs as three

from rbdl_edu.kinematics import forward_kinematics
from rbdl_edu.rotation import mat_to_quat
from rbdl_edu.viz.framing import model_points
from rbdl_edu.viz.scene import scene


def keyframes(model, qs, fps=30.0):
    """Times ``(T,)``, positions ``(T, nbody, 3)`` and three.js quaternions ``(T, nbody, 4)``
    (``x, y, z, w``, sign-continuous in time) of every body along ``qs (T, nq)``.

    >>> from rbdl_edu.models import pendulum
    >>> t, pos, quat = keyframes(pendulum(), np.linspace(0, 1, 5)[:, None], fps=4)
    >>> t
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    >>> pos.shape, quat.shape
    ((5, 2, 3), (5, 2, 4))
    """
    qs = np.asarray(qs, dtype=float)
    if qs.ndim != 2 or qs.shape[1] != model.nq:
        raise ValueError(f"trajectory has shape {qs.shape}; expected (T, nq={model.nq})")
    xpos, xmat = forward_kinematics(model, qs)
    wxyz = mat_to_quat(xmat)                                  # (T, nbody, 4)
    quat = np.concatenate([wxyz[..., 1:], wxyz[..., :1]], axis=-1)
    for k in range(1, len(quat)):                             # q and -q: keep the nearer one
        flip = np.sum(quat[k] * quat[k - 1], axis=-1) < 0
        quat[k, flip] *= -1
    return np.arange(len(qs)) / float(fps), xpos, quat


def animate(model, qs, fps=30, loop=True, speed=1.0, **scene_kwargs):
    """A 3D view that plays the trajectory ``qs (T, nq)`` sampled at ``fps`` frames per second.

    Returns an ipywidgets ``VBox``: the view (``.view``), the play/pause/stop buttons
    (``.action``, a pythreejs ``AnimationAction``) and a speed slider (``.speed``,
    ``jslink``-ed to the action's ``timeScale``). Keyword arguments go to :func:`scene`.

    >>> from rbdl_edu.models import double_pendulum
    >>> qs = np.stack([np.linspace(0, 1, 10), np.zeros(10)], axis=1)
    >>> box = animate(double_pendulum(), qs, fps=10)
    >>> round(box.action.clip.duration, 3)
    0.9
    """
    qs = np.asarray(qs, dtype=float)
    times, xpos, quat = keyframes(model, qs, fps)
    if "bounds" not in scene_kwargs:            # frame every pose of the trajectory
        xmat = forward_kinematics(model, qs)[1]
        scene_kwargs["bounds"] = np.concatenate([model_points(model, xpos[k], xmat[k])
                                                 for k in range(0, len(qs), max(1, len(qs) // 50))])
    view = scene(model, qs[0], **scene_kwargs)
    tracks = []
    for i in range(1, model.nbody):
        if np.ptp(xpos[:, i], axis=0).max() > 1e-12:
            tracks.append(three.VectorKeyframeTrack(name=f"body{i}.position", times=times.astype(np.float32),
                                                    values=xpos[:, i].ravel().astype(np.float32)))
        if np.ptp(quat[:, i], axis=0).max() > 1e-12:
            tracks.append(three.QuaternionKeyframeTrack(name=f"body{i}.quaternion", times=times.astype(np.float32),
                                                        values=quat[:, i].ravel().astype(np.float32)))
    clip = three.AnimationClip(tracks=tracks, duration=float(times[-1]) if len(times) > 1 else 0.0)
    mixer = three.AnimationMixer(view.root)
    action = three.AnimationAction(mixer, clip, view.root, loop="LoopRepeat" if loop else "LoopOnce",
                                   clampWhenFinished=not loop, timeScale=float(speed))
    slider = widgets.FloatSlider(value=float(speed), min=0.0, max=2.0, step=0.05, description="speed")
    link = widgets.jslink((slider, "value"), (action, "timeScale"))
    box = widgets.VBox([view, widgets.HBox([action, slider])])
    box.view, box.action, box.speed, box._link = view, action, slider, link
    return box
