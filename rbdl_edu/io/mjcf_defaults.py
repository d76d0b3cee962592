"""MJCF before compiling: ``<include>`` files, ``<default>`` classes and the attribute schema.

* ``<include file="part.xml"/>`` is replaced by the children of ``part.xml``'s ``<mujoco>``
  root (the path is relative to the main file's directory, and must stay inside the
  folders a :class:`~rbdl_edu.io.xmlread.FileAccess` allows), recursively.
* ``<default class="...">`` elements nest: a class starts from its parent's values and
  overrides some. An element uses its ``class`` attribute, else the ``childclass`` of the
  nearest enclosing body or frame, else the top-level class ``"main"``. Attributes written
  on the element itself always win.
* :data:`SCHEMA` lists, per element, the attributes the compiler understands. Anything
  else is an error, as in MuJoCo, so a typo never silently changes physics. Elements in
  :data:`IGNORED` are purely visual (cameras, lights, textures, ...) and are skipped.
  The elements of :data:`LEAVES` hold no elements: a child of one (``<geom><body/></geom>``)
  is an error, as in MuJoCo, never silently dropped.

>>> from rbdl_edu.io.xmlread import parse_xml
>>> root = parse_xml('''<mujoco><default><geom density="500"/>
...   <default class="light"><geom density="50"/></default></default></mujoco>''')
>>> defaults = Defaults(root)
>>> defaults.attrib("light", "geom"), defaults.attrib("main", "geom")
({'density': '50'}, {'density': '500'})
"""
from __future__ import annotations


from rbdl_edu.io.xmlread import MAX_ELEMENTS, FileAccess, Node, parse_xml, read_file

_ORIENT = {"quat", "axisangle", "euler", "xyaxes", "zaxis"}
_CONTACT = {"contype", "conaffinity", "condim", "priority", "friction", "solmix", "solref",
            "solimp", "margin", "gap", "adhesion"}
_ACTUATOR = {"name", "class", "group", "ctrllimited", "forcelimited", "actlimited", "ctrlrange",
             "forcerange", "actrange", "lengthrange", "gear", "cranklength", "joint",
             "jointinparent", "tendon", "site", "body", "refsite", "cranksite", "slidersite",
             "user", "actdim", "delay", "nsample", "interp"}

