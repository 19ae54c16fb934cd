"""Shared paths for the Python tests: the repository root, the in-repository test data and reference rows."""

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPOSITORY = TESTS.parents[1]
DATA = TESTS / "data"
TRACES = DATA / "traces"
VIDEO = DATA / "video"
REFERENCE = REPOSITORY / "Tests" / "Fixtures" / "reference" / "gym" / "pensieve_ppo_test_sample.csv.gz"
TRAIN_REFERENCE = REPOSITORY / "Tests" / "Fixtures" / "reference" / "gym" / "pensieve_ppo_train_sample.csv.gz"


@pytest.fixture
def repository():
    return REPOSITORY
