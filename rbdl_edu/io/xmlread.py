"""Safe XML reading for the model compilers: a small element tree that remembers line numbers.

Model files come from anywhere, so they are parsed with :mod:`defusedxml` (no DTDs, no
entity expansion, no external entities). Each element becomes a :class:`Node` that knows
its file and line, so every error can say where it is. Attribute readers
(:meth:`Node.floats`, :meth:`Node.keyword`, ...) turn text into numbers or raise
:class:`~rbdl_edu.io.errors.ModelError` naming the file, line, element and attribute.

Bounds that keep a hostile file from exhausting the machine or the arithmetic:

* a file is at most :data:`MAX_BYTES` long and holds at most :data:`MAX_ELEMENTS` elements;
* a number is finite and at most :data:`MAX_ABS` in magnitude (so that the products of the
  handful of numbers the dynamics multiplies, :math:`\rho s^5` or :math:`m r^2 v^2`, stay
  finite in double precision); an integer fits MuJoCo's 32-bit ``int``;
* the files a model names (includes, meshes, height fields) are read through
  :func:`resolve_file`: inside the model's folder or a folder the caller allows, regular
  files only (see :class:`FileAccess`).

>>> root = parse_xml('<mujoco>\\n  <body pos="0 0 1"/>\\n</mujoco>')
>>> body = root.children[0]
>>> body.line, body.floats("pos", 3)
(2, array([0., 0., 1.]))
"""
from __future__ import annotations

import contextlib
import math
import os
import stat

import numpy as np
from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError

from rbdl_edu.io.errors import ModelError

MAX_BYTES = 50_000_000       # refuse absurd files rather than exhaust memory
MAX_ELEMENTS = 200_000       # elements in one file, and in a model after includes and replicates
MAX_ABS = 1e20               # the largest magnitude of a number in a model file
INT_RANGE = (-2 ** 31, 2 ** 31 - 1)     # MuJoCo's int


def _short(text, n=40):
    """An attribute value for an error message, cut to ``n`` characters."""
    return repr(text if len(text) <= n else text[:n] + "...")


class Node:
    """One XML element: ``tag``, ``attrib`` (dict of strings), ``children``, ``file``, ``line``."""

    __slots__ = ("tag", "attrib", "children", "file", "line", "parent")

    def __init__(self, tag, attrib, file, line):
        self.tag, self.attrib, self.file, self.line = tag, dict(attrib), file, line
        self.children, self.parent = [], None

    def __repr__(self):
        return f"<{self.tag} {self.attrib}> at {self.file}:{self.line}"

    # -- errors ----------------------------------------------------------------------
    def error(self, reason, attribute=None):
        """A :class:`ModelError` located at this element (raise it)."""
        return ModelError(reason, self.file, self.line, self.tag, attribute)

    # -- attribute readers -------------------------------------------------------------
    def get(self, name, default=None):
        return self.attrib.get(name, default)

    def has(self, name):
        return name in self.attrib

    def floats(self, name, n=None, default=None, at_least=1):
        """The attribute as a float vector: exactly ``n`` numbers if ``n`` is given, else
        at least ``at_least``; ``default`` if the attribute is absent."""
        text = self.attrib.get(name)
        if text is None:
            return None if default is None else np.array(default, dtype=float)
        try:
            values = np.array([float(t) for t in text.split()], dtype=float)
        except ValueError:
            raise self.error(f"{name}={_short(text)} is not a list of numbers", name) from None
        if not np.all(np.isfinite(values)):
            raise self.error(f"{name}={_short(text)} holds a NaN or an infinity", name)
        if np.any(np.abs(values) > MAX_ABS):
            raise self.error(f"{name}={_short(text)} holds a number larger than {MAX_ABS:g} in magnitude", name)
        if n is not None and len(values) != n:
            raise self.error(f"{name} needs {n} numbers, got {len(values)}", name)
        if len(values) < at_least:
            raise self.error(f"{name} needs at least {at_least} number(s), got {len(values)}", name)
        return values

    def float(self, name, default=None):
        """The attribute as one float (``default`` if absent)."""
        v = self.floats(name, 1)
        return default if v is None else float(v[0])

    def int(self, name, default=None):
        """The attribute as one integer (``default`` if absent)."""
        text = self.attrib.get(name)
        if text is None:
            return default
        try:
            value = int(text.strip())
        except ValueError:
            raise self.error(f"{name}={_short(text)} is not an integer", name) from None
        if not INT_RANGE[0] <= value <= INT_RANGE[1]:
            raise self.error(f"{name}={_short(text)} does not fit a 32-bit integer", name)
        return value

    def keyword(self, name, choices, default=None):
        """The attribute as one of ``choices`` (``default`` if absent)."""
        text = self.attrib.get(name)
        if text is None:
            return default
        if text.strip() not in choices:
            raise self.error(f"{name}={_short(text)} must be one of {sorted(choices)}", name)
        return text.strip()

    def bool(self, name, default=None):
        """``"true"``/``"false"`` as a bool (``default`` if absent)."""
        v = self.keyword(name, ("true", "false"), None)
        return default if v is None else v == "true"

    def tristate(self, name, default="auto"):
        """``"true"``, ``"false"`` or ``"auto"`` (MuJoCo's ``limited``, ``ctrllimited``, ...)."""
        return self.keyword(name, ("true", "false", "auto"), default)


