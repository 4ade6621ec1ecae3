"""choose_language_decoders.choose: each language's best decoder weights on the tuning writers."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training.families.latin.choose_decoders import choose  # noqa: E402


def test_best_word_accuracy_then_cer_then_nearest_the_default():
    runs = [
        (1.0, 1.5, {"pl": {"word_acc": 0.80, "cer": 0.05}, "ro": {"word_acc": 0.78, "cer": 0.06}}),
        (1.4, 1.5, {"pl": {"word_acc": 0.80, "cer": 0.05}, "ro": {"word_acc": 0.78, "cer": 0.05}}),
        (2.0, 1.5, {"pl": {"word_acc": 0.79, "cer": 0.04}, "ro": {"word_acc": 0.81, "cer": 0.07}}),
        (2.2, 1.0, {"pl": {"word_acc": 0.80, "cer": 0.05}, "ro": {"word_acc": 0.70, "cer": 0.09}}),
    ]
    got = choose(runs, default=(1.4, 1.5))
    assert got["ro"]["lmWeight"] == 2.0 and got["ro"]["word_acc"] == 0.81       # accuracy first
    assert (got["pl"]["lmWeight"], got["pl"]["insertionBonus"]) == (1.4, 1.5)  # a tie goes to the default
    runs[1][2]["pl"]["cer"] = 0.06
    assert choose(runs, default=(1.4, 1.5))["pl"]["lmWeight"] == 1.0           # then the lower CER, then nearest
