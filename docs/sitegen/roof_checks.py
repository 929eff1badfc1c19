"""The local-memory roofs the rooflines draw against the lessons' tables of ceilings, as built: the
check of the test docs.figures (docs/tests/test_figures.py) over what docs/render.py wrote into its
output directory (ceilings.py writes stepNN_ceiling.md, figures.py draws roofline_NAME_stepNN.svg).
Both take a step's local-memory ceiling from one place (ceilings.Ceiling.local_bound(): the bandwidth
`peak --local-reads` measured on the device, else the documented one, marked so), and this check
holds the two products to it, so that a table cannot give one figure and the figure under it
another (as they once did: 8287 GFLOPS, documented, in step 2's table on the H100, and 8180,
measured, on its roofline).

roof_faults(gen_dir): for each roofline of a step (its svg.fonttype keeps each label a <text>),
  - the local-memory roof it draws, read from its label ("step 2's local-memory roof 8180", "step 1's
    roof if every load hits L1 8180", "(documented)" after the name where it is), is the local-memory
    ceiling of that step on that device in the step's table (the row "local-memory ceiling", the
    column "step N on NAME"), to the digit, and both say "documented" or neither does;
  - where the table gives that step a local-memory ceiling below its compute ceiling (under 100 % of
    it), the figure draws it.
One fault per disagreement, naming the figure and the table."""
import glob
import os
import re

ROOF_LABEL = re.compile(r">step (\d+)'s (?:local-memory roof|roof if every load hits L1)( \(documented\))? ([\d.]+)<")
FIGURE = re.compile(r"roofline_(.+)_(step(\d\d))\.svg$")


def table_cell(text, number, stem):
    """The cell of the row 'local-memory ceiling' in the column 'step N on NAME' of a table of
    ceilings (stepNN_ceiling.md: column_tables() may split it into several), or None."""
    head = None
    for line in text.splitlines():
        if not line.startswith("|"):
            head = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if head is None:
            head = cells
        elif cells[0].startswith("local-memory ceiling"):
            column = f"step {number} on {stem}"
            if column in head:
                return cells[head.index(column)]
    return None


def roof_faults(gen_dir):
    faults = []
    for path in sorted(glob.glob(os.path.join(gen_dir, "roofline_*_step[0-9][0-9].svg"))):
        name = os.path.basename(path)
        stem, page, number = FIGURE.match(name).group(1, 2, 3)
        number = int(number)
        with open(path, encoding="utf-8") as f:
            drawn = [(int(m.group(1)), bool(m.group(2)), m.group(3)) for m in ROOF_LABEL.finditer(f.read())]
        table = os.path.join(gen_dir, f"{page}_ceiling.md")
        with open(table, encoding="utf-8") as f:
            cell = table_cell(f.read(), number, stem) or "-"
        m = re.match(r"([\d.]+) \(([\d.]+)\\?%\)", cell)
        where = f"{name} against {os.path.basename(table)} (step {number} on {stem}: '{cell}')"
        for step, documented, value in drawn:
            if step != number:
                faults.append(f"{where}: the figure of step {number} draws step {step}'s local-memory roof")
            elif not m or m.group(1) != value:
                faults.append(f"{where}: the figure draws a local-memory roof at {value} GFLOPS, the table gives "
                              f"{m.group(1) if m else 'none'}")
            elif documented != ("documented" in cell):
                faults.append(f"{where}: one says the roof is the documented figure, the other not")
        if m and not drawn and float(m.group(2)) < 100:
            faults.append(f"{where}: the table gives a local-memory ceiling of {m.group(1)} GFLOPS, below the compute "
                          "ceiling, and the figure draws none")
    return faults
