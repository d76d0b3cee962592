"""The package's layout, checked from its source text (no module is imported).

rbdl_edu is a book: a reader opens a module and should find, at its top, everything it
stands on. So the layout keeps three promises, and these tests hold it to them:

1. Every import is at the top of its module. An import hidden in a function body is a
   dependency the reader does not see (and, between rbdl_edu modules, usually a cycle
   papered over). The one exception is an *optional* dependency, which the package must
   load without: JAX, the notebook widgets, MuJoCo (listed in :data:`OPTIONAL`).
2. The modules stand on floors, ground up (:data:`FLOORS`): the array helpers, the spatial
   algebra, the model, the readers, the tree's joints, kinematics, the dynamics algorithms,
   ..., the simulation, and the lab and pictures on top. A module imports only from its own
   floor or below, and the import graph has no cycle: the book can be read bottom-up.
3. The modules stay small enough to read in one sitting (at most :data:`MAX_LINES` lines),
   and the top level of the package stays a short table of contents
   (at most :data:`MAX_TOP_LEVEL` modules).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "rbdl_edu"

#: top-level packages that the package must import without, so they may be imported where
#: they are used (inside a function). matplotlib, scipy, sympy, trimesh, PIL and tqdm are
#: NOT here: they are required dependencies (pyproject.toml), imported at a module's top.
#: gymnasium (the ``lab`` extra) is one too, and so is ``rbdl_edu.lab.env``, the one module
#: that needs it (``rbdl_edu.lab`` hands out its ``MouseEnv`` on first use); so are
#: ``rbdl_edu.lab.mujoco_engine`` (needs MuJoCo: ``get_engine("mujoco")`` imports it) and the
#: lab extra's learning libraries (cma, ray, skrl with flax and optax) and ``rbdl_edu.lab.ppo``,
#: the one module that needs skrl at its top; ``rbdl_edu.simulation.accelerated`` needs JAX
#: (``get_engine("rbdl_edu-accelerated")`` imports it).
OPTIONAL = frozenset({"jax", "jax.numpy", "pythreejs", "ipywidgets", "IPython", "mujoco", "gymnasium",
                      "rbdl_edu.lab.env", "rbdl_edu.lab.mujoco_engine", "rbdl_edu.lab.ppo", "cma", "ray", "skrl", "flax", "optax",
                      "rbdl_edu.simulation.accelerated"})

#: the floors, ground up. A name is a module (``rbdl_edu.tree``) or a subpackage
#: (``rbdl_edu.model``: the package and every module in it).
FLOORS = (
    ("rbdl_edu.arrays", "rbdl_edu.cache"),
    ("rbdl_edu.spatial", "rbdl_edu.rotation"),
    ("rbdl_edu.model",),
    ("rbdl_edu.io",),
    ("rbdl_edu.joints", "rbdl_edu.tree", "rbdl_edu.frames", "rbdl_edu.configuration"),
    ("rbdl_edu.kinematics",),
    ("rbdl_edu.rnea", "rbdl_edu.crba", "rbdl_edu.aba", "rbdl_edu.factor"),
    ("rbdl_edu.symbolic", "rbdl_edu.compiled", "rbdl_edu.derivatives"),
    ("rbdl_edu.smooth",),
    ("rbdl_edu.setconst", "rbdl_edu.models", "rbdl_edu.book"),
    ("rbdl_edu.collision",),
    ("rbdl_edu.constraint",),
    ("rbdl_edu.simulation",),
    # the loader runs a simulation (an actuator's length range, MuJoCo's mj_setLengthRange),
    # so it stands above simulation/ (nothing below imports it: the face does)
    ("rbdl_edu.loading",),
    # The package face (rbdl_edu/__init__.py) may import anything: it is exempt as an
    # importer. Its floor, as something imported, is a choice: its imports allow it just
    # above simulation/ (it imports nothing from lab/ or viz/), and there the lab's
    # environment (lab/env.py: ``import rbdl_edu``) may use it as any user does. If the
    # face ever imports lab/ or viz/, that is a cycle, which test_no_cycles catches.
    ("rbdl_edu",),
    ("rbdl_edu.lab", "rbdl_edu.viz"),
)
FACE = "rbdl_edu"

MAX_TOP_LEVEL = 26      # .py files directly in rbdl_edu/ (its table of contents)
MAX_LINES = 450         # a generous bound; the target is about 400


def module_name(path):
    """``rbdl_edu/io/mjcf.py`` -> ``rbdl_edu.io.mjcf``; ``rbdl_edu/io/__init__.py`` -> ``rbdl_edu.io``."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def relpath(path):
    return path.relative_to(PACKAGE.parent).as_posix()


def floor_of(module):
    """The index of ``module``'s floor (the longest floor name it is in), or None."""
    best = None
    for k, names in enumerate(FLOORS):
        for name in names:
            if module == name or module.startswith(name + "."):
                if best is None or len(name) > best[1]:
                    best = (k, len(name))
    return None if best is None else best[0]


def is_package(module):
    return MODULES[module].name == "__init__.py"


