"""Safe XML reading for the model compilers: a small element tree that remembers line numbers.

Model files come from anywhere, so they are parsed with :mod:`defusedxml` (no DTDs, no
entity expansion, no external entities). Each element becomes a :class:`Node` that knows
its file and line, so every error can say where it is. Attribute readers
(:meth:`Node.floats`, :meth:`Node.keyword`, ...) turn text into numbers or raise
:class:`~rbdl_edu.io.errors.ModelError` naming the file, line, element and attribute.

>>> root = parse_xml('<mujoco>\\n  <body pos="0 0 1"/>\\n</mujoco>')
>>> body = root.children[0]
>>> body.line, body.floats("pos", 3)
(2, array([0., 0., 1.]))
"""
from __future__ import annotations

import math
import os

import numpy as np
from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError

from .errors import ModelError

MAX_BYTES = 50_000_000       # refuse absurd files rather than exhaust memory


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
            raise self.error(f"{name}={text!r} is not a list of numbers", name) from None
        if not np.all(np.isfinite(values)):
            raise self.error(f"{name}={text!r} holds a NaN or an infinity", name)
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
            return int(text.strip())
        except ValueError:
            raise self.error(f"{name}={text!r} is not an integer", name) from None

    def keyword(self, name, choices, default=None):
        """The attribute as one of ``choices`` (``default`` if absent)."""
        text = self.attrib.get(name)
        if text is None:
            return default
        if text.strip() not in choices:
            raise self.error(f"{name}={text!r} must be one of {sorted(choices)}", name)
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

    def start(self, tag, attrib):
        node = Node(tag, attrib, self.file, self.parser.parser.CurrentLineNumber)
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
        raise ModelError(f"unsafe XML refused: {e}", file) from None
    except (ValueError, RecursionError) as e:
        raise ModelError(f"malformed XML: {e}", file) from None
    if root is None:
        raise ModelError("empty XML document", file)
    return root


def read_file(path, node=None, attribute="file"):
    """The text of ``path``; a missing or unreadable file is a :class:`ModelError`
    located at ``node`` (the element that names the file) if given."""
    try:
        if os.path.getsize(path) > MAX_BYTES:
            raise OSError(f"larger than {MAX_BYTES} bytes")
        with open(path, "rb") as f:
            return f.read().decode("utf-8", errors="replace")
    except OSError as e:
        reason = f"cannot read {path!r}: {e.strerror or e}"
        if node is not None:
            raise node.error(reason, attribute) from None
        raise ModelError(reason, path) from None


def is_xml_text(path_or_text):
    """True if the argument looks like XML text rather than a file name."""
    return isinstance(path_or_text, str) and path_or_text.lstrip().startswith("<")


def degrees_to_radians(x):
    """``x * pi / 180`` (MJCF angles are in degrees unless ``<compiler angle="radian"/>``)."""
    return np.asarray(x, dtype=float) * (math.pi / 180.0)