class _Builder:
    """The parser target: builds :class:`Node` objects, reading the line from expat."""

    def __init__(self, file):
        self.file, self.stack, self.root, self.parser = file, [], None, None
        self.count = 0

    def start(self, tag, attrib):
        line = self.parser.parser.CurrentLineNumber
        self.count += 1
        if self.count > MAX_ELEMENTS:
            raise ModelError(f"more than {MAX_ELEMENTS} elements", self.file, line, tag)
        node = Node(tag, attrib, self.file, line)
        if self.stack:
            node.parent = self.stack[-1]
            self.stack[-1].children.append(node)
        else:
            self.root = node
        self.stack.append(node)

    def end(self, tag):
        self.stack.pop()

    def data(self, text):
        pass

    def close(self):
        return self.root


def parse_xml(text, file=None):
    """Parse XML text safely into a :class:`Node` tree; any problem is a :class:`ModelError`."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if len(text) > MAX_BYTES:
        raise ModelError(f"file larger than {MAX_BYTES} bytes", file)
    builder = _Builder(file)
    parser = DefusedXMLParser(target=builder, forbid_dtd=True)
    builder.parser = parser
    try:
        parser.feed(text)
        root = parser.close()
    except ParseError as e:
        line = e.position[0] if getattr(e, "position", None) else None
        raise ModelError(f"malformed XML: {e}", file, line) from None
    except DefusedXmlException as e:
        raise ModelError(f"unsafe XML refused: {e}", file, _line(parser)) from None
    except (ValueError, RecursionError) as e:
        raise ModelError(f"malformed XML: {e}", file, _line(parser)) from None
    if root is None:
        raise ModelError("empty XML document", file)
    return root


def _line(parser):
    """The line expat is at (None if it cannot say)."""
    try:
        return parser.parser.CurrentLineNumber
    except AttributeError:
        return None


def read_file(path, node=None, attribute="file"):
    """The text of ``path`` (at most :data:`MAX_BYTES`); a missing, unreadable or special file
    (a device, a FIFO, a folder) is a :class:`ModelError` located at ``node`` (the element
    that names the file) if given."""
    return read_bytes(path, node, attribute).decode("utf-8", errors="replace")


def read_bytes(path, node=None, attribute="file"):
    """The bytes of ``path``, as :func:`read_file` reads them."""
    try:
        with open(_regular(path), "rb") as f:
            data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise OSError(f"larger than {MAX_BYTES} bytes")
        return data
    except OSError as e:
        reason = f"cannot read {os.fspath(path)!r}: {e.strerror or e}"
        if node is not None:
            raise node.error(reason, attribute) from None
        raise ModelError(reason, os.fspath(path)) from None


def _regular(path):
    """``path`` if it is a regular file (``OSError`` otherwise, before anything is opened: a
    FIFO would block, a device never end)."""
    mode = os.stat(path).st_mode
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(21, "is a folder", os.fspath(path))
    if not stat.S_ISREG(mode):
        raise OSError(f"not a regular file (a device, FIFO or socket)")
    return path


class FileAccess:
    """Where a model may read the files it names (``<include>``, meshes, height fields).

    A model file's own folder ``base_dir``, and the folders in ``allowed_dirs`` the caller
    names; nothing else: a name that leaves them (an absolute path, a ``../`` chain, a
    symbolic link pointing out) is refused, since a model from an untrusted source must not
    read the rest of the disk. XML given as text has no folder: it reads files only from an
    explicit ``base_dir`` (never the working directory).

    >>> access = FileAccess("models")
    >>> os.path.basename(access.resolve("pendulum.xml"))
    'pendulum.xml'
    >>> access.resolve("../README.md")
    Traceback (most recent call last):
        ...
    rbdl_edu.io.errors.ModelError: <string>:?: '../README.md' is outside the model's folder (a model reads files only from its own folder; pass allowed_dirs=[...] to allow another)
    """

    def __init__(self, base_dir=None, allowed_dirs=()):
        if isinstance(allowed_dirs, (str, os.PathLike)):
            allowed_dirs = (allowed_dirs,)
        self.base_dir = None if base_dir is None else os.path.abspath(os.fspath(base_dir))
        roots = ([self.base_dir] if self.base_dir else []) + [os.fspath(d) for d in allowed_dirs]
        self.roots = [os.path.realpath(r) for r in roots]

    def allows(self, path):
        """True if the real path of ``path`` lies inside an allowed folder."""
        real = os.path.realpath(path)
        return any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in self.roots)

    def resolve(self, name, node=None, attribute="file", folder=""):
        """The real path of the file ``name`` (relative to ``base_dir/folder`` unless
        absolute), checked to lie inside an allowed folder and to be a regular file."""
        def fail(reason):
            if node is not None:
                return node.error(reason, attribute)
            return ModelError(reason)
        if not name:
            raise fail("an empty file name")
        if self.base_dir is None and not os.path.isabs(os.path.join(folder, name)):
            raise fail(f"{name!r}: XML given as text reads files only from an explicit base_dir= "
                       "(the folder they are in)")
        path = os.path.join(self.base_dir or "", folder, name)
        real = os.path.realpath(path)
        if not self.allows(real):
            raise fail(f"{name!r} is outside the model's folder (a model reads files only from its "
                       "own folder; pass allowed_dirs=[...] to allow another)")
        try:
            _regular(real)
        except FileNotFoundError:
            raise fail(f"file {name!r} not found") from None
        except OSError as e:
            raise fail(f"cannot read {name!r}: {e.strerror or e}") from None
        return real


@contextlib.contextmanager
def located(node, attribute=None):
    """Inside this block, a ``ValueError`` (what :class:`~rbdl_edu.model.spec.ModelSpec` raises for
    an object it refuses) becomes a :class:`ModelError` at ``node``."""
    try:
        yield
    except ValueError as e:
        raise node.error(str(e), attribute) from None


def is_xml_text(path_or_text):
    """True if the argument looks like XML text rather than a file name."""
    return isinstance(path_or_text, str) and path_or_text.lstrip().startswith("<")


def degrees_to_radians(x):
    """``x * pi / 180`` (MJCF angles are in degrees unless ``<compiler angle="radian"/>``)."""
    return np.asarray(x, dtype=float) * (math.pi / 180.0)
