"""How a step's diagram is drawn (draw(): one SVG; diagrams.py chooses the parameter sets and
problems, writes the files and the numbers under each): by matplotlib from the step's geometry
(stepdefs.Geometry, which docs/tests/test_geometry.py checks against the step's plan() and
kernel), for one work-group:
  - left: A, B and C of an example problem, the grid of work-groups over C, the block of C one
    work-group computes, the band of A and B it reads and the k-slice (tile) it holds now; step 6's
    zero-padding and step 1's idle work-items hatched;
  - middle: the tiles in local memory as the kernel declares them (step 4's k-major A tile, step
    7's two buffers, step 10's ring of STAGES), what each buffer holds (Geometry.buffer_tiles), the
    k-slice the work-items read at one k and what three of them read (a float several read striped
    in their colours);
  - right: the block of C, and which elements three neighbouring work-items own (their vectors,
    their register blocks and how the blocks interleave).
Step 9 (K split into SLICES slices for the last SPLIT_ROWS rows of blocks) shows a problem at which
the host splits K on the recorded device (its compute units from the `--list-devices` listing in
lab/tuning/), the whole and the split rows of blocks of C, the slices of K marked on A (beside the
split rows) and B, a work-group of a split row and its slice, and the copies of the split rows
behind C, one per slice.
"""
import textwrap

from . import drawing

# One colour per highlighted work-item: (0, 0), its neighbour along dimension 0, along dimension 1
ITEMS = [((0, 0), "#1f5fa8", "work-item (0, 0)"), ((1, 0), "#e07b1a", "work-item (1, 0), next along dimension 0"),
         ((0, 1), "#2e9a4a", "work-item (0, 1), next along dimension 1")]
GROUP_FILL, BAND_FILL, TILE_FILL, SLICE_FILL, PAD_FILL = "#fde6c8", "#e8eef8", "#b9cbe8", "#e7dcf5", "#eeeeee"
HATCH_EDGE, GRID = "#9a9a9a", "#c9ced6"
LABEL_GAP = 16  # points between A, B and C in the left panel: a line of their labels


def _matplotlib():
    import matplotlib
    matplotlib.use("svg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "sgemm-tutorial", "font.size": 9,
                                "font.family": "DejaVu Sans", "hatch.linewidth": 0.6})
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Patch, Rectangle
    return plt, LineCollection, Rectangle, Patch


