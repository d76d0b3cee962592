"""Run the course end to end on the committed submissions: release, autograde, feedback, grades.

    python course/run_course.py [--out _build/course] [--assignments 01-spatial-algebra ...]

(``make course`` runs it.) Everything happens in a scratch copy of ``course/`` (by default
``_build/course``), so the committed files are never touched. With nbgrader 0.9 and an
SQLite gradebook, no server:

1. ``nbgrader generate_assignment``: the student versions, in ``release/<assignment>/``;
2. the committed submissions ``test_submissions/<student>/<assignment>/`` are copied to
   ``submitted/``, where students' work arrives in a real course;
3. ``nbgrader autograde``: each submission runs in a fresh kernel, with the instructor's
   test cells (hidden tests included) put back in place of the student's copies;
4. the written answers of the committed submissions are graded from
   ``test_submissions/manual_grades.json``, as an instructor does in the formgrader;
5. ``nbgrader generate_feedback``: ``feedback/<student>/<assignment>/<assignment>.html``;
6. ``nbgrader export``: ``grades.csv``;
7. a table of scores is printed and written, with the failing tests, to ``scores.json``.

Exit status 0 means every submission was graded (a submission that raises, loops forever or
lost a test cell is graded too); it says nothing about the scores: read the table.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

COURSE = Path(__file__).resolve().parent
ROOT = COURSE.parent
ASSIGNMENTS = sorted(p.name for p in (COURSE / "source").iterdir() if p.is_dir())
# what the scratch copy leaves out: products of earlier runs in course/ itself
SKIP = shutil.ignore_patterns("gradebook.db", "release", "submitted", "autograded", "feedback",
                              "grades.csv", "scores.json", "logs", "__pycache__", ".ipynb_checkpoints")


def nbgrader(args, cwd, log):
    """Run ``nbgrader <args>`` in ``cwd``, its output to ``log``; a failure raises with the log's end."""
    env = dict(os.environ)
    # nbgrader runs `alembic` (its database migrations) as a program: it must be on PATH
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    with open(log, "w") as out:
        result = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=cwd, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        tail = "".join(Path(log).read_text().splitlines(keepends=True)[-30:])
        raise RuntimeError(f"`nbgrader {' '.join(args)}` failed (exit {result.returncode}); "
                           f"end of {log}:\n{tail}")


def apply_manual_grades(db_url, grades):
    """Score the written answers as the formgrader would: ``grades[student][assignment][cell]``
    is ``{"score": points, "comment": text}``."""
    from nbgrader.api import Gradebook
    with Gradebook(db_url) as gb:
        for student, per_assignment in grades.items():
            for assignment, per_cell in per_assignment.items():
                try:
                    gb.find_submission(assignment, student)
                except Exception:
                    continue                                  # not graded in this run
                for cell, grade in per_cell.items():
                    g = gb.find_grade(cell, assignment, assignment, student)
                    g.manual_score = grade["score"]
                    g.needs_manual_grade = False
                    comment = gb.find_comment(cell, assignment, assignment, student)
                    comment.manual_comment = grade.get("comment", "")
                gb.db.commit()


def collect_scores(db_url):
    """``{assignment: {student: {...}}}`` from the gradebook: test points, written points
    (None while ungraded), totals, and the test cells that did not get full marks."""
    from nbgrader.api import Gradebook
    scores = {}
    with Gradebook(db_url) as gb:
        for assignment in gb.assignments:
            for sub in assignment.submissions:
                tests = [g for nb in sub.notebooks for g in nb.grades if g.cell.cell_type == "code"]
                written = [g for nb in sub.notebooks for g in nb.grades if g.cell.cell_type == "markdown"]
                pending = any(g.manual_score is None for g in written)
                scores.setdefault(assignment.name, {})[sub.student.id] = {
                    "tests": sum(g.score for g in tests),
                    "tests_max": sum(g.max_score for g in tests),
                    "written": None if pending else sum(g.score for g in written),
                    "written_max": sum(g.max_score for g in written),
                    "total": sub.score,
                    "max": sub.max_score,
                    "failing": [g.name for g in tests if g.score < g.max_score],
                    "needs_manual_grade": sub.needs_manual_grade,
                }
    return scores