def imports(tree):
    """``(node, inside_function)`` for every import statement in ``tree``."""
    found = []

    def walk(node, inside):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, inside))
            walk(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(tree, False)
    return found


def absolute(node, module):
    """The module an ``ImportFrom`` names, with relative imports (``from . import x``) resolved."""
    if not node.level:
        return node.module
    package = module if is_package(module) else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imported_modules(node, module):
    """The rbdl_edu modules (files) an import statement loads: ``import rbdl_edu.x.y`` ->
    ``rbdl_edu.x.y``; ``from rbdl_edu.x import y`` -> ``rbdl_edu.x.y`` if that is a submodule,
    else ``rbdl_edu.x``."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in MODULES]
    source = absolute(node, module)
    if source not in MODULES:
        return []
    out = []
    for a in node.names:
        sub = f"{source}.{a.name}"
        out.append(sub if sub in MODULES else source)
    return list(dict.fromkeys(out))


def top_package(node, module):
    """The names an import statement imports from outside: ``import jax.numpy as jnp`` ->
    ``["jax.numpy"]``, ``from matplotlib.patches import X`` -> ``["matplotlib.patches"]``."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    return [absolute(node, module)]


def is_optional(name):
    return name in OPTIONAL or name.split(".")[0] in OPTIONAL


TREES = {m: ast.parse(p.read_text(encoding="utf-8"), filename=str(p)) for m, p in MODULES.items()}


def import_graph():
    """module -> {imported module: line} for the module-level imports between rbdl_edu modules."""
    graph = {m: {} for m in MODULES}
    for m, tree in TREES.items():
        for node, inside in imports(tree):
            if inside:
                continue
            for target in imported_modules(node, m):
                graph[m].setdefault(target, node.lineno)
    return graph


# --- 1. every import at the top ---------------------------------------------------------------

def test_no_imports_inside_functions():
    """A function body imports only an optional dependency (OPTIONAL); every other import,
    of rbdl_edu or of a required package, stands at the top of its module, where the
    reader sees what the module stands on."""
    hidden = []
    for m, tree in TREES.items():
        for node, inside in imports(tree):
            if inside and not all(is_optional(name) for name in top_package(node, m)):
                hidden.append(f"{relpath(MODULES[m])}:{node.lineno}: {ast.unparse(node)}")
    assert not hidden, ("imports inside function bodies (only optional dependencies "
                        f"{sorted(OPTIONAL)} may be):\n  " + "\n  ".join(hidden))


def test_the_scan_sees_a_hidden_import():
    """The scan itself: it finds an import in a nested function and in a method, lets an
    optional one through, and resolves ``from rbdl_edu.x import submodule`` to the submodule."""
    tree = ast.parse("import numpy\n"
                     "def f():\n    def g():\n        import scipy.linalg\n"
                     "class C:\n    def m(self):\n        from jax import numpy as jnp\n")
    inside = [(ast.unparse(n), n.lineno) for n, i in imports(tree) if i]
    assert inside == [("import scipy.linalg", 4), ("from jax import numpy as jnp", 7)]
    assert [is_optional(top_package(ast.parse(s).body[0], "rbdl_edu")[0]) for s, _ in inside] == [False, True]
    node = ast.parse("from rbdl_edu.collision import box, collide").body[0]
    assert imported_modules(node, "rbdl_edu.simulation.forward") == ["rbdl_edu.collision.box", "rbdl_edu.collision"]
    node = ast.parse("from .state import scale").body[0]
    assert imported_modules(node, "rbdl_edu.constraint.pgs") == ["rbdl_edu.constraint.state"]


# --- 2. floors, no cycles -----------------------------------------------------------------------

def test_every_module_has_a_floor():
    """A new module is given its floor here, so the next test can check what it imports."""
    homeless = [m for m in MODULES if floor_of(m) is None]
    assert not homeless, f"modules on no floor (add them to FLOORS): {homeless}"


def find_cycles(graph):
    """The strongly connected components with more than one module (or a module importing
    itself): Tarjan's algorithm."""
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_find_cycles_finds_one():
    assert find_cycles({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b": 1}, "b": {}}) == []


def test_no_import_cycles():
    """The modules can be read (and loaded) bottom-up: no module imports, through others,
    itself."""
    graph = import_graph()
    cycles = find_cycles(graph)
    assert not cycles, "import cycles:\n  " + "\n  ".join(" <-> ".join(c) for c in cycles)


def test_no_import_points_up_a_floor():
    """Each module imports from its own floor or below (the package face excepted)."""
    graph = import_graph()
    names = [" ".join(n.removeprefix("rbdl_edu.") for n in names) for names in FLOORS]
    up = []
    for m, targets in graph.items():
        if m == FACE:
            continue
        fm = floor_of(m)
        for t, line in targets.items():
            ft = floor_of(t)
            if fm is not None and ft is not None and ft > fm:
                up.append(f"{relpath(MODULES[m])}:{line}: {m} (floor {fm}: {names[fm]}) -> "
                          f"{t} (floor {ft}: {names[ft]})")
    assert not up, "imports that point up a floor:\n  " + "\n  ".join(up)


# --- 3. sizes -----------------------------------------------------------------------------------

def test_top_level_is_a_short_table_of_contents():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL, f"{len(top)} modules directly in rbdl_edu/ (at most {MAX_TOP_LEVEL}): {top}"


def test_no_module_is_too_long():
    """At most MAX_LINES lines a module (the target is about 400): split the longer ones."""
    long = sorted((len(p.read_text(encoding="utf-8").splitlines()), relpath(p)) for p in MODULES.values())
    over = [f"{path}: {n} lines" for n, path in long if n > MAX_LINES]
    assert not over, f"modules over {MAX_LINES} lines:\n  " + "\n  ".join(over)


@pytest.mark.parametrize("floor", range(len(FLOORS)))
def test_each_floor_is_inhabited(floor):
    """Every name in FLOORS is a module or package that exists (a renamed module must be
    renamed here too, or its imports go unchecked)."""
    missing = [n for n in FLOORS[floor] if n not in MODULES]
    assert not missing, f"FLOORS names modules that do not exist: {missing}"
