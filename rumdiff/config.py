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
#: Solver budget: the most DP states alive at once (between two colour passes); the
#: kernel reserves lists of this size (64 bytes a state: two sets of code, bits,
#: value and origin, and an optimistic value).
MAX_LIVE_STATES = 1 << 23
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

# --- Training, model and prediction (rumdiff.train, rumdiff.model, rumdiff.predict) ---
#: Feature set the classifier is trained on when the user gives none.
TRAIN_FEATURE_SET = "all"
#: Label scheme trained on when the user gives none: "work" or "time".
TRAIN_LABEL_BY = "work"
#: Folds of the stratified cross-validation that evaluates the chosen model.
TRAIN_FOLDS = 10
#: Grid used when the user gives none.
TRAIN_GRID = "default"
#: Hyperparameter grids of the pipeline's random forest (step "forest"). "thesis" is the thesis's
#: grid (Section 7.6), searched on every row; its forests grow without bound (hundreds of MB on
#: 400,000 rows). "default" keeps a model small and fast: max_leaf_nodes bounds a tree at 2 *
#: max_leaf_nodes - 1 nodes (about 20 bytes each once compressed, so 100 trees of 1024 leaves
#: take about 4 MB, whatever the number of rows; the default model must stay under
#: MODEL_MAX_BYTES). Evidence (one-off runs during development, with the work labels of an
#: earlier, less pruned solver; no script in experiments/ reproduces them), 60,500 default mixed
#: G(4, 2, 100) puzzles, all features, 3 folds: macro-F1 0.8775 with 1024 leaves, 0.8777 with
#: 2048, 0.8773 with 4096 (9.6 MB), 0.8766 unweighted; 19,000 puzzles, 5 folds: the thesis's best
#: (150 trees, min_samples_split 10, min_samples_leaf 4) 0.8750 against 0.8741 for 1024 leaves,
#: at 2.5 times the fit time; min_samples_leaf 8 and max_features 0.5 no better. Capacity is not
#: what limits the forest, so the default searches only the few settings that could matter: tree
#: size and class weighting.
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
#: Rows of the stratified subsample each grid is searched on (None: every row).
TRAIN_SEARCH_ROWS = {"thesis": None, "default": 40_000}
#: Folds of the grid search (on the searched rows).
TRAIN_SEARCH_FOLDS = 3
#: Score the grid search maximises (scikit-learn scorer name).
TRAIN_SCORING = "f1_macro"
#: Feature sets that ``rumdiff train --compare`` puts side by side, on the same folds.
COMPARE_FEATURE_SETS = ("thesis", "extended")
#: Per grid: most rows each tree of a forest draws (its bootstrap sample), or None for as
#: many as the forest is fit on. A tree of at most 1024 leaves needs no more to place its
#: splits (the one-off runs above: macro-F1 0.8772 with 20,000 rows a tree, 0.8777 with
#: all 40,000, in half the time), and it stops tree building growing with the data;
#: bootstrapping and prediction still grow linearly (400,000 rows, 10 folds: 53 s of
#: cross-validation, experiments/bench_train.py measures the stages).
TRAIN_MAX_SAMPLES = {"thesis": None, "default": 30_000}
#: Held-out rows (of the first fold) on which permutation importance is measured.
PERMUTATION_ROWS = 10_000
#: Times each feature is shuffled for permutation importance.
PERMUTATION_REPEATS = 3
#: Puzzles decoded and featurised afresh to check that a dataset's feature columns are
#: what rumdiff.features computes now.
FEATURE_CHECK_ROWS = 200
#: Fixed random puzzles whose features a model's sidecar fingerprints (rumdiff.model).
FINGERPRINT_PUZZLES = 32
#: Version of the model file layout (joblib pickle plus JSON sidecar); a model saved with
#: another layout is refused.
MODEL_FORMAT = 1
#: joblib compression level of saved models (zlib, 0-9).
MODEL_COMPRESS = 3
#: Largest size the default model may have on disk, in bytes.
MODEL_MAX_BYTES = 10 * 2**20
#: Default model, relative to the repository root (the folder that holds ``rumdiff/``).
DEFAULT_MODEL = "models/default.joblib"
#: Parallel workers for training when the user gives none (-1: every core). Results do
#: not depend on it.
TRAIN_JOBS = -1

