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
#: Most jokers a puzzle may hold (the game has 2; see README, "Jokers and the table").
MAX_JOKERS = 4
#: The joker's token in puzzle files, and the token that splits a rack from its table.
JOKER = "J"
TABLE_MARK = "|"
#: Largest supported value n.
MAX_N = 10_000
#: The points of the real game's opening meld (rumdiff.solve.meld), when a rule or
#: --initial-meld asks for one without a number.
MELD_POINTS = 30
#: The most points a meld may ask for: every tile of the largest game.
MAX_MELD = MAX_K * MAX_M * MAX_N * (MAX_N + 1) // 2

#: Solver budget: the most DP states one pass keeps (summed over its values) before giving
#: up; its layers take 24 bytes a state (1.2 GB at this cap; README.md, "Memory").
MAX_STATES = 50_000_000
#: Largest --max-states and --beam-width the command line takes (the kernels count in int64).
MAX_STATES_LIMIT = 2**40
MAX_BEAM_WIDTH = 1_000_000
#: Solver budget: the most DP states alive at once (built in one step, or live at one
#: value). The engine's two state lists (rumdiff.solve.engine._loop: the one read, the one
#: built) start small and double up to this many states, 56 bytes each (470 MB a list at
#: the cap), and its hash index up to twice as many slots, 16 bytes each (268 MB); the
#: whole bound of a solve is in README.md, "Memory".
MAX_LIVE_STATES = 1 << 23
#: A puzzle over the state budget is solved by the reference ILP instead (its method is
#: then "ilp"); none of 2,000 simplex G(6, 3, 200) puzzles needs it
#: (experiments/bench_scope.py, seeds 1 and 2).
ILP_FALLBACK = True
#: The ILP fallback runs in a child process with this much address space, and for at
#: most this many seconds; a puzzle it cannot solve within them is "unsolved". (HiGHS
#: bounds neither itself: on a G(6, 3, 100) puzzle with two jokers it took 146 s and
#: 2.6 GB, and under a tighter limit it has crashed its process.)
ILP_MAX_MEMORY = 6 << 30
ILP_SECONDS = 600.0
#: Width of the beam search that gives the exact DP its first lower bound.
BEAM_WIDTH = 64
#: For k >= 5 the beam keeps this many times more states: its lower bound is what the
#: exact pass prunes against, and on 20/20/20% G(6, 3, 100) puzzles a beam of 256 cut
#: the solve from 520 to 40 ms (G(5, 3, 100) 57 to 42 ms), while G(4, 2, 100) is best
#: at 64 (python experiments/sweep_solver.py, and --beam-width on rumdiff solve).
BEAM_WIDEN = 4
#: Before that beam, the solver tries one this many times narrower (16 states at k <= 4,
#: 64 at k >= 5) aimed at the upper bound, so it keeps only states that lose nothing:
#: most dense segments score their bound, and the narrow beam finds it for a fraction of
#: the wide one's work. On 100 regime-3 puzzles divisors 2, 4, 8 and 16 tried 76,742,
#: 72,691, 75,921 and 79,345 transitions a puzzle, 88,109 without the narrow beam (at
#: b2e8046, with the exact pass aimed at the upper bound still in; python
#: experiments/solver_passes.py --m 2 --mode regime3 --count 100; read when the
#: kernel compiles, so compare with an empty NUMBA_CACHE_DIR). The other families and the
#: exact pass this made needless: docs/decisions/limits.md ("The solver", the narrow
#: beam).
NARROW_BEAM_DIVISOR = 4
#: The exact pass that proves a segment's optimum walks the values upwards when, walked
#: that way, it meets the highest loss of the beam's arrangement in under this share of
#: the rows it needs walked downwards to meet the lowest
#: (rumdiff.solve.engine._plain_passes._proves_upwards). Shares 0 (never), 0.5 and 1.0
#: tried 63,630, 53,099 and 54,726 transitions a regime-3 puzzle (python
#: experiments/solver_passes.py --m 2 --mode regime3 --count 300 --seed 3), and 135,876,
#: 135,805 and 149,680 a G(4, 3, 100) 20/20/20 one (--k 4 --m 3 --count 40); read when
#: the kernel compiles, so compare with an empty NUMBA_CACHE_DIR. More shares and
#: families: docs/decisions/limits.md ("The exact pass walks the shorter way").
UPWARDS_PROOF_SHARE = 0.5
#: Segments whose joint state space F**k has at least this many states (k >= 5 with
#: m = 3) sharpen the bounds of their tails before the solver's exact pass, when the beams
#: leave the segment open (rumdiff.solve.engine._plain_passes). Smaller spaces prove
#: faster without: sharpening every segment cost 3-44% more transitions on the m <= 2 and
#: k = 4 cells of the regime sweep (10 puzzles a cell, seed 1), and saved 14-35% on the
#: k >= 5, m = 3 cells (measured before the narrow beam, NARROW_BEAM_DIVISOR). (Set
#: this to 1, then beyond 20**6, and compare the transitions experiments/sweep_solver.py
#: prints.)
TAIL_STATES = 2_000_000
#: Tails start every ``max(TAIL_STEP, rows // TAIL_BLOCKS)`` rows, from the bottom.
TAIL_STEP = 20
TAIL_BLOCKS = 8
#: A tail's exact pass may keep this many times the states of the segment's beam pass;
#: one that needs more ends the sharpening (what it sharpened so far stays valid).
TAIL_BUDGET = 2
#: The solver's exact passes with jokers or a table first keep at most this many states
#: alive at once; a pass over it widens the beam (aimed above the best found so far) and
#: tries again with four times as many, up to MAX_LIVE_STATES. On ten simplex
#: G(6, 3, 100) puzzles with two jokers a first exact pass aimed at a weak lower bound
#: took minutes or ran over the budget, while a wider beam found the optimum in seconds
#: (docs/decisions/jokers.md, "Two jokers in G(6, 3, 100)"). 16,384 made G(4, 2, 100)
#: puzzles with two jokers 23% slower, their exact passes started over too often.
JOKER_LIVE_START = 1 << 16

