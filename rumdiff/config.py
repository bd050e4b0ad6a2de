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