# element -> attributes the compiler reads (physics) or accepts (no effect on dynamics)
SCHEMA = {
    "mujoco": {"model"},
    "compiler": {"angle", "eulerseq", "inertiafromgeom", "autolimits", "boundmass",
                 "boundinertia", "balanceinertia", "settotalmass", "meshdir", "assetdir",
                 "texturedir", "coordinate", "inertiagrouprange", "strippath", "discardvisual",
                 "usethread", "fitaabb", "saveinertial", "alignfree", "fusestatic"},
    "lengthrange": {"mode", "useexisting", "uselimit", "accel", "maxforce", "timeconst", "timestep",
                    "inttotal", "interval", "tolrange"},
    "option": {"timestep", "gravity", "wind", "magnetic", "density", "viscosity", "impratio",
               "tolerance", "ls_tolerance", "noslip_tolerance", "ccd_tolerance", "integrator",
               "cone", "jacobian", "solver", "iterations", "ls_iterations", "noslip_iterations",
               "ccd_iterations", "sdf_iterations", "sdf_initpoints", "o_margin", "o_solref",
               "o_solimp", "o_friction", "actuatorgroupdisable", "apirate", "sleep_tolerance"},
    "flag": {"constraint", "equality", "frictionloss", "limit", "contact", "spring", "damper",
             "gravity", "clampctrl", "warmstart", "filterparent", "actuation", "refsafe",
             "sensor", "midphase", "eulerdamp", "autoreset", "nativeccd", "island", "override",
             "energy", "fwdinv", "invdiscrete", "multiccd", "sleep", "passive"},
    # (all accepted; only nkey changes the model)
    "size": {"memory", "njmax", "nconmax", "nstack", "nuserdata", "nkey", "nuser_body",
             "nuser_jnt", "nuser_geom", "nuser_site", "nuser_cam", "nuser_tendon",
             "nuser_actuator", "nuser_sensor"},
    "body": {"name", "childclass", "pos", "mocap", "gravcomp", "user", "sleep"} | _ORIENT,
    "frame": {"name", "childclass", "pos"} | _ORIENT,
    "inertial": {"pos", "mass", "diaginertia", "fullinertia"} | _ORIENT,
    "joint": {"name", "class", "type", "group", "pos", "axis", "springdamper", "limited",
              "actuatorfrclimited", "actuatorgravcomp", "solreflimit", "solimplimit",
              "solreffriction", "solimpfriction", "stiffness", "range", "actuatorfrcrange",
              "margin", "ref", "springref", "armature", "damping", "frictionloss", "user",
              "springyield"},
    "freejoint": {"name", "group", "align"},
    "geom": {"name", "class", "type", "group", "size", "material", "rgba", "mass", "density",
             "shellinertia", "fromto", "pos", "hfield", "mesh", "fitscale", "user",
             "fluidshape", "fluidcoef", "surfacevel"} | _CONTACT | _ORIENT,
    "site": {"name", "class", "type", "group", "pos", "material", "size", "fromto", "rgba",
             "user"} | _ORIENT,
    "camera": {"name", "class", "mode", "target", "projection", "fovy", "resolution", "output", "sensorsize",
               "focal", "focalpixel", "principal", "principalpixel", "ipd", "pos", "user"} | _ORIENT,
    "mesh": {"name", "class", "file", "content_type", "scale", "refpos", "refquat", "inertia",
             "vertex", "normal", "texcoord", "face", "smoothnormal", "maxhullvert", "builtin",
             "params", "material"},
    "hfield": {"name", "content_type", "file", "nrow", "ncol", "elevation", "size"},
    "motor": _ACTUATOR,
    "position": _ACTUATOR | {"kp", "kv", "dampratio", "timeconst", "inheritrange"},
    "velocity": _ACTUATOR | {"kv"},
    "intvelocity": _ACTUATOR | {"kp", "kv", "dampratio", "inheritrange"},
    "damper": _ACTUATOR | {"kv"},
    "adhesion": {"name", "class", "group", "delay", "nsample", "interp", "forcelimited", "ctrlrange",
                 "forcerange", "user", "body", "gain"},
    # a muscle has no site, body or refsite transmission and no activation range (as MuJoCo)
    "muscle": (_ACTUATOR - {"site", "body", "refsite", "actlimited", "actrange", "actdim"})
              | {"timeconst", "tausmooth", "range", "force", "scale", "lmin", "lmax", "vmax", "fpmax",
                 "fvmax"},
    # a pneumatic or hydraulic cylinder: no body transmission, its one activation not limited (as MuJoCo)
    "cylinder": (_ACTUATOR - {"body", "actlimited", "actrange", "actdim"}) | {"timeconst", "area", "diameter", "bias"},
    "general": _ACTUATOR | {"dyntype", "gaintype", "biastype", "dynprm", "gainprm", "biasprm",
                            "actearly", "input", "velrange", "ffrange"},
    # MuJoCo 4.0's PID servo: no activation range or actdim of its own (as MuJoCo)
    "pid": (_ACTUATOR - {"actlimited", "actrange", "actdim"})
           | {"kp", "kv", "dampratio", "ki", "imax", "slewmax", "input", "posrange", "velrange", "ffrange",
              "inheritrange"},
    # MuJoCo 4.0's SO(3) servo: a ball joint or a site with a reference site, no gear, no states
    "orientation": {"name", "class", "group", "ctrlrange", "forcelimited", "forcerange", "user", "joint", "site",
                    "refsite", "kp", "kv", "dampratio", "input", "delay", "nsample", "interp"},
    # a DC motor's states are never clamped and its force limit is its saturation (as MuJoCo)
    "dcmotor": (_ACTUATOR - {"actlimited", "actrange", "actdim", "forcelimited", "forcerange"})
               | {"resistance", "motorconst", "nominal", "inductance", "thermal", "saturation", "cogging",
                  "lugre", "input", "controller"},
    "pair": {"name", "class", "geom1", "geom2", "condim", "friction", "solref", "solreffriction",
             "solimp", "gap", "margin", "adhesion"},
    "exclude": {"name", "body1", "body2"},
    "connect": {"name", "class", "body1", "body2", "site1", "site2", "anchor", "active",
                "solref", "solimp"},
    "weld": {"name", "class", "body1", "body2", "site1", "site2", "anchor", "relpose",
             "torquescale", "active", "solref", "solimp"},
    "equality_joint": {"name", "class", "joint1", "joint2", "polycoef", "active", "solref", "solimp"},
    "equality_tendon": {"name", "class", "tendon1", "tendon2", "polycoef", "active", "solref",
                        "solimp"},
    "spatial": {"name", "class", "group", "limited", "actuatorfrclimited", "range",
                "actuatorfrcrange", "solreflimit", "solimplimit", "solreffriction",
                "solimpfriction", "frictionloss", "springlength", "margin", "stiffness",
                "damping", "armature", "user", "rgba", "material", "width", "springyield"},
    "fixed": {"name", "class", "group", "limited", "actuatorfrclimited", "range",
              "actuatorfrcrange", "solreflimit", "solimplimit", "solreffriction",
              "solimpfriction", "frictionloss", "springlength", "margin", "stiffness",
              "damping", "armature", "user", "rgba", "material", "width", "springyield"},
    "tendon_joint": {"joint", "coef"},
    "tendon_site": {"site"},
    "tendon_geom": {"geom", "sidesite"},
    "tendon_pulley": {"divisor"},
    "_equality": {"active", "solref", "solimp"},
    "key": {"name", "time", "qpos", "qvel", "act", "ctrl", "mpos", "mquat"},
    "include": {"file"},
}
# sensors: all share one attribute set
_SENSOR = {"name", "noise", "cutoff", "user", "site", "joint", "actuator", "tendon", "body",
           "objtype", "objname", "reftype", "refname", "geom1", "geom2", "body1", "body2",
           "nsample", "interp", "delay", "interval", "camera", "enclosed", "data", "num", "reduce",
           "subtree1", "subtree2"}
