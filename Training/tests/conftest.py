"""Tests that read the training data (UNIPEN, beside the repository in ``../shared/data`` or in
``$INKREC_DATA``) carry ``@pytest.mark.needs_data("words", ...)``: in a clone without the data they are
skipped with one line that says what is missing and how to get it, and every other test still runs."""
import os

import pytest

from inkrec_training import data


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "needs_data(*kinds): the test reads unipen/{kind}.jsonl.gz (or .inkpack.xz) of the training data")


def pytest_runtest_setup(item):
    for marker in item.iter_markers(name="needs_data"):
        missing = [k for k in marker.args if not data.available(k)]
        if missing:
            files = ", ".join(f"unipen/{k}.jsonl.gz" for k in missing)
            pytest.skip(f"needs the training data ({files}) in {os.path.normpath(data.DEFAULT_DATA)}: "
                        "set INKREC_DATA to the folder holding unipen/ (Training/README.md, 'Data')")
