"""export_latin.update_readers: a model outside the exported languages that reads the exported network (en-US)
gets the network's shape and labels and keeps everything else; one that reads another network is left alone."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training.families.latin.export import update_readers  # noqa: E402
from inkrec_training import charset


def write(models, name, config):
    os.makedirs(os.path.join(models, name), exist_ok=True)
    with open(os.path.join(models, name, "config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f)


def read(models, name):
    with open(os.path.join(models, name, "config.json"), encoding="utf-8") as f:
        return json.load(f)


def test_readers_of_the_exported_network_are_updated(tmp_path, capsys):
    models = str(tmp_path)
    before = charset.NAME
    charset.select("latin")  # as export_latin.main selects it
    try:
        check(models, capsys)
    finally:
        charset.select(before)


def check(models, capsys):
    old = {"weights": "../latn-bilstm96x3/weights.safetensors", "hidden": 64, "layers": 2, "numClasses": 10}
    decoder = {"languageModel": "lm.bin", "lmWeight": 1.0, "viewRescoring": {"stretches": [0.88], "weight": 1.0}}
    write(models, "en-US", {"identifier": "en-US", "network": old, "labels": ["a"], "decoder": decoder})
    write(models, "de", {"identifier": "de", "network": old, "labels": ["a"], "decoder": {}})
    write(models, "xx", {"identifier": "xx", "network": {**old, "weights": "../latn-bilstm192x3/weights.safetensors"},
                         "labels": ["a"]})
    write(models, "ja", {"identifier": "ja", "network": {"weights": "../cjk-bilstm192x3/weights.safetensors"}, "labels": ["あ"]})
    cfg = {"inputDim": 4, "hidden": 96, "layers": 3, "numClasses": len(charset.CHARACTERS) + 1, "reduceAfter": 1,
           "head": "ctc"}
    assert update_readers(models, "latn-bilstm96x3", cfg, exported=["de"]) == ["en-US"]
    en = read(models, "en-US")
    assert en["network"] == {"weights": "../latn-bilstm96x3/weights.safetensors", **cfg, "precision": "int8"}
    assert en["labels"] == charset.CHARACTERS
    assert en["decoder"] == decoder and en["identifier"] == "en-US"
    assert read(models, "de")["labels"] == ["a"]  # the exported languages are written by export_latin itself
    assert read(models, "xx")["network"]["hidden"] == 64 and read(models, "ja")["labels"] == ["あ"]
    assert "xx reads ../latn-bilstm192x3" in capsys.readouterr().out
