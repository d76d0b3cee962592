"""Sphinx extension (listed in ``_config.yml``): keep the built site free of outside requests.

After the HTML is written:

- a ``<script>`` element that appears twice in a page's ``<head>`` is written once (Jupyter
  Book 1 emits sphinx-thebe's and sphinx-togglebutton's inline set-up twice, and a second
  ``const THEBE_JS_URL`` is a page error);
- every page is checked: a ``<script src>``, stylesheet ``<link href>``, ``<img src>`` or
  ``<iframe src>`` that points off the site is reported as a warning, which
  ``jupyter-book build -W`` turns into a failed build. (Ordinary ``<a href>`` links to
  other sites are fine: they are not loaded unless clicked.)
"""
from __future__ import annotations

import re
from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)
EXTERNAL = re.compile(
    r"""<(?:script|img|iframe|source|audio|video)\b[^>]*\bsrc=["'](?:https?:)?//[^"']+["']"""
    r"""|<link\b(?=[^>]*\brel=["'](?:stylesheet|preload|modulepreload|icon)["'])[^>]*\bhref=["'](?:https?:)?//[^"']+["']""",
    re.IGNORECASE)
SCRIPT = re.compile(r"[ \t]*<script\b[^>]*>.*?</script>[ \t]*\n?", re.DOTALL | re.IGNORECASE)


def dedupe_head_scripts(html: str) -> str:
    """Drop repeated identical ``<script>`` elements from the ``<head>``.

    >>> dedupe_head_scripts("<head><script>a</script>\\n<script>a</script>\\n</head><body></body>")
    '<head><script>a</script>\\n</head><body></body>'
    """
    end = html.find("</head>")
    if end < 0:
        return html
    seen = set()

    def keep_first(m):
        key = m.group(0).strip()
        if key in seen:
            return ""
        seen.add(key)
        return m.group(0)

    return SCRIPT.sub(keep_first, html[:end]) + html[end:]


def _finish(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    for page in sorted(Path(app.outdir).rglob("*.html")):
        text = page.read_text(encoding="utf-8", errors="replace")
        fixed = dedupe_head_scripts(text)
        if fixed != text:
            page.write_text(fixed, encoding="utf-8")
        for m in EXTERNAL.finditer(fixed):
            logger.warning("%s loads an outside resource: %s", page.relative_to(app.outdir), m.group(0)[:200],
                           type="offline", subtype="external")


def setup(app):
    app.connect("build-finished", _finish)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
