"""``<replicate>``: copies of a piece of the tree, each moved by the same step.

``<replicate count="n" offset="x y z" euler="a b c" sep="-">`` stands for ``n`` copies of
its children. Copy ``k`` sits in the frame of copy ``k - 1`` moved by ``offset`` and turned
by ``euler`` (copy 0 is not moved), so the steps accumulate. Every name inside gets the
suffix ``sep + k`` with ``k`` written with as many digits as ``n - 1`` needs (nested
replicates: the innermost suffix comes first).

Each copy becomes a ``<frame>`` carrying its accumulated pose, so the rest of the compiler
needs to know nothing about replicates. An actuator, sensor, tendon or contact pair outside
that refers to a name inside (a sensor on a replicated site, say) is replicated too, as in
MuJoCo 4.0: the elements that refer to nothing replicated keep their place, then come, for
each replicate in the order of the tree, copy by copy, the referring elements in file order,
each name (its own and those it refers to) with the copy's suffix. Names live in one
namespace per kind (a tendon and a site may both be called ``b``), and a reference is
looked up in the kind its attribute names. An equality or a
keyframe is not replicated (MuJoCo refuses such an equality too). ``prefix`` is accepted and,
as in MuJoCo 4.0, changes nothing.

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

ATTRIBUTES = {"count", "offset", "euler", "sep", "prefix"}
MAX_ELEMENTS = 200_000        # a file may not grow beyond this many elements by replication
REPLICATED = ("actuator", "sensor", "tendon", "contact")   # sections whose elements follow


def _size(node):
    return 1 + sum(_size(c) for c in node.children)


KIND = {"freejoint": "joint"}     # the namespace of a name given in the tree, by tag
REFERENCE_KIND = {                # the namespace an attribute refers to
    **dict.fromkeys(("site", "sidesite", "refsite", "cranksite", "slidersite"), "site"),
    **dict.fromkeys(("joint", "jointinparent", "joint1", "joint2"), "joint"),
    **dict.fromkeys(("geom", "geom1", "geom2"), "geom"),
    **dict.fromkeys(("body", "body1", "body2"), "body"),
    **dict.fromkeys(("tendon", "tendon1", "tendon2"), "tendon"),
    "actuator": "actuator", "camera": "camera"}
FRAME_KIND = {"xbody": "body"}    # objtype/reftype values that name another namespace


def _copy(node, suffix, parent, origin, replicate):
    """A copy of ``node`` with every name suffixed; ``origin`` maps each copied node that
    has a name to (its kind, the name the file gave it, its outermost replicate)."""
    out = Node(node.tag, dict(node.attrib), node.file, node.line)
    out.parent = parent
    if "name" in out.attrib:
        kind, name = origin[node][:2] if node in origin else (KIND.get(node.tag, node.tag), out.attrib["name"])
        origin[out] = (kind, name, replicate)
        out.attrib["name"] += suffix
    out.children = [_copy(c, suffix, out, origin, replicate) for c in node.children]
    return out


def _expand(node, degrees, eulerseq, origin):
    """Replace the replicates below ``node`` (innermost first)."""
    children = []
    for child in node.children:
        if child.tag != "replicate":
            _expand(child, degrees, eulerseq, origin)
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
        _expand(child, degrees, eulerseq, origin)
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
            frame.children = [_copy(c, suffix, frame, origin, child) for c in child.children]
            children.append(frame)
            # the next copy: moved by offset in this copy's frame, then turned by the step
            pos = pos + quat_to_mat(quat) @ offset
            quat = quat_mul(quat, step)
    node.children = children


def _copies(world, origin):
    """For each (kind, name) given inside a replicate: its replicate (the outermost,
    numbered in the order of the tree) and its copies' names in the order of the tree."""
    group, copies, top = {}, {}, {}
    stack = [world]
    while stack:
        n = stack.pop()
        if n in origin:
            kind, name, replicate = origin[n]
            group.setdefault((kind, name), top.setdefault(replicate, len(top)))
            copies.setdefault((kind, name), []).append(n.attrib["name"])
        stack.extend(reversed(n.children))
    return group, copies


