"""``<replicate>``: copies of a piece of the tree, each moved by the same step.

``<replicate count="n" offset="x y z" euler="a b c" sep="-">`` stands for ``n`` copies of
its children. Copy ``k`` sits in the frame of copy ``k - 1`` moved by ``offset`` and turned
by ``euler`` (copy 0 is not moved), so the steps accumulate. Every name inside gets the
suffix ``sep + k`` with ``k`` written with as many digits as ``n - 1`` needs (nested
replicates: the innermost suffix comes first).

Each copy becomes a ``<frame>`` carrying its accumulated pose, so the rest of the compiler
needs to know nothing about replicates. Elements outside the replicate that refer to a
name inside it (an actuator on a replicated joint, say) would have to be replicated too,
as MuJoCo does; that is not supported and raises :class:`~rbdl_edu.io.errors.ModelError`.

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><worldbody><replicate count="3" offset="1 0 0">
...   <body name="b"><joint/><geom size="0.1"/></body></replicate></worldbody></mujoco>''')
>>> m.body_names, m.body_pos[:, 0].tolist()
(('world', 'b0', 'b1', 'b2'), [0.0, 0.0, 1.0, 2.0])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.io.orientation import read_orientation
from rbdl_edu.io.xmlread import Node
from rbdl_edu.rotation import quat_mul, quat_to_mat

ATTRIBUTES = {"count", "offset", "euler", "sep"}
MAX_ELEMENTS = 200_000        # a file may not grow beyond this many elements by replication


def _size(node):
    return 1 + sum(_size(c) for c in node.children)


def _names(node):
    out = set()
    for child in node.children:
        if "name" in child.attrib:
            out.add(child.attrib["name"])
        out |= _names(child)
    return out


def _copy(node, suffix, parent):
    out = Node(node.tag, dict(node.attrib), node.file, node.line)
    out.parent = parent
    if "name" in out.attrib:
        out.attrib["name"] += suffix
    out.children = [_copy(c, suffix, out) for c in node.children]
    return out


def _expand(node, degrees, eulerseq):
    """Replace the replicates below ``node`` (innermost first); returns the names defined
    inside replicates before renaming."""
    replaced = set()
    children = []
    for child in node.children:
        if child.tag != "replicate":
            replaced |= _expand(child, degrees, eulerseq)
            children.append(child)
            continue
        for a in child.attrib:
            if a not in ATTRIBUTES:
                raise child.error(f"unknown attribute {a!r} for <replicate>", a)
        count = child.int("count")
        if count is None or count < 1:
            raise child.error("count must be a positive integer", "count")
        if count > 10000:
            raise child.error("count larger than 10000", "count")
        replaced |= _expand(child, degrees, eulerseq) | _names(child)
        if count * sum(_size(c) for c in child.children) > MAX_ELEMENTS:
            raise child.error(f"replication would create more than {MAX_ELEMENTS} elements", "count")
        offset = child.floats("offset", 3, default=np.zeros(3))
        step = read_orientation(Node("replicate", {k: v for k, v in child.attrib.items() if k == "euler"},
                                     child.file, child.line), degrees, eulerseq)
        digits = len(str(count - 1))
        pos, quat = np.zeros(3), np.array([1.0, 0, 0, 0])
        for k in range(count):
            suffix = child.get("sep", "") + str(k).zfill(digits)
            frame = Node("frame", {"pos": " ".join(repr(float(x)) for x in pos),
                                   "quat": " ".join(repr(float(x)) for x in quat)}, child.file, child.line)
            frame.parent = node
            frame.children = [_copy(c, suffix, frame) for c in child.children]
            children.append(frame)
            # the next copy: moved by offset in this copy's frame, then turned by the step
            pos = pos + quat_to_mat(quat) @ offset
            quat = quat_mul(quat, step)
    node.children = children
    return replaced


def expand_replicates(root, degrees, eulerseq):
    """Expand every ``<replicate>`` in ``<worldbody>``; raise if anything outside refers to a
    replicated name."""
    names = set()
    for world in (c for c in root.children if c.tag == "worldbody"):
        names |= _expand(world, degrees, eulerseq)
    if not names:
        return
    for section in root.children:
        if section.tag in ("worldbody", "asset", "default"):
            continue
        stack = list(section.children)
        while stack:
            n = stack.pop()
            stack.extend(n.children)
            for a, v in n.attrib.items():
                if a != "name" and v in names:
                    raise n.error(f"refers to {v!r} inside a <replicate>: replicating referencing "
                                  "elements is not supported", a)