class Canvas:
    """One panel: rectangles and lines in float units, y downwards."""

    def __init__(self, ax, mpl, placer=None):
        self.ax = ax
        self.placer = placer
        _, self.LineCollection, self.Rectangle, _ = mpl

    def rect(self, x, y, w, h, fill="none", edge="#333333", lw=0.8, hatch=None, z=1, alpha=1.0):
        self.ax.add_patch(self.Rectangle((x, y), w, h, facecolor=fill, edgecolor=edge, linewidth=lw, hatch=hatch,
                                         zorder=z, alpha=alpha))

    def grid(self, x, y, rows, cols, row_step, col_step, color=GRID, lw=0.4, z=2):
        """Lines every row_step rows and col_step columns inside the rectangle, thinned so that no
        two are closer than about 1 % of the panel."""
        span = max(rows, cols)
        while row_step and rows / row_step > 64 and span / row_step > 100:
            row_step *= 2
        while col_step and cols / col_step > 64 and span / col_step > 100:
            col_step *= 2
        segs = []
        if row_step:
            segs += [[(x, y + r), (x + cols, y + r)] for r in range(row_step, rows, row_step)]
        if col_step:
            segs += [[(x + c, y), (x + c, y + rows)] for c in range(col_step, cols, col_step)]
        if segs:
            self.ax.add_collection(self.LineCollection(segs, colors=color, linewidths=lw, zorder=z))

    def cells(self, x, y, cells, fill, z=4, edge="none", hatch=None):
        """Filled (row, column) cells, merged into runs along the rows."""
        by_row = {}
        for r, c in cells:
            by_row.setdefault(r, []).append(c)
        runs = {}
        for r, cs in by_row.items():
            cs.sort()
            start = prev = cs[0]
            for c in cs[1:] + [None]:
                if c is None or c != prev + 1:
                    runs.setdefault((start, prev), []).append(r)
                    if c is not None:
                        start = c
                if c is not None:
                    prev = c
        for (c0, c1), rs in runs.items():
            rs.sort()
            r0 = prev = rs[0]
            for r in rs[1:] + [None]:
                if r is None or r != prev + 1:
                    self.rect(x + c0, y + r0, c1 - c0 + 1, prev - r0 + 1, fill=fill, edge=HATCH_EDGE if hatch else edge,
                              lw=0.3, z=z, hatch=hatch)
                    if r is not None:
                        r0 = r
                if r is not None:
                    prev = r

    def text(self, x, y, s, size=8.5, ha="center", va="center", color="#222222", rotation=0, weight="normal"):
        self.ax.text(x, y, s, fontsize=size, ha=ha, va=va, color=color, rotation=rotation, weight=weight, zorder=10)

    def label(self, x, y, s, candidates, size=7.5, color="#222222", optional=False, weight="normal"):
        """A label placed once the figure is laid out, at the first candidate (drawing.Placer: points
        from (x, y), optionally another wording and another point) where it meets nothing."""
        self.placer.add(self.ax, (x, y), s, candidates, leader_from=1e9, optional=optional, fontsize=size, color=color,
                        weight=weight, zorder=10)

    def finish(self, x0, y0, x1, y1, title, anchor="N"):
        self.ax.set_xlim(x0, x1)
        self.ax.set_ylim(y1, y0)
        self.ax.set_aspect("equal", anchor=anchor)
        self.ax.axis("off")
        box = self.ax.get_position()
        self.ax.figure.text(box.x0, box.y1 + 0.12 / self.ax.figure.get_figheight(), title, fontsize=10,
                            weight="bold", va="bottom")


def hatch_outside(cv, x, y, rows, cols, real_rows, real_cols):
    """Hatches the part of a rows x cols rectangle outside its top-left real_rows x real_cols."""
    real_rows, real_cols = max(0, min(rows, real_rows)), max(0, min(cols, real_cols))
    if real_cols < cols:
        cv.rect(x + real_cols, y, cols - real_cols, rows, fill=PAD_FILL, edge=HATCH_EDGE, lw=0.3, hatch="////", z=6)
    if real_rows < rows and real_cols:
        cv.rect(x, y + real_rows, real_cols, rows - real_rows, fill=PAD_FILL, edge=HATCH_EDGE, lw=0.3, hatch="////",
                z=6)


def names(d, P):
    """The parameter names of the block's rows and columns and of the k-slice (TS or TSM, ...)."""
    (pm, _), (pn, _), (pk, _) = d.tile_sizes(P)
    return pm, pn, pk


class View:
    """What one diagram shows: the problem, the sizes the sgemm kernel runs on, the work-group
    (the last one where it holds padding or idle work-items, else one inside), the tile t it holds
    and the step k within it."""

    def __init__(self, d, g, size):
        self.d, self.g, self.size = d, g, tuple(size)
        self.padded = g.kernel_size != self.size           # step 6: zero-padded matrices
        self.idle = not self.padded and g.grid != self.size[:2]  # step 1: a launch rounded up
        last = self.padded or self.idle
        bx = g.groups[0] - 1 if last else min(1, g.groups[0] - 1)
        by = g.block_rows - 1 if last else min(1, g.block_rows - 1)
        # step 9: the work-group of slice 1 (or the first other slice that has tiles of K); the
        # last row of blocks is a split one whenever any is
        self.slice = next((s for s in list(range(1, g.slices)) + [0]
                           if not g.k_tile or len(g.tile_range(g.group_at(by, bx, s)))), 0)
        self.group = g.group_at(by, bx, self.slice)
        depth = g.k_tile or 1
        walk = len(g.tile_range(self.group)) if g.k_tile else 1  # the tiles this work-group walks through
        self.t = max(0, walk - 1) if last else min(1, max(0, walk - 1))
        if any(tile.buffers > 1 for tile in g.tiles):  # a tile computed while the next one is loaded
            self.t = max(0, walk - 2) if last else min(1, max(0, walk - 2))
        # t counts the work-group's walk; `tile` is that tile's index along K (the same before step 9)
        self.tile = (g.tile_of(self.group, self.t) or 0) if g.k_tile else 0
        self.kk = min(1, depth - 1)
        self.why = "zero-padding" if self.padded else "work-items that return at once"
        self.line = 1.0  # a line of the tiles' captions, in floats (draw() sets it)

    def real_in_block(self):
        """(rows, columns) of the group's block that hold elements of the real C."""
        (r0, c0) = self.g.origin(self.group)
        return self.size[0] - r0, self.size[1] - c0


