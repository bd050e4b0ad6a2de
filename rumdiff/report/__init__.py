"""Reports: what a training run found, where the hard puzzles are, and every figure.

- ``report``: :func:`write_report`, the tables, figures and ``report.md`` of a run, made
  of ``tables`` and ``sections``;
- ``errors``: where the classifier errs, along the effort and by the solver's bound;
- ``exploration``: mean solve time and work over a grid of copy shares (thesis Figures
  11, 12);
- ``figures``: every matplotlib figure of a report, drawn without pyplot.

Pictures of puzzles as the tiles players see are drawn where puzzles and solutions live,
so that they draw themselves in Jupyter: ``rumdiff.puzzle.cards`` and
``rumdiff.solve.display``.
"""

from rumdiff.report.exploration import explore, write_explore
from rumdiff.report.report import write_comparison, write_report

__all__ = ["explore", "write_comparison", "write_explore", "write_report"]