#: Random seed used when the user gives none.
SEED = 0
#: Workers of every command that takes --jobs when the user gives none (processes of
#: generate, solve, train and explore; threads of features): -1, every core (joblib's
#: convention; -2 all but one). Results never depend on it.
JOBS = -1
#: Seconds of work done in the main process before worker processes start (rumdiff
#: solve, features of puzzles with jokers or a table, puzzles made to order): spawning
#: two takes about 3 s, more than ten hard G(4, 2, 100) puzzles need
#: (experiments/bench_order.py), so short work never starts them.
SPAWN_SECONDS = 2.0

# --- Puzzle generator (rumdiff.data.generator) ----------------------------------------
#: Generation mode used when the user gives none: "fixed", "mixed" or "simplex".
GENERATE_MODE = "mixed"
#: Modes the generator knows ("turn": real-game turns, rumdiff.data.turns).
GENERATE_MODES = ("fixed", "mixed", "simplex", "turn")
#: Turn mode: the fewest and most valid sets on the table, and the tiles of the rack.
TURN_SETS = (3, 12)
TURN_RACK = 14
#: Turn mode: redraws of a duplicate turn before giving up.
TURN_REDRAWS = 100
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

# --- Puzzles made to order (rumdiff.data.order, rumdiff generate --difficulty) ---------
#: Candidates drawn at most before giving up on a class or effort range (--max-candidates):
#: hard G(4, 2, 100) takes about 4 a puzzle (28% of mixed puzzles are hard), and 20,000
#: candidates of G(4, 2, 13) take seconds (docs/decisions/made-to-order.md).
ORDER_MAX_CANDIDATES = 20_000
#: Fewest and most candidates of a block: each block is drawn, filtered and searched
#: whole, then accepted in candidate order, so results do not depend on --jobs. The next
#: block is sized from the acceptance rate so far, within these bounds.
ORDER_BLOCK = (32, 2048)
#: Candidates a worker task searches.
ORDER_TASK = 8
#: Memory an order plans for, beyond a block of candidates (rumdiff.data.order.order_bytes):
#: per accepted puzzle, bytes per cell and copy beside ROW_BYTES (its puzzle, solution and
#: their text took 2,100-546,000 bytes, 2-55 a cell and copy, on G(3, 1, 13) to G(6, 3,
#: 1000), turns included); per candidate drawn, bytes beside its key (n * k / 4 bytes, a
#: turn's 2 * n * k) to keep it in a set (138). python experiments/order_memory.py
ORDER_TILE_BYTES = 50
ORDER_KEY_BYTES = 200
#: The filter (rumdiff.learn.screen): for a class, search a candidate when the default
#: model gives the class at least this probability; for an effort range, unless the
#: predicted log10(effort + 1) lies more than ORDER_MARGIN outside it. Both keep at least
#: 99.8% of the puzzles in range of 3,000 held-out ones, and search 30-57% of them
#: (docs/decisions/made-to-order.md, experiments/order_filter.py).
ORDER_PROBABILITY = 0.05
ORDER_MARGIN = 0.2
#: The default model's filter is loaded, and used, only from the block where the searching
#: still ahead of an order is projected to reach this many transitions (at the transitions
#: searched so far per puzzle accepted; rumdiff.data.order.make_to_order's screen_work):
#: about 6 s of the reference search on one core (475 million transitions a second on
#: G(4, 2, 100)), of which the filter saves some 60%, against about 3.1 s to import
#: scikit-learn and load the model (docs/decisions/made-to-order.md, "When the filter
#: is loaded"). A --model given is used from the first block.
ORDER_SCREEN_WORK = 3_000_000_000

