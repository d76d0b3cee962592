"""nbgrader configuration of the rbdl_edu course (nbgrader 0.9.x).

Run nbgrader from this directory (or from the scratch copy that `make course` makes):
it reads this file from the current directory. See the book's instructor guide.
"""
c = get_config()  # noqa: F821  (provided by traitlets when nbgrader reads this file)

c.CourseDirectory.course_id = "rbdl_edu"
# the gradebook: an SQLite file next to this one, no server needed
c.CourseDirectory.db_url = "sqlite:///gradebook.db"

# what a student sees where a solution was
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Autograding runs every submitted notebook in a fresh kernel. A cell that runs longer than
# its time limit is interrupted and recorded as an error (CellTimeoutError); the next cells
# still run, so a notebook that loops forever is graded, not stuck.
c.Execute.timeout = 30
c.Execute.interrupt_on_timeout = True


def cell_timeout(cell):
    """Seconds a cell may run: 30, but 120 for the symbolic proofs and the simulations (test
    cells whose id says "symbolic" or "simulated": the 3-link arm against Lagrange takes
    5-10 s on a busy machine, the mouse's 2-second walk about 2 s of CPU, far more wall
    time when the machine is shared)."""
    grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
    slow = "symbolic" in grade_id or "simulated" in grade_id
    return 120 if grade_id.startswith("test_") and slow else 30


c.Execute.timeout_func = cell_timeout

# A test cell that a student deleted is put back and run; a test or read-only cell whose
# text changed is restored from the gradebook (nbgrader compares checksums).
c.OverwriteCells.add_missing_cells = True

# keep the feedback readable when a student prints in a loop
c.LimitOutput.max_lines = 200
