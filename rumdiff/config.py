"""Defaults shared by the whole package, kept in one place.

The letters k, m, n and s follow the papers: k colours, at most m copies of each
(colour, value) tile, values 1..n, and minimal set size s.
"""

#: Number of colours in the standard game.
K = 4
#: Copies of each (colour, value) in the standard game.
M = 2
#: Largest value used by the thesis's training data, G(4, 2, 100).
N = 100
#: Minimal size of a run or a group.
S = 3

#: Colour letters, in order: colour c is ``COLOURS[c]``. The thesis uses b, g, r, y
#: (black, green, red, yellow); we add o (orange) and p (purple) for k = 5 and 6.
COLOURS = "bgryop"
#: Largest supported number of colours (one letter per colour).
MAX_K = len(COLOURS)
#: Largest supported number of copies.
MAX_M = 3
#: Largest supported value n.
MAX_N = 10_000

#: Solver budget: the most DP states kept over a whole puzzle before giving up.
MAX_STATES = 50_000_000
#: Solver budget: the most transitions evaluated over a whole puzzle.
MAX_TRANSITIONS = 5_000_000_000
#: Width of the beam search that gives the exact DP its first lower bound.
BEAM_WIDTH = 64

#: Random seed used when the user gives none.
SEED = 0

# --- Puzzle generator (rumdiff.generate) ---------------------------------------------
#: Generation mode used when the user gives none: "fixed", "mixed" or "simplex".
GENERATE_MODE = "mixed"
#: Modes the generator knows.
GENERATE_MODES = ("fixed", "mixed", "simplex")
#: Mixed mode: share of puzzles drawn in regimes 1, 2 and 3. The thesis made 10,000,
#: 90,000 and 300,000 of its 400,000 training puzzles in them.
REGIME_WEIGHTS = (0.025, 0.225, 0.75)
#: Mixed mode, per regime: (largest p0, largest p0 + p1), in percent. A puzzle of the
#: regime draws p0 ~ U(0, first) and then p1 ~ U(0, second - p0): regime 1 p0 ~ U(0, 100),
#: p1 ~ U(0, 100 - p0); regime 2 p0 ~ U(0, 50), p1 ~ U(0, 100 - p0); regime 3
#: p0 ~ U(0, 10), p1 ~ U(0, 10 - p0).
REGIME_RANGES = ((100.0, 100.0), (50.0, 100.0), (10.0, 10.0))
#: Cells per random-stream block: puzzles ``i`` with the same ``i // max(1, GENERATE_BLOCK_CELLS
#: // (n * k))`` share one stream. Part of the definition of the generated puzzles:
#: changing it changes every puzzle of every seed.
GENERATE_BLOCK_CELLS = 2**20
#: Most redraws tried for one puzzle before the generator decides that the parameters
#: allow too few distinct puzzles.
GENERATE_MAX_REDRAWS = 1000
