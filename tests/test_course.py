"""The course (``course/``, nbgrader 0.9): what an instructor relies on.

* the student versions that ``nbgrader generate_assignment`` writes hold no solution and no
  hidden test;
* every committed correct submission scores full marks; every committed wrong submission
  passes the visible tests, loses points on exactly the hidden tests that catch its mistakes,
  and its feedback names them;
* broken submissions (one raises, one loops forever, one deleted a test cell, one edited a
  test cell) are graded, not crashed on: the timeout interrupts the loop, the deleted cell is
  put back, the edited cell is restored from its checksum.

The pipeline is ``course/run_course.py``, the one ``make course`` runs; it runs once for this
module, into a temporary directory (a few minutes: 24 notebooks, each in a fresh kernel,
one of them stopped by the 30 s timeout). Nothing in it is shortened under RBDL_EDU_FAST: the
claims above need every submission graded in full.
"""
from __future__ import annotations

import csv
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "course"
ASSIGNMENTS = sorted(p.name for p in (COURSE / "source").iterdir() if p.is_dir())
BAD = ("bad-raises", "bad-loops", "bad-deleted-test", "bad-altered-test")

# The mistakes in each committed wrong submission, and the hidden test cells that catch them.
WRONG = {
    "01-spatial-algebra": {
        "test_plucker_rotated_and_shifted",      # -[r]x E: the offset taken in B's coordinates
        "test_cross_products_moving_origin",     # crf = crm: forces "turn like motions"
        "test_transform_inertia_direction",      # X^T I X: the inertia moved the other way
    },
    "02-kinematics": {
        "test_parent_transform_random_tree",     # the hinge turns about the body origin, not jnt_pos
        "test_world_transforms_branched_tree",   # parent = i - 1
        "test_body_jacobian_branched_tree",      # columns of every earlier body, not the ancestors
    },
    "03-rnea": {
        "test_rnea_chain_moving",                # forgotten v x* I v ...
        "test_rnea_symbolic_3d_arm_equals_lagrange",  # ... which Lagrange's equations expose
        "test_rnea_branched_tree",               # parent = i - 1
        "test_lagrange_double_pendulum",         # d/dt dL/dqd without its q terms
    },
    "04-crba": {
        "test_crba_matches_rbdl_edu",            # parent = i - 1
        "test_ltdl_branched_tree_no_fill_in",    # body_parentid used as the dof tree
    },
    "05-aba": {
        "test_aba_moving_trees",                 # forgotten p^A = v x* I v
        "test_integrators_one_step",             # positions moved with the old velocity ...
        "test_energy_behaviour",                 # ... so the "symplectic" step gains energy
    },
    "06-collision": {
        "test_sphere_capsule_random",            # capsule treated as an infinite cylinder
        "test_sphere_capsule_margin",            # margin ignored
        "test_sweep_and_prune_random",           # overlap checked along the sweep axis only
    },
    "07-contacts": {
        "test_impedance_beyond_width",           # d(r) not clamped to dwidth beyond the width
        "test_stiffness_damping_direct",         # direct solref (-stiffness, -damping) without dwidth
        "test_resting_depth_random",             # d held at d(0) instead of solving for r ...
        "test_resting_depth_simulated",          # ... which the simulated ball exposes
        "test_contact_from_edges_slope",         # friction mu (f- - f+): the sign
    },
    "08-models": {
        "test_build_arm_random_sizes",           # the elbow placed in world coordinates, not the parent's
        "test_subtree_mass_branched_tree",       # "the bodies after i are below i": a chain only
        "test_center_of_mass_inertial_frames",   # the masses at the body origins (xpos), not xipos
    },
    "09-actuators": {
        "test_moment_arm_spatial_tendons",       # a forward difference: O(eps) error on a curved L(q)
        "test_critical_kv_step_response_simulated",  # kv = 2 sqrt(kp / I): the inertia left out
        "test_filter_act_simulated",             # filter integrated exactly, not with Euler steps
    },
    "10-lab": {
        "test_point_line_distance_in_space",     # abs of the planar cross product (the seed's bug)
        "test_my_gait_walk_simulated",           # 2.5 Hz: "stride x frequency", the mouse tips over
    },
}
# The broken submissions (all of assignment 01) and the test cells they lose.
BAD_FAILING = {
    "bad-raises": {"test_cross_products_spin", "test_cross_products_moving_origin"},
    "bad-loops": {"test_cross_products_spin", "test_cross_products_moving_origin"},
    "bad-deleted-test": {"test_cross_products_spin", "test_cross_products_moving_origin"},
    "bad-altered-test": {"test_spatial_inertia_at_origin", "test_spatial_inertia_offset_com"},
}


def nbgrader_cells(path):
    """``{grade_id: cell}`` of a notebook, in order."""
    nb = nbformat.read(path, as_version=4)
    return {c.metadata["nbgrader"]["grade_id"]: c for c in nb.cells if "nbgrader" in c.metadata}