def _key(node, attribute, copies):
    """The (kind, name) ``attribute`` of ``node`` refers to, if that is a replicated name
    (an attribute that refers to nothing, ``class`` say, is never one)."""
    kind = REFERENCE_KIND.get(attribute)
    if attribute in ("objname", "refname"):
        kind = node.attrib.get(attribute[:3] + "type")
        kind = FRAME_KIND.get(kind, kind)
    key = (kind, node.attrib[attribute])
    return key if key in copies else None


def _references(node):
    """Every (element, attribute) below and at ``node`` but names."""
    out = [(node, a) for a in node.attrib if a != "name"]
    for c in node.children:
        out += _references(c)
    return out


def _rename(node, suffix, copies, k):
    out = Node(node.tag, dict(node.attrib), node.file, node.line)
    for a, v in node.attrib.items():
        key = None if a == "name" else _key(node, a, copies)
        out.attrib[a] = v + suffix if a == "name" else copies[key][k] if key else v
    out.children = [_rename(c, suffix, copies, k) for c in node.children]
    for c in out.children:
        c.parent = out
    return out


ACTUATOR_REFERENCES = ("joint", "jointinparent", "tendon", "site", "refsite", "body", "cranksite",
                       "slidersite")


def _check_follower(tag, element, copies):
    """Refuse what MuJoCo 4.0 does not replicate whole: an actuator that refers also to
    something outside the replicate (MuJoCo drops it)."""
    if tag == "actuator":
        for a in ACTUATOR_REFERENCES:
            if a in element.attrib and _key(element, a, copies) is None:
                raise element.error(f"refers into a <replicate> and to {element.attrib[a]!r} outside it: "
                                    "MuJoCo 4.0 drops such an actuator; not supported", a)


def expand_replicates(root, degrees, eulerseq):
    """Expand every ``<replicate>`` in ``<worldbody>`` and replicate the actuators, sensors,
    tendons and contact pairs that refer to names inside one."""
    origin = {}
    for world in (c for c in root.children if c.tag == "worldbody"):
        _expand(world, degrees, eulerseq, origin)
    if not origin:
        return
    group, copies = {}, {}
    for world in (c for c in root.children if c.tag == "worldbody"):
        g, c = _copies(world, origin)
        group.update({k: v + len(set(group.values())) for k, v in g.items()})
        copies.update(c)
    # tendons first: a sensor or an actuator on a replicated tendon is replicated with it
    for section in sorted(root.children, key=lambda c: c.tag != "tendon"):
        if section.tag in ("worldbody", "asset", "default"):
            continue
        kept, later = [], {}
        for element in section.children:
            refs = [(n, a, key) for n, a in _references(element) if (key := _key(n, a, copies))]
            if not refs:
                kept.append(element)
                continue
            n, a, v = refs[0]
            if section.tag not in REPLICATED:
                raise n.error(f"refers to {v!r} inside a <replicate>: a <{section.tag}> element is "
                              "not replicated (nor in MuJoCo)", a)
            _check_follower(section.tag, element, copies)
            for n2, a2, v2 in refs[1:]:
                if group[v2] != group[v] or len(copies[v2]) != len(copies[v]):
                    raise n2.error(f"refers to {v2[1]!r} and {v[1]!r}, inside different <replicate>s", a2)
            later.setdefault(group[v], []).append((element, v))
        for g in sorted(later):
            for k in range(len(copies[later[g][0][1]])):
                for element, v in later[g]:
                    copy = _rename(element, copies[v][k][len(v[1]):], copies, k)
                    copy.parent = section
                    kept.append(copy)
                    if "name" in element.attrib:         # others may refer to it in turn
                        kind = section.tag if section.tag != "contact" else element.tag
                        group.setdefault((kind, element.attrib["name"]), g)
                        copies.setdefault((kind, element.attrib["name"]), []).append(copy.attrib["name"])
        section.children = kept
