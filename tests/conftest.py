"""Shared fixtures: the thesis's worked examples, a tiny real dataset and a model trained
on it, each built once per test session."""

import pytest
from helpers import SECTION_4_1, TINY_GRID, TINY_REGRESSOR, tiny_dataset, train_model

from rumdiff import config
from rumdiff.puzzle import parse_puzzles


@pytest.fixture
def section_4_1():
    """The two puzzles of thesis Section 4.1, scoring 93 and 65."""
    return parse_puzzles(SECTION_4_1, "thesis-4.1.in", n=5)


@pytest.fixture(scope="session")
def dataset(tmp_path_factory):
    """A tiny real dataset: 300 G(4, 2, 20) puzzles, generated, solved and labelled."""
    return tiny_dataset(tmp_path_factory.mktemp("data"))


@pytest.fixture(scope="session")
def trained(dataset, tmp_path_factory):
    """(model, dataset): a tiny model trained once on :func:`dataset`."""
    return train_model(dataset, tmp_path_factory.mktemp("model")), dataset


@pytest.fixture
def tiny_forests(monkeypatch):
    """Make the forests of the default grid and the regressor tiny where the CLI reads them."""
    monkeypatch.setitem(config.TRAIN_GRIDS, "default", TINY_GRID)
    monkeypatch.setitem(config.TRAIN_SEARCH_ROWS, "default", 150)
    monkeypatch.setattr(config, "REGRESSOR", TINY_REGRESSOR)
