"""The CJK ink generator and its glyph sources: SVG paths, writers, placement, the character set."""
import json
import os
import random

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training.cli import run_tool
from inkrec_training import cjk, cjk_charset, cjk_glyphs
from inkrec_training.features import ink_features  # noqa: E402

# Two strokes of a made-up character: a horizontal bar, then a vertical one under it (y down).
GLYPH = [np.array([[0.1, 0.3], [0.5, 0.3], [0.9, 0.3]]), np.array([[0.5, 0.4], [0.5, 0.7], [0.5, 0.95]])]


def test_svg_path_absolute_relative_and_smooth_curves():
    p = cjk_glyphs.parse_svg_path("M10,20c0,10,10,20,20,20s20,-10,20,-20L60,60h-10v5", steps=4)
    assert np.allclose(p[0], [10, 20])
    assert np.allclose(p[4], [30, 40])          # end of the first cubic (relative to 10,20)
    assert np.allclose(p[8], [50, 20])          # end of the smooth cubic (relative to 30,40)
    # The smooth cubic's first control point mirrors the previous one (20,40 about 30,40 -> 40,40):
    # at t = 1/4 the curve lies above its chord's start, y > 20.
    assert p[5][1] > 30
    assert np.allclose(p[-3:], [[60, 60], [50, 60], [50, 65]])
    with pytest.raises(ValueError):
        cjk_glyphs.parse_svg_path("M0,0A5,5,0,0,1,10,10")


def test_kanjivg_file_strokes_in_document_order(tmp_path):
    svg = tmp_path / "04e00.svg"
    svg.write_text('<svg><g><path id="s1" d="M10.9,54.5c0,0,50,0,87,-1"/><path id="s2" d="M54.5,10.9l0,87"/></g></svg>')
    strokes = cjk_glyphs.read_kanjivg_file(str(svg))
    assert len(strokes) == 2
    assert np.allclose(strokes[0][0], [0.1, 0.5])            # 109-unit box to em
    assert strokes[1][:, 1].max() > 0.8 and np.ptp(strokes[1][:, 0]) < 1e-9


def test_simplify_keeps_corners_and_drops_straight_points():
    corner = np.array([[0.0, 0.0], [0.5, 0.0], [0.5, 0.5]])
    s = cjk_glyphs._simplify(corner)
    assert len(s) == 3 and np.allclose(s[1], [0.5, 0.0])
    line = np.stack([np.linspace(0, 1, 50), np.zeros(50)], axis=1)
    assert len(cjk_glyphs._simplify(line)) == 2


def test_writers_are_deterministic_and_heldout_ids_are_never_training_ids():
    assert cjk.Style.for_writer(5) == cjk.Style.for_writer(5)
    assert cjk.Style.for_writer(5) != cjk.Style.for_writer(6)
    assert cjk.HELDOUT_WRITER_BASE >= cjk.TRAIN_WRITERS
    rng = random.Random(3)
    train = {cjk.train_writer(rng) for _ in range(2000)}
    held = {cjk.heldout_writer(i) for i in range(200)}
    assert not train & held


def test_character_is_written_in_order_right_way_up_with_timestamps():
    gen = cjk.Generator({"十": [GLYPH]}, {})
    style = cjk.Style.for_writer(1)
    style = cjk.Style(**{**style.__dict__, "join": 0.0, "swap": 0.0, "reverse": 0.0})
    ink = gen.write("十", style, random.Random(4))
    assert len(ink) == 2
    bar, stem = ink
    assert np.ptp(bar[:, 0]) > 2 * np.ptp(bar[:, 1])       # the first stroke is the bar
    assert stem[:, 1].mean() > bar[:, 1].mean()              # below it: y grows downwards
    t = np.concatenate([s[:, 2] for s in ink])
    assert np.all(np.diff(t) > 0)                            # time runs on across strokes
    assert 50 < np.ptp(np.concatenate(ink)[:, 1]) < 120      # about 100 units per em


def test_joins_draw_the_path_between_strokes():
    gen = cjk.Generator({"十": [GLYPH]}, {})
    style = cjk.Style(**{**cjk.Style.for_writer(1).__dict__, "join": 1.0, "swap": 0.0, "reverse": 0.0})
    ink = gen.write("十", style, random.Random(4))
    assert len(ink) == 1