# --- Training, model and prediction (rumdiff.learn) -----------------------------------
#: Feature set the classifier is trained on when the user gives none.
TRAIN_FEATURE_SET = "all"
#: Folds of the stratified cross-validation that evaluates the chosen model.
TRAIN_FOLDS = 10
#: Grid used when the user gives none.
TRAIN_GRID = "default"
#: Hyperparameter grids of the pipeline's random forest (step "forest"). "thesis" is the
#: thesis's grid (Section 7.6), searched on every row; its forests grow without bound.
#: "default" bounds every tree (max_leaf_nodes) so the model stays small: capacity is not
#: what limits the forest (docs/decisions/default-grid.md). "mix", the default model's
#: (``make default-model``), adds how many features each split tries: on the mix of
#: families half of them beat the square root (docs/decisions/cross-family.md).
TRAIN_GRIDS = {
    "thesis": {
        "n_estimators": (50, 100, 150),
        "max_depth": (None, 10, 20),
        "min_samples_split": (2, 5, 10),
        "min_samples_leaf": (1, 2, 4),
        "class_weight": ("balanced",),
    },
    "default": {
        "n_estimators": (100,),
        "max_leaf_nodes": (256, 1024),
        "class_weight": ("balanced", None),
    },
}
TRAIN_GRIDS["mix"] = {**TRAIN_GRIDS["default"], "max_features": ("sqrt", 0.5)}
#: Rows of the stratified subsample each grid is searched on (None: every row).
TRAIN_SEARCH_ROWS = {"thesis": None, "default": 40_000}
#: Folds of the grid search (on the searched rows).
TRAIN_SEARCH_FOLDS = 3
#: Score the grid search maximises (scikit-learn scorer name).
TRAIN_SCORING = "f1_macro"
#: Feature sets that ``rumdiff train --compare`` puts side by side, on the same folds.
COMPARE_FEATURE_SETS = ("thesis", "extended")
#: Per grid: most rows each tree of a forest draws (its bootstrap sample), or None for as
#: many as the forest is fit on: a bounded tree needs no more rows to place its splits
#: (docs/decisions/default-grid.md).
TRAIN_MAX_SAMPLES = {"thesis": None, "default": 30_000}
# The mix grid is the default one with more candidates: it is searched and capped alike.
TRAIN_SEARCH_ROWS["mix"] = TRAIN_SEARCH_ROWS["default"]
TRAIN_MAX_SAMPLES["mix"] = TRAIN_MAX_SAMPLES["default"]
#: The regressor of log10 effort (rumdiff.learn.regression): as bounded as the default
#: grid's trees, so the default model stays small (docs/decisions/default-grid.md).
REGRESSOR = {
    "n_estimators": 100,
    "max_leaf_nodes": 1024,
    "max_features": 0.5,
    "max_samples": 30_000,
}
#: Quantiles of the regressor's trees that ``rumdiff predict`` shows as an effort's spread.
PREDICT_SPREAD = (0.1, 0.9)
#: Held-out rows (of the first fold) on which permutation importance is measured.
PERMUTATION_ROWS = 10_000
#: Times each feature is shuffled for permutation importance.
PERMUTATION_REPEATS = 3
#: Puzzles decoded and featurised afresh to check that a dataset's feature columns are
#: what rumdiff.features computes now.
FEATURE_CHECK_ROWS = 200
#: Fixed random puzzles whose features a model's sidecar fingerprints (rumdiff.model).
FINGERPRINT_PUZZLES = 32
#: Version of the model file layout (a skops file plus JSON sidecar); a model saved with
#: another layout is refused, but for the pickles of MODEL_PICKLE_FORMAT when trusted.
MODEL_FORMAT = 3
#: The layout of earlier releases: a joblib pickle, which can run code when loaded, so it
#: is loaded only when the caller trusts it (--trust-pickle).
MODEL_PICKLE_FORMAT = 2
#: zlib compression level of the saved model's archive (0-9).
MODEL_COMPRESS = 6
#: Types beyond skops's own (numbers, containers, numpy's) that a model file may hold, by
#: full name: our feature transformer, the pipeline, the forests and their trees, and
#: scikit-learn's tree structure. Anything else is refused. (skops would trust any
#: scikit-learn estimator and any numpy or scipy ufunc too, but rumdiff's processes skip
#: naming them all, for speed: rumdiff.startup.)
MODEL_TRUSTED_TYPES = (
    "rumdiff.features.transformer.PuzzleFeatures",
    "sklearn.pipeline.Pipeline",
    "sklearn.ensemble._forest.RandomForestClassifier",
    "sklearn.ensemble._forest.RandomForestRegressor",
    "sklearn.tree._classes.DecisionTreeClassifier",
    "sklearn.tree._classes.DecisionTreeRegressor",
    "sklearn.tree._tree.Tree",
)
#: Largest model sidecar read, in bytes (a real one is a few kB).
MODEL_SIDECAR_BYTES = 1 << 20
#: Most worker processes (or a forest's threads) a command or model may ask for; -N
#: means all cores but N - 1.
MAX_JOBS = 1024
#: Largest size the default model may have on disk, in bytes.
MODEL_MAX_BYTES = 10 * 2**20
#: Most bytes a model file may unpack to (the sizes its zip headers declare, summed; the
#: file itself may be no larger), refused before anything is unpacked: 13 times what the
#: shipped models unpack to (39 and 42 MB). Zeros deflate a thousandfold, so without a cap
#: a file of 1 MB could unpack to a gigabyte.
MODEL_MAX_UNPACKED_BYTES = 2**29
#: Largest central directory (the list of members) a model file's archive may have: the
#: shipped models' is under 60 kB, and zipfile holds it whole in memory.
MODEL_MAX_DIRECTORY_BYTES = 1 << 22
#: Default model, relative to the repository root (the folder that holds ``rumdiff/``):
#: trained across families on the mix of models/default-mix.txt.
DEFAULT_MODEL = "models/default.skops"
#: Shipped models that --model takes by name, relative to the repository root: "thesis"
#: knows G(4, 2, 100) without jokers, its classes at that family's effort terciles.
NAMED_MODELS = {"thesis": "models/thesis.skops"}
#: File name of the model ``rumdiff train`` saves in its OUTDIR when given no --model.
MODEL_NAME = "model.skops"
#: Output formats of ``rumdiff predict``.
PREDICT_FORMATS = ("table", "csv")

