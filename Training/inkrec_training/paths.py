"""Where things are: the repository, the Training folder and what lies under them.

Every tool of the package finds the models, the Swift test fixtures, its work folder and the shared
training data from here, not from the location of its own file.
"""
from __future__ import annotations

import os

#: the Training folder (this package's parent)
TRAINING = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: the repository's root
ROOT = os.path.dirname(TRAINING)
#: scratch output of the tools (ignored by git)
WORK = os.path.join(TRAINING, "work")
#: training runs (checkpoints, histories; ignored by git)
RUNS = os.path.join(TRAINING, "runs")
#: the shipped models
MODELS = os.path.join(ROOT, "Models")
#: the Swift tests' golden fixtures, which the Python tests read too
FIXTURES = os.path.join(ROOT, "Tests", "DigitalInkTests", "Fixtures")
