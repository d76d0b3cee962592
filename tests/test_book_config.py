"""The book's configuration: the table of contents names real files, and every file the pages
load from the site itself (MathJax, require.js, the widget manager, the pythreejs bundle) is
one that tools/fetch_static.py provides. The README's quickstart runs from any directory and
names the three commands; chapters 5-7 include their algorithm's source file (not a copy)."""
import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import sphinx_offline  # noqa: E402


def toc_files(node):
    if isinstance(node, dict):
        if "file" in node:
            yield node["file"]
        for v in node.values():
            yield from toc_files(v)
    elif isinstance(node, list):
        for v in node:
            yield from toc_files(v)


def test_toc_entries_exist():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"], *toc_files(toc["parts"])]
    assert len(files) == len(set(files))
    for f in files:
        assert any((ROOT / (f + ext)).exists() for ext in (".md", ".ipynb")), f"_toc.yml lists a missing page: {f}"
    assert {p["caption"] for p in toc["parts"]} >= {"Preface", "Foundations", "Dynamics", "Contacts", "Appendices"}


def test_pages_load_only_assets_the_site_serves():
    subprocess.run([sys.executable, str(ROOT / "tools" / "fetch_static.py")], check=True, cwd=ROOT)
    cfg = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["config"]
    static = ROOT / "_offline" / "_static"                   # copied to _build/html/_static
    assert cfg["html_extra_path"] == ["_offline"]
    assert (static / cfg["mathjax_path"]).is_file()
    for path, attrs in cfg["nb_ipywidgets_js"].items():
        assert "://" not in path and (static / path).is_file(), path
        assert all("://" not in str(v) for v in attrs.values()), attrs
    assert (static / "offline" / "jupyter-threejs" / "index.js").is_file()
    assert not (ROOT / "_static").exists() or not list((ROOT / "_static").rglob("*.js")), \
        "JavaScript in _static/ would be added to every page by Jupyter Book"


def test_repeated_head_scripts_are_written_once():
    html = ("<html><head><script>const A = 1;</script>\n<script src='x.js'></script>\n"
            "<script>const A = 1;</script>\n</head><body><script>const A = 1;</script></body></html>")
    out = sphinx_offline.dedupe_head_scripts(html)
    head, body = out.split("</head>")
    assert head.count("const A = 1;") == 1 and "x.js" in head
    assert body.count("const A = 1;") == 1                  # the body is left alone


def test_outside_resources_are_recognised():
    bad = ['<script src="https://cdn.jsdelivr.net/npm/x.js"></script>',
           '<link rel="stylesheet" href="//fonts.example.org/a.css">', '<img src="http://x.org/a.png">']
    good = ['<a href="https://mujoco.org">MuJoCo</a>', '<script src="../_static/offline/require.js"></script>',
            '<link rel="canonical" href="https://example.org/">']
    assert all(sphinx_offline.EXTERNAL.search(s) for s in bad)
    assert not any(sphinx_offline.EXTERNAL.search(s) for s in good)


def readme_python_blocks():
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_readme_quickstart_runs_from_any_directory(tmp_path):
    """The README's quickstart, run as a script from a folder that is not the repository."""
    (block,) = readme_python_blocks()
    script = tmp_path / "quickstart.py"
    script.write_text(block)
    res = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


def test_readme_names_the_three_commands():
    text = (ROOT / "README.md").read_text()
    for command in ("make book", "make test", "make lab"):
        assert f"$ {command}" in text, command
    makefile = (ROOT / "Makefile").read_text()
    assert all(re.search(rf"^{target}:", makefile, re.M) for target in ("book", "test", "lab"))


def literalincludes():
    """``(notebook, path, pyobject)`` of every ``{literalinclude}`` in a chapter's markdown."""
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(nb.read_text())["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            text = "".join(cell["source"])
            for m in re.finditer(r"```\{literalinclude\} (\S+)\n((?::\w[\w-]*:.*\n)*)", text):
                obj = re.search(r":pyobject: (\S+)", m.group(2))
                yield nb.name, m.group(1), obj.group(1) if obj else None


def test_chapters_5_to_7_include_their_algorithm_source():
    included = {(nb, path, obj) for nb, path, obj in literalincludes()}
    assert {("05-inverse-dynamics.ipynb", "../rbdl_edu/rnea.py", "rnea"),
            ("06-mass-matrix.ipynb", "../rbdl_edu/crba.py", "crba"),
            ("07-forward-dynamics.ipynb", "../rbdl_edu/aba.py", "aba")} <= included
    for nb, path, obj in included:
        source = (ROOT / "notebooks" / path).resolve()
        assert source.is_file(), (nb, path)
        if obj:
            names = {n.name for n in ast.parse(source.read_text()).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
            assert obj in names, (nb, path, obj)


def test_one_search_field_and_lab_copies_excluded():
    cfg = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert cfg["sphinx"]["config"]["html_theme_options"]["navbar_persistent"] == []
    assert "_lab" in cfg["exclude_patterns"]