# --- Difficulty labels and datasets (rumdiff.labels, rumdiff.dataset, rumdiff.explore) ---
#: Difficulty classes 1..4, by name.
LABEL_NAMES = ("easy", "moderate", "medium", "hard")
#: Label scheme used when the user gives none: "work" (the same on every machine) or
#: "time" (the thesis's, on solve seconds; depends on the machine and its load).
LABEL_BY = "work"
#: Label schemes and their default thresholds.
#: "time": the thesis's (Section 7.4), on solve seconds: easy < 0.0001 <= moderate < 0.1
#: <= medium < 1 <= hard. Our solver is about 100x faster than the thesis's, so on a
#: default mixed G(4, 2, 100) dataset these put 0.6% of puzzles in easy, 95% in
#: moderate, 4% in medium and none in hard (10,000 puzzles, seed 0, a busy 2-core machine).
#: "work": easy = solved by preprocessing and bounds alone (method "bounds", no DP
#: work); among the others, moderate < 200,000 <= medium < 1,000,000 <= hard, on the
#: solver's transitions. Evidence (experiments/bench_dataset.py --count 10000, seed 0,
#: solver of commit 0e65e73): 16.9% of puzzles need no DP. The DP puzzles' transitions
#: are not spread evenly but clump: a narrow peak at 56,000-80,000 (31% of all puzzles,
#: dense regime-3 puzzles), a mode at 355,000-890,000 (20%) and a tail at 1.6-9 million
#: (12%), with sparse valleys between them at 80,000-355,000 (8.7% of puzzles over a
#: factor 4.5) and 890,000-1,580,000 (2.8%). The thresholds are round numbers in those
#: valleys, so a few percent more or less work rarely changes a puzzle's class (terciles
#: would cut the peak: there, a class would hang on noise). Classes: easy 16.9%,
#: moderate 44.4%, medium 24.6%, hard 14.1% (the thesis, by time: 25.9 / 17.4 / 28.0 /
#: 28.7%). rumdiff.labels.suggest_work_thresholds automates the choice (it picks
#: 100,000-200,000 and 1,000,000-1,500,000 on different samples: the valleys are flat).
#: The solver before 0e65e73 gave 17.0 / 14.8 / 40.7 / 27.5% with the same thresholds
#: (20,000 puzzles). Work depends on the solver's pruning: when it changes, rerun
#: experiments/bench_dataset.py and check that every class keeps at least 10%.
LABEL_THRESHOLDS = {"work": (200_000, 1_000_000), "time": (0.0001, 0.1, 1.0)}
#: Default "work" thresholds of a dataset solved with beam_width=0 (``rumdiff generate
#: --beam-width 0``): the plain exact DP, pruned only by the bounds known before it
#: starts, whose work follows the size of the puzzle's search space (like the thesis's
#: solver, which had no beam search). Evidence: 100,000 mixed G(4, 2, 100) puzzles, seed
#: 1 (data/generated/plain100k.parquet): the terciles of the DP puzzles' transitions are
#: 2.49 and 5.71 million; rounded, they give easy 16.9%, moderate 27.7%, medium 27.5%,
#: hard 27.9%. Valleys, the rule of the default thresholds, do not suit this work:
#: suggest_work_thresholds picks 300,000 and 2,000,000, which leave 57% of puzzles hard
#: and classes that one pre-solve count almost decides (on 12,000 of these puzzles, with
#: the similar valleys 200,000 and 1,500,000, a depth-4 tree on dp_run_states alone is
#: 0.95 accurate; 0.78 with terciles; experiments/label_ceiling.py --plain-dp).
PLAIN_DP_WORK_THRESHOLDS = (2_500_000, 5_700_000)
#: Feature set stored in a dataset when the user gives none ("thesis", "extended",
#: "all", or "none" for no feature columns).
DATASET_FEATURE_SET = "all"
#: Puzzles in a dataset when the user gives none (about a minute and a half on 2 cores).
DATASET_COUNT = 20_000
#: Puzzles per chunk: each chunk is solved by one worker and saved as one part file, so
#: an interrupted run loses at most the chunks in progress (a few seconds each).
DATASET_CHUNK = 500
#: Times each puzzle is solved for its seconds (the minimum is kept).
DATASET_REPEATS = 1
#: Worker processes that solve datasets and explorations (joblib: -1 every core).
DATASET_JOBS = -1
#: Version of the dataset layout, written to the metadata sidecar.
DATASET_FORMAT = 1
#: Exploration grid (thesis Figures 11 and 12): step of p0 and p1 in percent on the full
#: 0-100% grid, step and extent of the zoomed grid, and puzzles per grid cell (the thesis
#: used 100).
EXPLORE_STEP = 5.0
EXPLORE_ZOOM_STEP = 1.0
EXPLORE_ZOOM_MAX = 10.0
EXPLORE_SAMPLES = 20

# --- Pre-solve features (rumdiff.features) -------------------------------------------
#: Feature sets: the thesis's six, our extended set, or both (thesis first).
FEATURE_SETS = ("thesis", "extended", "all")
#: Feature set used when the user gives none.
FEATURE_SET = "all"