SENSORS = {"touch", "accelerometer", "velocimeter", "gyro", "force", "torque", "magnetometer",
           "rangefinder", "camprojection", "jointpos", "jointvel", "tendonpos", "tendonvel",
           "actuatorpos", "actuatorvel", "actuatorfrc", "jointactuatorfrc", "tendonactuatorfrc",
           "ballquat", "ballangvel", "jointlimitpos", "jointlimitvel", "jointlimitfrc",
           "tendonlimitpos", "tendonlimitvel", "tendonlimitfrc", "framepos", "framequat",
           "framexaxis", "frameyaxis", "framezaxis", "framelinvel", "frameangvel",
           "framelinacc", "frameangacc", "subtreecom", "subtreelinvel", "subtreeangmom",
           "distance", "normal", "fromto", "clock", "e_potential", "e_kinetic", "insidesite",
           "contact", "tactile"}
#: what only a <pid> default gives to <pid> elements (rbdl_edu.io.mjcf_pid.OWN)
PID_OWN = ("kp", "kv", "dampratio", "ki", "imax", "slewmax")
#: the gains a <pid> or <orientation> default gives only to its own kind (MuJoCo 4.0)
OWN_GAINS = {"pid": PID_OWN, "orientation": ("kp", "kv", "dampratio")}
ACTUATORS = ("motor", "position", "velocity", "intvelocity", "damper", "cylinder", "muscle", "adhesion",
             "dcmotor", "pid", "orientation", "general")
# purely visual or bookkeeping: skipped with their whole subtree
IGNORED = {"visual", "statistic", "camera", "light", "texture", "material", "skin", "custom",
           "model", "sleep"}
# what <default> may hold
DEFAULTABLE = {"joint", "geom", "site", "mesh", "pair", "equality", "tendon", "general", "motor",
               "position", "velocity", "intvelocity", "damper", "camera", "light", "material",
               "flex", "flexcomp", "cylinder", "muscle", "adhesion", "dcmotor", "pid", "orientation"}


# elements that hold no elements (MuJoCo's schema; a <plugin> child is not supported)
LEAVES = ({"lengthrange", "joint", "freejoint", "geom", "site", "inertial", "mesh", "pair", "exclude", "connect",
           "weld", "equality_joint", "equality_tendon", "_equality", "tendon_joint", "tendon_site",
           "tendon_geom", "tendon_pulley", "key", "flag", "size", "include", "camera", "light"}
          | set(ACTUATORS) | SENSORS)


def check_attributes(node, schema_key=None):
    """Raise a :class:`ModelError` if ``node`` has an attribute the compiler does not know, or
    holds an element although it is one of the :data:`LEAVES`."""
    key = schema_key or node.tag
    if key in LEAVES and node.children:
        child = node.children[0]
        raise child.error(f"<{child.tag}> cannot be inside <{node.tag}>")
    allowed = SCHEMA.get(key, set())
    if allowed is None:
        return
    if key in SENSORS:
        allowed = _SENSOR
    for name in node.attrib:
        if name not in allowed:
            raise node.error(f"unknown attribute {name!r} for <{node.tag}>", name)


# -- includes ----------------------------------------------------------------------------
MAX_INCLUDES = 1000          # a file may not pull in more files than this (include bombs)