def panel_problem(cv, v):
    g, d = v.g, v.d
    m, n, k = v.size
    mp, np_, kp = g.kernel_size
    rows, cols = g.block
    grid_rows, grid_cols = g.grid
    depth = g.k_tile or 0
    # the gap between the matrices holds a line of labels: at least LABEL_GAP points at the scale
    # the panel is drawn at (its extent, about kp + grid + 3 gaps each way, in the axes' size)
    box = cv.ax.get_position()
    width_pt, height_pt = (box.width * cv.ax.figure.get_figwidth() * 72, box.height * cv.ax.figure.get_figheight() * 72)
    gap = max(grid_rows, grid_cols, kp) * 0.06
    scale = lambda: max((kp + grid_cols + 2.5 * gap) / width_pt, (kp + grid_rows + 4 * gap) / height_pt)  # noqa: E731
    for _ in range(4):
        gap = max(gap, LABEL_GAP * scale())
    per_pt = scale()  # units per point
    pm, pn, pk = names(d, g.params)
    gx, gy = v.group
    # step 9: the copies of the split rows of blocks, one per slice of K, behind C (at most 3 drawn)
    shift = gap * 0.3
    copies = min(g.slices, 3) if g.slices > 1 else 0
    split_y = g.full_rows * rows  # where the split rows of blocks start
    for j in range(copies, 0, -1):
        cv.rect(j * shift, split_y + j * shift, grid_cols, grid_rows - split_y, fill="white", edge="#7a55b0", lw=0.8,
                z=0.5)
    # A (left), B (above), C, with what the padding or the rounded launch adds
    ax0, by0 = -kp - gap, -kp - gap
    for x, y, r, c in ((ax0, 0, m, k), (0, by0, k, n), (0, 0, m, n)):
        cv.rect(x, y, c, r, fill="#f6f7f9", edge="#333333", lw=1.0, z=1)
    hatch_outside(cv, 0, 0, grid_rows, grid_cols, m, n)
    if v.padded:
        hatch_outside(cv, ax0, 0, mp, kp, m, k)
        hatch_outside(cv, 0, by0, kp, np_, k, n)
    if v.padded or v.idle:
        below_c = [(grid_cols + copies * shift, grid_rows + copies * shift), (grid_cols, grid_rows), (0, grid_rows),
                   (copies * shift, grid_rows + copies * shift)]
        cv.label(grid_cols, grid_rows, v.why,
                 [(0, -1, ha, "top", None, at) for at in below_c for ha in ("right", "left")],
                 color="#555555")
    cv.grid(0, 0, grid_rows, grid_cols, rows, cols, color="#8f98a8", lw=0.5, z=7)
    if g.slices > 1 and split_y:  # where the whole rows of blocks end and the split ones begin
        cv.ax.plot([ax0, grid_cols], [split_y, split_y], color="#7a55b0", lw=1.2, zorder=8)
    # the work-group's band of A and B (inside the matrices the kernel reads), the tile it holds,
    # and its block of C
    ty, tx = g.origin(v.group)
    a_rows = min(rows, mp - ty)
    b_cols = min(cols, np_ - tx)
    k0, k1 = 0, kp  # the part of K the work-group walks through: all of it, or its slice (step 9)
    if g.slices > 1:
        walk = g.tile_range(v.group)
        k0, k1 = walk[0] * depth if len(walk) else 0, walk[-1] * depth + depth if len(walk) else 0
        cv.rect(ax0, ty, kp, a_rows, fill="#f3f5fa", edge="none", z=2)
        cv.rect(tx, by0, b_cols, kp, fill="#f3f5fa", edge="none", z=2)
        tiles_k = kp // depth
        bounds = [s * tiles_k // g.slices * depth for s in range(g.slices + 1)]
        for s, (b0, b1) in enumerate(zip(bounds, bounds[1:])):
            if s:  # on A beside the split rows only: the whole rows walk all of K
                cv.ax.plot([ax0 + b0, ax0 + b0], [split_y, m], color="#7a55b0", lw=0.9, ls=(0, (3, 2)), zorder=7)
                cv.ax.plot([0, n], [by0 + b0, by0 + b0], color="#7a55b0", lw=0.9, ls=(0, (3, 2)), zorder=7)
            # "slice s" where it fits its part of A's width, else "s"; where not even that fits
            # beside its neighbours' (10 px text), only the slice the work-group walks
            wide = (b1 - b0) / per_pt
            if g.slices <= 8 and b1 > b0 and (wide >= 12 or s == v.slice):
                label = f"slice {s}" if wide >= 32 else f"{s}"
                cv.text(ax0 + (b0 + b1) / 2, m + gap * 0.12, label, va="top", size=7.5, color="#5a3d8a",
                        weight="bold" if s == v.slice else "normal")
    cv.rect(ax0 + k0, ty, k1 - k0, a_rows, fill=BAND_FILL, edge="#5b7bb0", lw=0.6, z=2)
    cv.rect(tx, by0 + k0, b_cols, k1 - k0, fill=BAND_FILL, edge="#5b7bb0", lw=0.6, z=2)
    if depth:
        cv.rect(ax0 + v.tile * depth, ty, depth, a_rows, fill=TILE_FILL, edge="#1f3f7a", lw=1.0, z=4)
        cv.rect(tx, by0 + v.tile * depth, b_cols, depth, fill=TILE_FILL, edge="#1f3f7a", lw=1.0, z=4)
        # the tile's name left of B, in the corner above A (never across a matrix's edge), at its
        # row of B; on A too where it fits inside A, above or below the work-group's band
        two, one = f"tile {v.tile}\n{pk} = {depth}", f"tile {v.tile}, {pk} = {depth}"
        rows_b = [by0 + (v.tile + 0.5) * depth, by0 + v.tile * depth, by0 + (v.tile + 1) * depth]
        cv.label(-gap * 0.15, rows_b[0], two,
                 [(-1, dy, "right", va, words, (-gap * 0.15, y)) for words in (two, one)
                  for y, dy, va in zip(rows_b, (0, 1, -1), ("center", "bottom", "top"))]
                 + [(-1, 2, "right", "bottom", words, (-gap * 0.15, by0)) for words in (one, two)])
        x_a = ax0 + (v.tile + 0.5) * depth
        cv.label(x_a, ty, two, [(0, 2, "center", "bottom"), (0, 2, "center", "bottom", one),
                                (0, -2, "center", "top", two, (x_a, ty + a_rows)),
                                (0, -2, "center", "top", one, (x_a, ty + a_rows))], optional=True)
    else:  # step 1: work-item (0, 0)'s row of A and column of B
        cv.rect(ax0, ty, k, 1, fill=ITEMS[0][1], edge="none", z=4)
        cv.rect(tx, by0, 1, k, fill=ITEMS[0][1], edge="none", z=4)
    cv.rect(tx, ty, cols, rows, fill=GROUP_FILL, edge="#b05a00", lw=1.3, z=5)
    real_rows, real_cols = v.real_in_block()
    hatch_outside(cv, tx, ty, rows, cols, real_rows, real_cols)
    # inside the block where it fits (the right panel names the work-group too)
    cv.label(tx + cols / 2, ty + rows / 2, f"work-group\n({gx}, {gy})",
             [(0, 0, "center", "center"), (0, 0, "center", "center", f"({gx}, {gy})")], color="#7a3d00", optional=True)
    # labels: sizes and the block's parameters
    dims = lambda real, pad: f"{real}" if real == pad else f"{real} (padded {pad})"  # noqa: E731
    cv.text(ax0, -gap * 0.35, f"A: M x K = {dims(m, mp)} x {dims(k, kp)}", ha="left", va="bottom", size=8)
    # above B: from its left edge, else reaching left from its right edge (C may be narrow, the label
    # long), else from A's left edge
    b_text = f"B: K x N = {dims(k, kp)} x {dims(n, np_)}"
    cv.label(0, by0, b_text, [(0, 2, "left", "bottom"), (0, 2, "right", "bottom", None, (n, by0)),
                              (0, 2, "left", "bottom", None, (ax0, by0))], size=8)
    below = grid_rows + gap * 0.9 + copies * shift
    # at most three lines (the whole story of the split is in the page's text, summary_lines())
    if g.slices > 1:
        which = ((f"the last {g.split_rows} rows" if g.split_rows > 1 else "the last row") + " (below the line)"
                 if g.full_rows else f"all {g.block_rows} rows" if g.block_rows > 1 else "its row")
        c_lines = [f"C: M x N = {dims(m, mp)} x {dims(n, np_)}",
                   f"{g.groups[0]} x {g.block_rows} blocks of {pm} x {pn} = {rows} x {cols}",
                   f"{which} split into {g.slices} slices of K"]
    else:
        c_lines = [f"C: M x N = {dims(m, mp)} x {dims(n, np_)}",
                   f"{g.groups[0]} x {g.groups[1]} work-groups of {pm} x {pn} = {rows} x {cols}"]
    chars = int(width_pt / (8 * 0.56))
    c_text = "\n".join(textwrap.fill(line, chars) for line in c_lines)
    cv.text(ax0, below, c_text, ha="left", va="top", size=8)
    cv.finish(ax0 - gap * 0.2, by0 - gap * 1.1, grid_cols + gap * 0.2 + copies * shift,
              below + gap * (0.3 + 1.0 * (c_text.count("\n") + 1)),
              "Where the work-group's block sits", anchor="NW")


# The tiles' panel: a line of its captions, the room right of a tile for its "<- k = 1", the gap
# between the columns of A's and B's tiles (points); the most its tiles may take of the figure's
# height, and the largest a float is drawn (points)
LINE_PT, K_LABEL_PT, COLUMN_GAP_PT, TILES_MAX_PT, FLOAT_MAX_PT = 10.5, 44.0, 22.0, 230.0, 8.0


def chars_in(width_pt, size):
    """About how many characters of DejaVu Sans at `size` points fit in width_pt."""
    return max(12, int(width_pt / (size * 0.56)))


def tiles_layout(v, width_pt):
    """Where the tiles' panel draws what: A's tiles in one column, B's in the next, each buffer under
    the one before with its caption above it. Returns (points per float, the columns, the note,
    width and height in floats): each column (tile, x, declaration, its y, [(buffer, caption, its y,
    the rectangle's y, current)]), all y downwards, in floats."""
    g, d = v.g, v.d
    pm, pn, pk = names(d, g.params)
    (rows_blk, cols_blk), depth = g.block, g.k_tile
    widest = max(tile.float_shape[1] for tile in g.tiles)
    column_pt = (width_pt - COLUMN_GAP_PT * (len(g.tiles) - 1)) / len(g.tiles)
    tallest = max(tile.float_shape[0] * tile.buffers for tile in g.tiles)
    s = min((column_pt - K_LABEL_PT) / widest, TILES_MAX_PT / tallest, FLOAT_MAX_PT)
    L = LINE_PT / s
    # the text of a column wraps within the column as drawn: narrower than column_pt where the
    # tallest tile sets the scale (step 12's A, TSM rows of a few floats)
    text_pt = min(column_pt, widest * s + K_LABEL_PT)
    held = g.buffer_tiles(v.group, v.t)
    columns, height = [], 0.0
    for i, tile in enumerate(g.tiles):
        x = i * (widest + (K_LABEL_PT + COLUMN_GAP_PT) / s)
        rows, cols = tile.float_shape
        k_major = tile.axes[0] == "k"
        decl = "[" + "][".join(str(n) for n in tile.dims) + "]"
        vec = f" float{tile.width}" if tile.width > 1 else " float"  # the tile's own vectors (step 11's C is not)
        if tile.operand == "A":
            what = f"k-major, row k: {pm} = {rows_blk} rows" if k_major else f"row m: {pk} = {depth} values of k"
        else:
            what = f"row k: {pn} = {cols_blk} columns"
        decl = textwrap.fill(f"{tile.name}{decl}{vec}: {what}", chars_in(text_pt, 8))
        y = (decl.count("\n") + 1) * L + 0.3 * L
        decl_y = y - 0.3 * L
        buffers = []
        for b in range(tile.buffers):  # step 7 on: the buffers one under the other
            current = tile.buffers == 1 or b == v.t % tile.buffers
            caption, caption_y = None, None
            if tile.buffers > 1:
                caption = textwrap.fill(f"buffer {b}: " + buffer_text(g, v.group, *held[b]), chars_in(text_pt, 7.5))
                y += (caption.count("\n") + 1) * 0.95 * L + 0.3 * L
                caption_y = y - 0.25 * L
            buffers.append((b, caption, caption_y, y, current))
            y += rows + (1.3 * L if current and not k_major else 0.5 * L)
        columns.append((tile, x, decl, decl_y, buffers))
        height = max(height, y)
    note = textwrap.fill(f"k = {v.kk}: the k-slice read now ({'a row' if g.tiles[0].axes[0] == 'k' else 'a column'} "
                         "of Asub, a row of Bsub)" + ("; hatched: zeros of the zero-padding" if v.padded else ""),
                         chars_in(width_pt, 8))
    width = len(g.tiles) * widest + (len(g.tiles) - 1) * COLUMN_GAP_PT / s + len(g.tiles) * K_LABEL_PT / s
    return s, columns, (note, height + 0.4 * L), width, height + (0.6 + note.count("\n") + 1) * L


def panel_tiles(cv, v, layout):
    g = v.g
    if not g.tiles:
        cv.text(0, 0.5, "No local memory: each work-item reads its row of A and its column of B from global memory, "
                "K times", size=9, ha="left")
        cv.ax.set_xlim(0, 1)
        cv.ax.set_ylim(1, 0)
        cv.ax.axis("off")
        box = cv.ax.get_position()
        cv.ax.figure.text(box.x0, box.y1 + 0.12 / cv.ax.figure.get_figheight(), "Local memory", fontsize=10,
                          weight="bold", va="bottom")
        return
    s, columns, (note, note_y), width, height = layout
    w = g.width
    for tile, x, decl, decl_y, buffers in columns:
        rows, cols = tile.float_shape
        cv.text(x, decl_y, decl, ha="left", va="bottom", size=8)
        for b, caption, caption_y, y, current in buffers:
            if caption:
                cv.text(x, caption_y, caption, ha="left", va="bottom", size=7.5,
                        color="#333333" if current else "#777777")
            cv.rect(x, y, cols, rows, fill="#fafbfc" if current else "#eeeeee", edge="#333333", lw=0.9, z=1)
            cv.grid(x, y, rows, cols, 1, 1, lw=0.25)
            if w > 1:
                cv.grid(x, y, rows, cols, 0, w, color="#8f98a8", lw=0.5)
            if current:
                tile_view(cv, v, tile, x, y)
    cv.text(0, note_y, note, ha="left", va="top", size=8, color="#5a3d8a")
    cv.finish(0, 0, width, height, "The tiles in local memory", anchor="NW")


def buffer_text(g, group, u, state):
    """What one buffer holds while the work-group computes a tile (Geometry.buffer_tiles), for its
    caption: the tile's index along K and where it is on its way."""
    k = g.tile_of(group, u)
    if state == "read":
        return f"tile {k}, read now"
    if state == "done":
        return f"tile {k}, used (no tile left to copy)"
    if g.staging == "copy":
        return f"tile {k}, being copied (asynchronously, not through registers)"
    return f"tile {k} next: loading into registers, stored here after the barrier"


def tile_view(cv, v, tile, x, y):
    """In the buffer being read: the zeros this work-group's tile holds (step 6 on), the k-slice at
    kk, and what the highlighted work-items read there."""
    g = v.g
    kk, t = v.kk, v.t
    (r0, c0), (rows_blk, cols_blk), depth = g.origin(v.group), g.block, g.k_tile
    m, n, k = v.size
    rows, cols = tile.float_shape
    real_i = (m - r0) if tile.operand == "A" else (n - c0)
    real_k = k - v.tile * depth
    zeros = {tile.cell(i, kx, t)[-2:] for i in range(rows_blk if tile.operand == "A" else cols_blk)
             for kx in range(depth) if i >= real_i or kx >= real_k} if v.padded else set()
    cv.cells(x, y, zeros, PAD_FILL, z=3, hatch="////")
    if tile.axes[0] == "k":
        cv.rect(x, y + kk, cols, 1, fill=SLICE_FILL, edge="#7a55b0", lw=0.6, z=3)
        cv.text(x + cols + 0.3 * v.line, y + kk + 0.5, f"\u2190 k = {kk}", ha="left", size=7.5, color="#5a3d8a")
    else:
        cv.rect(x + kk, y, 1, rows, fill=SLICE_FILL, edge="#7a55b0", lw=0.6, z=3)
        cv.text(x + kk + 0.5, y + rows + 0.2 * v.line, f"\u2191 k = {kk}", va="top", ha="left", size=7.5,
                color="#5a3d8a")
    readers = {}  # (row, column) of the buffer: the colours of the highlighted work-items that read it
    for (lx, ly), color, _ in ITEMS:
        if lx < g.local_size[0] and ly < g.local_size[1]:
            for p in g.reads(lx, ly, kk, t)[tile.name]:
                readers.setdefault(p[-2:], []).append(color)
    for _, color, _ in ITEMS:
        cv.cells(x, y, {cell for cell, colors in readers.items() if colors == [color]}, color, z=5)
    # a float several of them read (a broadcast): striped in their colours, one would hide the others
    for (r, c), colors in readers.items():
        if len(colors) > 1:
            for j, color in enumerate(colors):
                cv.rect(x + c, y + r + j / len(colors), 1, 1 / len(colors), fill=color, edge="none", lw=0, z=5)


def panel_block(cv, v):
    g, d = v.g, v.d
    rows, cols = g.block
    w = g.width
    pm, pn, _ = names(d, g.params)
    cv.rect(0, 0, cols, rows, fill=GROUP_FILL, edge="#b05a00", lw=1.2, z=1)
    cv.grid(0, 0, rows, cols, 1, 1, lw=0.25)
    if w > 1:
        cv.grid(0, 0, rows, cols, 0, w, color="#8f98a8", lw=0.5)
    for (lx, ly), color, _ in ITEMS:
        if lx < g.local_size[0] and ly < g.local_size[1]:
            cv.cells(0, 0, g.owned(lx, ly), color, z=5, edge="white")
    real_rows, real_cols = v.real_in_block()
    hatch_outside(cv, 0, 0, rows, cols, real_rows, real_cols)
    if v.padded:  # the zero-padding is computed and stored too (into the padded C): its owners show through
        for (lx, ly), color, _ in ITEMS:
            if lx < g.local_size[0] and ly < g.local_size[1]:
                cv.cells(0, 0, {e for e in g.owned(lx, ly) if e[0] >= real_rows or e[1] >= real_cols}, color, z=7,
                         hatch="////")
    spots = [(0.5, 0.5), (0.75, 0.5), (0.25, 0.5), (0.5, 0.8), (0.5, 0.2), (0.78, 0.82), (0.78, 0.18), (0.22, 0.82),
             (0.22, 0.18)]
    for i, (r0, c0, wr, wc) in enumerate(g.sub_tiles):  # step 8: the warp tiles, warp 0's shaded
        cv.rect(c0, r0, wc, wr, fill="#d9e6f5" if i == 0 else "none", edge="#1f3f7a", lw=1.4, z=2 if i == 0 else 6)
        # its name where no work-item's cell, zero-padding or edge is (else none: the text says)
        cv.label(c0 + wc / 2, r0 + wr / 2, f"warp {i}",
                 [(0, 0, "center", "center", None, (c0 + fx * wc, r0 + fy * wr)) for fx, fy in spots],
                 color="#1f3f7a", optional=True)
    pad = max(rows, cols) * 0.05
    cv.text(cols / 2, -pad, f"{pn} = {cols}" + (f" (vectors of WIDTH = {w})" if w > 1 else ""), va="bottom")
    cv.text(-pad * 1.6, rows / 2, f"{pm} = {rows}", rotation=90)
    gx, gy = v.group
    below = [f"work-group ({gx}, {gy})" + (f"; hatched: {v.why}" if real_rows < rows or real_cols < cols else "")]
    if g.slices > 1:
        walk = g.tile_range(v.group)
        below.append(f"slice {v.slice} of K: tiles {walk[0]} to {walk[-1]}" if len(walk) else
                     f"slice {v.slice} of K: no tile (it writes zeros)")
    box = cv.ax.get_position()
    chars = chars_in(box.width * cv.ax.figure.get_figwidth() * 72, 8)
    cv.text(0, rows + pad, "\n".join(textwrap.fill(x, chars) for x in below), ha="left", va="top", size=8)
    cv.finish(-pad * 3.5, -pad * 3, cols + pad, rows + pad * 3, "Who computes what")


def draw(d, P, size, path, title, device=None, width=None):
    """One diagram of step descriptor d with parameters P on the problem `size`, as SVG; a
    parameter the host chooses (step 9's SLICES=0, SPLIT_ROWS=0) chosen for `device` (a stepdefs.Device).
    `title`: "heading: detail", at most three lines together; the numbers of summary_lines() go in the
    page's text. As wide as the text column at 1024 pixels (drawing.MAX_WIDTH_IN; `width` inches where it
    stands in a narrower place, drawing.width_in()): above, where the
    work-group's block sits and who computes what; below, the tiles in local memory, A's beside B's."""
    mpl = _matplotlib()
    plt = mpl[0]
    g = d.geometry(P, size, device)
    v = View(d, g, size)
    heading, _, detail = title.partition(": ")
    W = width or drawing.MAX_WIDTH_IN
    detail = textwrap.fill(detail, chars_in((W - 0.2) * 72, 9))
    layout = tiles_layout(v, (W - 0.3) * 72) if g.tiles else None
    tiles_w, tiles_h = ((layout[3] * layout[0] / 72, layout[4] * layout[0] / 72) if layout else (W - 0.3, 0.3))
    head, title_h, row_a, legend_h = 0.34 + 0.17 * (detail.count("\n") + 1), 0.32, 3.3, 0.4
    h = head + title_h + row_a + title_h + tiles_h + legend_h
    fig = plt.figure(figsize=(W, h))

    def panel(top, height, x, width):
        return fig.add_axes([x, 1 - (top + height) / h, width, height / h])
    fig.text(0.01, 1 - 0.08 / h, heading, fontsize=11.5, weight="bold", va="top")
    fig.text(0.01, 1 - 0.32 / h, detail, fontsize=9, va="top", color="#333333")
    placer = drawing.Placer(fig)
    # the axes in the order problem, tiles, block (docs/tests/test_drawings.py reads fig.axes[1]'s pixels)
    top = head + title_h
    axes = [panel(top, row_a, 0.02, 0.54), panel(top + row_a + title_h, tiles_h, 0.02, tiles_w / W),
            panel(top, row_a, 0.62, 0.36)]
    v.line = LINE_PT / layout[0] if layout else 1.0
    panel_problem(Canvas(axes[0], mpl, placer), v)
    panel_tiles(Canvas(axes[1], mpl, placer), v, layout)
    panel_block(Canvas(axes[2], mpl, placer), v)
    fig.legend(handles=[mpl[3](facecolor=color, edgecolor="none", label=label) for _, color, label in ITEMS],
               loc="lower left", bbox_to_anchor=(0.005, 0.04 / h), ncol=3, fontsize=8, frameon=False,
               handlelength=1.0, columnspacing=1.2)
    placer.place()
    drawing.save(fig, path)
    return g