# --- Difficulty labels, datasets and exploration (rumdiff.data, rumdiff.report) -------
#: Difficulty classes 1..4, by name.
LABEL_NAMES = ("easy", "moderate", "medium", "hard")
#: Difficulty classes by label: {1: "easy", ..., 4: "hard"}.
CLASS_NAMES = dict(enumerate(LABEL_NAMES, start=1))
#: Label measures: what a label's thresholds cut, and how many thresholds each takes.
#: "search": the transitions of the reference search, a fixed definition that belongs to
#: the puzzle (docs/search-effort.md); "solver": those of rumdiff's fast solver, which
#: move when it gets faster; "time": the fast solver's seconds, the thesis's measure,
#: which vary with the machine and its load.
LABEL_MEASURES = {"search": 2, "solver": 2, "time": 3}
#: Label measure used when the user gives none.
LABEL_BY = "search"
#: Each label measure in words, for help texts and reports.
LABEL_MEASURE_TEXT = {
    "search": "the search effort: transitions of the reference exact search "
    "(docs/search-effort.md), the same on every machine and for every solver version",
    "solver": "transitions of rumdiff's fast solver (beam search, then exact passes), "
    "which change when the solver gets faster",
    "time": "seconds of rumdiff's fast solver, the thesis's measure, which vary with the "
    "machine and its load",
}
#: The dataset column each label measure cuts.
LABEL_EFFORT = {
    "search": "search_transitions",
    "solver": "solver_transitions",
    "time": "solver_seconds",
}
#: Added to an effort before its logarithm (the regressor's target): one transition, or
#: a microsecond.
EFFORT_FLOOR = {"search": 1.0, "solver": 1.0, "time": 1e-6}
#: Solvers a dataset can run on every puzzle: the reference search and the fast solver.
DATASET_SOLVERS = ("search", "solver")
#: The solver whose columns each label measure needs.
MEASURE_SOLVER = {"search": "search", "solver": "solver", "time": "solver"}
#: Default thresholds. "search" and "solver": easy = settled by bounds (no transition);
#: moderate < t1 <= medium < t2 <= hard on transitions. "search": one scale for every
#: family, the terciles of the searched puzzles of the training mix with every family
#: weighing the same (docs/decisions/cross-family.md); "solver" in the valleys of its
#: distribution (docs/decisions/solver-thresholds.md). "time": the thesis's (Section
#: 7.4), on seconds.
LABEL_THRESHOLDS = {
    "search": (15_000, 210_000),
    "solver": (30_000, 150_000),
    "time": (0.0001, 0.1, 1.0),
}
#: Labels of the thesis's kind on its family: its own time thresholds, and the search
#: effort's terciles of G(4, 2, 100) in the thesis's mix, whose classes take the shares of
#: the thesis's (docs/decisions/search-thresholds.md, make thesis-model). A training
#: report sets its figures beside the thesis's only for such labels of such puzzles.
THESIS_LABELS = {"search": (2_500_000, 5_700_000), "time": LABEL_THRESHOLDS["time"]}
#: Feature set stored in a dataset when the user gives none (one of DATASET_FEATURE_SETS).
DATASET_FEATURE_SET = "all"
#: Puzzles in a dataset when the user gives none (about a minute and a half on 2 cores).
DATASET_COUNT = 20_000
#: Puzzles per chunk: each chunk is solved by one worker and saved as one part file, so
#: an interrupted run loses at most the chunks in progress (a few seconds each).
DATASET_CHUNK = 500
#: Times each puzzle is solved for its seconds (the minimum is kept).
DATASET_REPEATS = 1
#: Version of the dataset layout, written to the metadata sidecar. Format 1 (rumdiff
#: 0.1) had one set of effort columns (states, transitions, seconds) of the solver run
#: with the recorded beam width; it is read as format 2 (rumdiff.data.schema).
DATASET_FORMAT = 2
#: Exploration grid (thesis Figures 11 and 12): step of p0 and p1 in percent on the full
#: 0-100% grid, step and extent of the zoomed grid, and puzzles per grid cell (the thesis
#: used 100).
#: Memory a generate or explore run may plan for, in GiB (--max-memory raises it): the
#: work is sized up front and refused, with this limit named, if it would not fit.
MAX_MEMORY_GB = 4.0
#: Bytes a generated puzzle row costs beyond its n * k copies (columns, encodings).
ROW_BYTES = 1_000
#: Training plans for this many bytes of memory per byte of its dataset's data (a CSV's
#: size, a Parquet file's uncompressed size): the table as read, its feature matrix,
#: labels and folds. The 400,000 rows of the default model plan for 2.1 GiB.
TRAIN_BYTES_PER_BYTE = 6
#: And for this many bytes per column of the file, whatever its rows (pandas' own cost).
COLUMN_BYTES = 4_096
#: Longest CSV header line a dataset may have, and most columns: a real dataset has
#: about 70 (rumdiff.data.sizing).
DATASET_HEADER_BYTES = 1 << 20
DATASET_MAX_COLUMNS = 10_000