def expand_includes(node, files, seen=(), depth=0, budget=None):
    """Replace every ``<include file=.../>`` under ``node`` by the included file's elements;
    ``files`` is the :class:`~rbdl_edu.io.xmlread.FileAccess` that says which files may be
    read. At most :data:`MAX_INCLUDES` files, and :data:`~rbdl_edu.io.xmlread.MAX_ELEMENTS`
    elements in all of them together."""
    if not isinstance(files, FileAccess):           # a folder: the model's own
        files = FileAccess(files)
    budget = {"files": MAX_INCLUDES, "elements": MAX_ELEMENTS} if budget is None else budget
    out = []
    for child in node.children:
        if child.tag != "include":
            expand_includes(child, files, seen, depth, budget)
            out.append(child)
            continue
        budget["files"] -= 1
        if budget["files"] < 0:
            raise child.error(f"more than {MAX_INCLUDES} includes", "file")
        check_attributes(child)
        if "file" not in child.attrib:
            raise child.error("<include> needs a file", "file")
        name = child.attrib["file"]
        path = files.resolve(name, child)
        if path in seen or depth > 20:
            raise child.error(f"recursive include of {name!r}", "file")
        sub = parse_xml(read_file(path, child), file=path)
        if sub.tag != "mujoco":
            raise sub.error("an included file must have a <mujoco> root element")
        budget["elements"] -= _count(sub)
        if budget["elements"] < 0:
            raise child.error(f"the included files hold more than {MAX_ELEMENTS} elements", "file")
        expand_includes(sub, files, seen + (path,), depth + 1, budget)
        for grandchild in sub.children:
            grandchild.parent = node
            out.append(grandchild)
    node.children = out
    return node


def _count(node):
    """The number of elements in the tree under ``node`` (itself included)."""
    return 1 + sum(_count(c) for c in node.children)


# -- default classes ---------------------------------------------------------------------
class Defaults:
    """The ``<default>`` classes of a model: ``attrib(class, tag)`` gives the attribute
    values that class sets for elements ``tag`` (inherited from its ancestors)."""

    def __init__(self, root):
        self.classes = {"main": {}}
        self.parent, self.chains = {"main": None}, {"main": []}
        # every top-level <default> adds to the class "main", in document order (as in
        # MuJoCo 4.0); a class nested in one inherits what "main" holds at that point
        for top in (c for c in root.children if c.tag == "default"):
            if top.get("class", "main") != "main":
                raise top.error("a top-level <default> is the class 'main' and cannot be renamed", "class")
            self._read(top, "main", self.classes["main"])

    def _read(self, node, name, inherited, parent=None):
        if set(node.attrib) - {"class"}:
            bad = sorted(set(node.attrib) - {"class"})[0]
            raise node.error(f"unknown attribute {bad!r} for <default>", bad)
        values = {tag: dict(a) for tag, a in inherited.items()}
        own = {}
        for child in node.children:
            if child.tag == "default":
                continue
            if child.tag not in DEFAULTABLE:
                raise child.error(f"<{child.tag}> cannot appear in <default>")
            if child.tag in ("light", "material", "flex", "flexcomp"):
                continue
            key = child.tag
            check_attributes(child, {"tendon": "fixed", "equality": "_equality"}.get(key, key))
            if "class" in child.attrib:
                raise child.error("an element inside <default> cannot name a class", "class")
            for k in (key, "actuator") if key in ACTUATORS else (key,):
                # (as in MuJoCo, all actuator kinds in one class share a single default; a
                # PID's gains are its own, as MuJoCo 4.0 reads them)
                own_gains = OWN_GAINS.get(key, ()) if k != key else ()
                given = {n: v for n, v in child.attrib.items() if n not in own_gains}
                values.setdefault(k, {}).update(given)
                own.setdefault(k, {}).update(given)
        self.classes[name] = values
        self.parent[name] = parent
        # what each class from "main" down wrote, as it was when this one was read (each
        # top-level <default> is one more entry of "main")
        self.chains[name] = (self.chains[parent] if parent else self.chains["main"]) + [own]
        for child in node.children:
            if child.tag == "default":
                sub = child.get("class")
                if not sub:
                    raise child.error("a nested <default> needs a class name", "class")
                if sub in self.classes:
                    raise child.error(f"default class {sub!r} defined twice", "class")
                self._read(child, sub, values, name)

    def attrib(self, cls, tag):
        """Attribute values class ``cls`` gives to elements ``tag`` (a fresh dict)."""
        return dict(self.classes[cls].get(tag, {}))

    def chain(self, cls, tag):
        """The values each class from ``"main"`` down to ``cls`` itself writes for ``tag``
        (to fill vectors that a class gives only partly)."""
        return [own.get(tag, {}) for own in self.chains[cls]]

    def resolve(self, node, childclass="main", tag=None):
        """A copy of ``node`` whose attributes are its class's defaults overridden by its own."""
        cls = node.get("class", childclass)
        if cls not in self.classes:
            raise node.error(f"unknown default class {cls!r}", "class")
        merged = self.attrib(cls, tag or node.tag)
        merged.update({k: v for k, v in node.attrib.items() if k != "class"})
        out = Node(node.tag, merged, node.file, node.line)
        out.children, out.parent = node.children, node.parent
        return out

    def check_class(self, node, attribute="childclass"):
        """The class named by ``node``'s ``attribute`` (must exist), or None."""
        cls = node.get(attribute)
        if cls is not None and cls not in self.classes:
            raise node.error(f"unknown default class {cls!r}", attribute)
        return cls