def hidden_only(cell):
    """True for a test cell whose tests are all hidden (nothing runs in the student's copy)."""
    visible = re.sub(r"### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS", "", cell.source, flags=re.S)
    return "### BEGIN HIDDEN TESTS" in cell.source and not [
        line for line in visible.splitlines() if line.strip() and not line.strip().startswith("#")]


def tree_digest(path):
    """A digest of every file under ``path`` (names and contents)."""
    h = hashlib.sha256()
    for f in sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        h.update(str(f.relative_to(path)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """Runs the whole pipeline (as `make course` does) into a temporary directory."""
    out = tmp_path_factory.mktemp("course")
    before = tree_digest(COURSE)
    result = subprocess.run([sys.executable, str(COURSE / "run_course.py"), "--out", str(out)],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    print(result.stdout)
    assert tree_digest(COURSE) == before, "running the course changed files under course/"
    return out, json.loads((out / "scores.json").read_text())["scores"], result.stdout


# ------------------------------------------------------------------ the sources themselves --
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_source_notebook_is_a_complete_assignment(assignment):
    cells = nbgrader_cells(COURSE / "source" / assignment / f"{assignment}.ipynb")
    nb = nbformat.read(COURSE / "source" / assignment / f"{assignment}.ipynb", as_version=4)
    assert len(cells) == len({c.id for c in nb.cells if "nbgrader" in c.metadata})
    tests = {k: c for k, c in cells.items() if c.metadata.nbgrader["grade"] and c.cell_type == "code"}
    written = {k: c for k, c in cells.items() if c.metadata.nbgrader["grade"] and c.cell_type == "markdown"}
    solutions = [c for c in cells.values() if c.metadata.nbgrader["solution"] and c.cell_type == "code"]
    assert all(c.metadata.nbgrader["locked"] for c in tests.values())
    assert any(hidden_only(c) for c in tests.values()), "no hidden test"
    assert any("### BEGIN HIDDEN TESTS" not in c.source for c in tests.values()), "no visible test"
    assert written, "no manually graded written answer"
    assert solutions and all("### BEGIN SOLUTION" in c.source and "### END SOLUTION" in c.source
                             for c in solutions)
    # the points announced at the top are the points the cells carry
    auto = sum(c.metadata.nbgrader["points"] for c in tests.values())
    manual = sum(c.metadata.nbgrader["points"] for c in written.values())
    assert f"{auto:g} points autograded, {manual:g} points for the written answer" in nb.cells[0].source


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_committed_submissions_match_the_source(assignment):
    """Every committed submission has the source's graded cells, in order (except the one
    that deleted a test cell), and each written answer of correct/wrong has a manual grade."""
    ids = list(nbgrader_cells(COURSE / "source" / assignment / f"{assignment}.ipynb"))
    students = ["correct", "wrong"] + (list(BAD) if assignment == "01-spatial-algebra" else [])
    for student in students:
        path = COURSE / "test_submissions" / student / assignment / f"{assignment}.ipynb"
        got = list(nbgrader_cells(path))
        if student == "bad-deleted-test":
            assert got == [i for i in ids if i != "test_cross_products_spin"]
        else:
            assert got == ids, student
    manual = json.loads((COURSE / "test_submissions" / "manual_grades.json").read_text())
    written = [k for k, c in nbgrader_cells(COURSE / "source" / assignment / f"{assignment}.ipynb").items()
               if c.cell_type == "markdown" and c.metadata.nbgrader["grade"]]
    for student in ("correct", "wrong"):
        assert sorted(manual[student][assignment]) == sorted(written)


# -------------------------------------------------------------------- the student versions --
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_student_versions_hold_no_solution_and_no_hidden_test(course, assignment):
    out, _, _ = course
    source = COURSE / "source" / assignment / f"{assignment}.ipynb"
    release = out / "release" / assignment / f"{assignment}.ipynb"
    src_text = "\n".join(c.source for c in nbformat.read(source, as_version=4).cells)
    student = nbformat.read(release, as_version=4)
    text = "\n".join(c.source for c in student.cells)
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS", "Mark scheme"):
        assert marker not in text, marker
    # every line that only the solutions and the hidden tests hold is gone
    secret = re.findall(r"### BEGIN (?:SOLUTION|HIDDEN TESTS)\n(.*?)### END", src_text, flags=re.S)
    public = re.sub(r"### BEGIN (SOLUTION|HIDDEN TESTS).*?### END (SOLUTION|HIDDEN TESTS)", "", src_text, flags=re.S)
    public_lines = {line.strip() for line in public.splitlines()}
    student_lines = {line.strip() for line in text.splitlines()}
    leaked = [line.strip() for block in secret for line in block.splitlines()
              if line.strip() and line.strip() not in public_lines and line.strip() in student_lines]
    assert not leaked, leaked
    src_cells, student_cells = nbgrader_cells(source), nbgrader_cells(release)
    for gid, cell in src_cells.items():
        meta = cell.metadata.nbgrader
        if meta["solution"] and cell.cell_type == "markdown":            # written answers
            assert student_cells[gid].source == "YOUR ANSWER HERE"
        elif meta["solution"]:
            assert student_cells[gid].source.count("raise NotImplementedError()") == cell.source.count("### BEGIN SOLUTION")
        elif hidden_only(cell):
            assert "BEGIN HIDDEN" not in student_cells[gid].source
            assert not [line for line in student_cells[gid].source.splitlines()
                        if line.strip() and not line.startswith("#")]
    assert all(not c.get("outputs") for c in student.cells if c.cell_type == "code")


# ---------------------------------------------------------------------------- the grading --
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_correct_submission_scores_full_marks(course, assignment):
    _, scores, _ = course
    s = scores[assignment]["correct"]
    assert s["failing"] == []
    assert s["tests"] == s["tests_max"] > 0
    assert s["written"] == s["written_max"] > 0
    assert s["total"] == s["max"]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_wrong_submission_is_caught_by_the_hidden_tests(course, assignment):
    out, scores, _ = course
    s = scores[assignment]["wrong"]
    assert set(s["failing"]) == WRONG[assignment]
    assert s["tests"] < s["tests_max"] and s["total"] < s["max"]
    # the mistakes pass the visible smoke tests: only hidden tests catch them
    source = nbgrader_cells(COURSE / "source" / assignment / f"{assignment}.ipynb")
    assert all(hidden_only(source[gid]) for gid in s["failing"])
    # the feedback names each failing test, with its zero score and the assertion that failed
    html = (out / "feedback" / "wrong" / assignment / f"{assignment}.html").read_text()
    for gid in s["failing"]:
        points = source[gid].metadata.nbgrader["points"]
        m = re.search(rf"Grade cell: <code>{gid}</code></span>\s*<span[^>]*>\s*Score: 0\.0 / {points:.1f}", html)
        assert m, f"the feedback does not show {gid} with 0 / {points} points"
        cell_html = html[m.end():].split("Grade cell: <code>")[0]
        assert "AssertionError" in cell_html, f"the feedback of {gid} shows no failed assertion"


def autograded(out, student, assignment="01-spatial-algebra"):
    return nbgrader_cells(out / "autograded" / student / assignment / f"{assignment}.ipynb")


def errors(cell):
    return [o.ename for o in cell.get("outputs", []) if o.output_type == "error"]


@pytest.mark.parametrize("student", BAD)
def test_broken_submission_is_graded_not_crashed_on(course, student):
    out, scores, _ = course
    s = scores["01-spatial-algebra"][student]
    assert set(s["failing"]) == BAD_FAILING[student]
    assert 0 < s["tests"] < s["tests_max"]            # graded: the other tests still count
    assert (out / "feedback" / student / "01-spatial-algebra" / "01-spatial-algebra.html").is_file()
    cells = autograded(out, student)
    source = nbgrader_cells(COURSE / "source" / "01-spatial-algebra" / "01-spatial-algebra.ipynb")
    if student == "bad-raises":
        assert errors(cells["cross_products"]) == ["ImportError"]     # a name rbdl_edu.spatial lacks
        assert errors(cells["test_cross_products_spin"]) == ["NameError"]
    elif student == "bad-loops":
        # the timeout interrupted the endless loop, and the notebook ran on
        assert "CellTimeoutError" in errors(cells["cross_products"])
        assert errors(cells["test_plucker_translation"]) == []
        assert errors(cells["test_transform_inertia_direction"]) == []
    elif student == "bad-deleted-test":
        restored = cells["test_cross_products_spin"]
        assert "was missing from the submission" in restored.source
        assert source["test_cross_products_spin"].source in restored.source
        assert errors(restored) == ["AssertionError"]
    elif student == "bad-altered-test":
        # the edited test cell is back to the instructor's text (its checksum changed) and fails
        submitted = nbgrader_cells(out / "submitted" / student / "01-spatial-algebra" / "01-spatial-algebra.ipynb")
        assert "assert True" in submitted["test_spatial_inertia_at_origin"].source
        assert cells["test_spatial_inertia_at_origin"].source == source["test_spatial_inertia_at_origin"].source
        assert errors(cells["test_spatial_inertia_at_origin"]) == ["AssertionError"]
        log = (out / "logs" / "autograde-all.log").read_text()
        assert "'checksum' for cell test_spatial_inertia_at_origin has changed" in log


def test_grades_are_exported_and_printed(course):
    out, scores, stdout = course
    with open(out / "grades.csv") as f:
        rows = list(csv.DictReader(f))
    graded = {(r["assignment"], r["student_id"]): r for r in rows}
    for assignment, per_student in scores.items():
        for student, s in per_student.items():
            row = graded[(assignment, student)]
            assert float(row["score"]) == s["total"] and float(row["max_score"]) == s["max"]
    for assignment in ASSIGNMENTS:
        assert re.search(rf"^{assignment}\s+correct\s+(\S+)/\1\s", stdout, flags=re.M), stdout