def test_line_goes_left_to_right_and_unknown_characters_give_none():
    gen = cjk.Generator({"十": [GLYPH], "。": [cjk_glyphs.PUNCTUATION["。"]]}, {})
    rng = random.Random(5)
    ink = gen.write("十十A十。", cjk.Style.for_writer(2), rng)
    assert ink is not None
    assert gen.write("十字", cjk.Style.for_writer(2), rng) is None
    xs = [s[:, 0].mean() for s in ink]
    assert xs[0] < xs[-1]
    f = ink_features(ink, steps_per_line_height=cjk_charset.STEPS_PER_LINE_HEIGHT)
    assert f.shape[1] == 4 and len(f) > 10 and np.isfinite(f).all()


def test_sample_line_length_and_punctuation():
    rng = random.Random(6)
    words, cum = ["我们", "你", "好"], [1.0, 2.0, 3.0]
    for _ in range(50):
        t = cjk.sample_line(words, cum, "zh-Hans", rng)
        assert 5 <= len(t) <= 15
        assert " " not in t


def test_charset_file_is_ascii_then_punctuation_then_kana_and_han():
    chars = json.load(open(os.path.join(HERE, "..", "inkrec_training", "cjk_charset.json"), encoding="utf-8"))
    assert chars == cjk_charset.CHARACTERS and len(set(chars)) == len(chars)
    assert chars[:95] == cjk.ASCII
    punct = list(cjk_glyphs.PUNCTUATION)
    assert chars[95:95 + len(punct)] == punct
    rest = chars[95 + len(punct):]
    assert rest == sorted(rest)
    for c in "あアー的們这這学學気氣":
        assert c in cjk_charset.INDEX, c
    assert cjk_charset.decode(cjk_charset.encode("漢字かな。")) == "漢字かな。"


def test_export_writes_shared_network_and_three_models(tmp_path):
    """cjk export on a tiny random network: one shared 8-bit file, three configs that name it, the
    decoder without the leading-space rule, the labels of the character set."""
    import shutil
    import torch
    from inkrec_training.model import InkRecNet
    net = InkRecNet(4, 4, 2, cjk_charset.NUM_CLASSES, 1)
    ck = tmp_path / "w.pt"
    torch.save({"model": net.state_dict(), "config": net.config(), "history": []}, ck)
    lm_dir = tmp_path / "lm"
    lm_dir.mkdir()
    fixture = os.path.join(HERE, "..", "..", "Tests", "DigitalInkTests", "Fixtures", "lm2-cjk.bin")
    for code in ("ja", "zh-Hans", "zh-Hant"):
        shutil.copyfile(fixture, lm_dir / f"{code}.bin")
    models = tmp_path / "Models"
    run_tool("cjk", "export", "--checkpoint", str(ck), "--lm-dir", str(lm_dir), "--models", str(models), "--no-manifest",
             check=True, capture_output=True)
    assert (models / "cjk-bilstm4x2" / "weights.safetensors").exists()
    for ident, alias in (("ja", "ja-JP"), ("zh-Hans", "zh-CN"), ("zh-Hant", "zh-TW")):
        cfg = json.load(open(models / ident / "config.json", encoding="utf-8"))
        meta = json.load(open(models / ident / "model.json", encoding="utf-8"))
        assert cfg["network"]["weights"] == "../cjk-bilstm4x2/weights.safetensors"
        assert cfg["network"]["numClasses"] == len(cfg["labels"]) + 1 == cjk_charset.NUM_CLASSES
        assert cfg["decoder"]["contextSeparator"] == "" and cfg["decoder"]["symbolsPerFrame"] > 0
        assert cfg["features"]["stepsPerLineHeight"] == cjk_charset.STEPS_PER_LINE_HEIGHT
        assert alias in meta["aliases"] and "CC-BY-SA-3.0" in meta["license"]
        assert "generated" in open(models / ident / "MODEL_CARD.md", encoding="utf-8").read()


def test_sample_file_is_marked_generated_and_readable(tmp_path):
    from inkrec_training.families.cjk import inks as make_cjk_inks
    text = make_cjk_inks.SAMPLE_TEXT["zh-Hans"]
    gen = cjk.Generator({c: [GLYPH] for c in text}, {})
    make_cjk_inks.write_sample(gen, "zh-Hans", str(tmp_path))
    doc = json.load(open(tmp_path / "generated-zh-Hans.json", encoding="utf-8"))
    assert doc["label"] == text and doc["note"].startswith("GENERATED")
    assert len(doc["strokes"]) >= len(text) and all(set(p) == {"x", "y", "t"} for s in doc["strokes"] for p in s["points"])
    ts = [p["t"] for s in doc["strokes"] for p in s["points"]]
    assert ts == sorted(ts) and all(isinstance(t, int) for t in ts)