#: Most characters of a user's input that a message quotes (rumdiff.validation.quoted).
QUOTE_CHARS = 200

#: Cells (values x colours) of the puzzles read from a file at a time by the commands
#: that stream it (solve, features, predict): 2,500 puzzles G(4, ., 100).
PUZZLE_BLOCK_CELLS = 1_000_000
#: rumdiff solve shows a progress bar for files of at least this many puzzles.
SOLVE_PROGRESS_PUZZLES = 1_000
#: Puzzles each task of rumdiff solve solves.
SOLVE_TASK_PUZZLES = 50
#: Puzzles each task of rumdiff features computes: about 0.2 s of work for G(4, 2, 100)
#: with every feature, so a task's CSV text (and on a cluster, its pickling) stays a
#: small share of it. A stopped command waits for the tasks its threads are running.
FEATURES_TASK_PUZZLES = 1_000
#: Longest line a puzzle file may have: the most tiles a puzzle holds (n = MAX_N, k = 6,
#: m = 3), at most 11 bytes each.
PUZZLE_LINE_BYTES = 10_000 * 6 * 3 * 11
#: Bytes a puzzle file is read by at a time: the puzzles whole in them are read at once
#: by a compiled kernel (rumdiff.puzzle.files), the one cut at the end line by line.
PUZZLE_READ_BYTES = 1 << 20