def table(scores):
    """The scores as a text table, one row per (assignment, student)."""
    def pts(x):
        return f"{x:g}" if x is not None else "-"
    rows = [("assignment", "student", "tests", "written", "total", "tests that lost points")]
    for assignment in sorted(scores):
        for student in sorted(scores[assignment], key=lambda s: (s != "correct", s != "wrong", s)):
            s = scores[assignment][student]
            written = (f"{pts(s['written'])}/{pts(s['written_max'])}" if s["written"] is not None
                       else f"ungraded/{pts(s['written_max'])}")
            rows.append((assignment, student, f"{pts(s['tests'])}/{pts(s['tests_max'])}", written,
                         f"{pts(s['total'])}/{pts(s['max'])}", ", ".join(s["failing"]) or "-"))
    widths = [max(len(r[k]) for r in rows) for k in range(5)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r[:5], widths)) + "  " + r[5] for r in rows]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def run(out, assignments):
    """The whole pipeline in the scratch directory ``out``; returns the scores."""
    out = Path(out).resolve()
    if out == COURSE:
        raise ValueError("--out must not be course/ itself: the pipeline writes into its directory")
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(COURSE, out, ignore=SKIP)
    logs = out / "logs"
    logs.mkdir()
    timings = {}

    def step(name, args, log):
        print(f"nbgrader {' '.join(args)}   (log: {logs / log})", flush=True)
        t = time.perf_counter()
        nbgrader(args, out, logs / log)
        timings[name] = timings.get(name, 0.0) + time.perf_counter() - t

    # one nbgrader run per step (a glob over assignments) unless a subset was asked for
    targets = ["*"] if sorted(assignments) == ASSIGNMENTS else list(assignments)
    for a in targets:
        name = "all" if a == "*" else a
        step("generate_assignment", ["generate_assignment", a, "--force"], f"generate-{name}.log")
    submitted = out / "submitted"
    for student_dir in sorted((out / "test_submissions").iterdir()):
        for a in assignments:
            if (student_dir / a).is_dir():
                shutil.copytree(student_dir / a, submitted / student_dir.name / a)
    for a in targets:
        name = "all" if a == "*" else a
        step("autograde", ["autograde", a, "--force"], f"autograde-{name}.log")
    db_url = f"sqlite:///{out / 'gradebook.db'}"
    manual = json.loads((out / "test_submissions" / "manual_grades.json").read_text())
    apply_manual_grades(db_url, manual)
    for a in targets:
        name = "all" if a == "*" else a
        step("generate_feedback", ["generate_feedback", a, "--force"], f"feedback-{name}.log")
    step("export", ["export", "--to", str(out / "grades.csv")], "export.log")
    scores = collect_scores(db_url)
    (out / "scores.json").write_text(json.dumps({"scores": scores, "seconds": timings}, indent=1))
    return scores, timings


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "_build" / "course"),
                        help="scratch directory (emptied first); default _build/course")
    parser.add_argument("--assignments", nargs="*", default=ASSIGNMENTS, choices=ASSIGNMENTS,
                        metavar="ASSIGNMENT", help="default: all of course/source/")
    args = parser.parse_args(argv)
    t = time.perf_counter()
    scores, timings = run(args.out, args.assignments)
    print(table(scores))
    print()
    print("seconds: " + ", ".join(f"{k} {v:.0f}" for k, v in timings.items())
          + f"; total {time.perf_counter() - t:.0f}")
    out = Path(args.out).resolve()
    print(f"student versions: {out / 'release'}")
    print(f"feedback:         {out / 'feedback'}")
    print(f"grades:           {out / 'grades.csv'}")


if __name__ == "__main__":
    main()
