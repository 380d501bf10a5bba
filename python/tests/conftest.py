"""Shared fixtures. The reference is pyskein 1.0 (`import skein`), a test
dependency: without it the tests fail at import, they never skip."""

import os
import random

import pytest

SEED = int(os.environ.get("SKEIN_PY_SEED", random.SystemRandom().randrange(2**32)))


def pytest_report_header(config):
    return f"random arguments: SKEIN_PY_SEED={SEED} (set it to replay a run)"


@pytest.fixture
def rng(request):
    # One stream per test, reproducible from the seed and the test's name.
    return random.Random(f"{SEED}:{request.node.nodeid}")