#: rumdiff show: the most puzzles one picture holds (the first ones unless --puzzles
#: picks others), and the tallest picture it draws, in inches (every tile of G(6, 3,
#: 100), three copies each, takes 56).
SHOW_MAX_PUZZLES = 20
SHOW_MAX_INCHES = 250

EXPLORE_STEP = 5.0
EXPLORE_ZOOM_STEP = 1.0
EXPLORE_ZOOM_MAX = 10.0
EXPLORE_SAMPLES = 20

# --- Pre-solve features (rumdiff.features) --------------------------------------------
#: Feature sets: the thesis's six, our extended set, both (thesis first), or "scaled":
#: all of them and the joker features in units that compare across families, with k, m,
#: n and j (rumdiff.features.scaled), the set of the cross-family default model.
FEATURE_SETS = ("thesis", "extended", "all", "scaled")
#: Feature sets a dataset can store: one of FEATURE_SETS, or "none" for no feature column.
DATASET_FEATURE_SETS = (*FEATURE_SETS, "none")
#: Feature set used when the user gives none.
FEATURE_SET = "all"
#: Most nodes the depth-first search behind the bound_* features visits in one segment:
#: it decides most puzzles at a small share of the reference search's cost
#: (docs/decisions/features.md).
FEATURE_BOUND_NODES = 10_000
#: Most states the bounded first pass of the joker DP behind the joker_bound_* features
#: keeps (summed over values): it settles almost every turn, at a share of the
#: reference search's cost (docs/decisions/cross-family.md, "The joker bound").
FEATURE_JOKER_BOUND_STATES = 10_000
#: States the probe of the joker DP's second pass behind the joker_probe_* features keeps
#: after each step: the solver's beam width; on the real game's turns the probe tries
#: about 5% of the reference search's transitions (docs/decisions/cross-family.md, "The
#: probe of the second pass").
FEATURE_PROBE_WIDTH = 64
