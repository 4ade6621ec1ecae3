"""export.write_manifest: models that share one network list it once each, with identical entries."""
import hashlib
import json
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training import export


def make_model(root, name, weights="../latn-bilstm96x3/weights.safetensors", lm="lm.bin"):
    d = os.path.join(root, name)
    os.makedirs(d)
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump({"identifier": name, "network": {"weights": weights}, "decoder": {"languageModel": lm}}, f)
    with open(os.path.join(d, "model.json"), "w") as f:
        shared = {"network": weights.split("/")[1]} if weights.startswith("../") else {}
        json.dump({"identifier": name, "aliases": [], "version": "1.0.0", "kind": "text",
                   **shared, "license": "CC-BY-4.0"}, f)
    if lm:
        with open(os.path.join(d, lm), "wb") as f:
            f.write(name.encode() * 10)
    with open(os.path.join(d, "MODEL_CARD.md"), "w") as f:
        f.write(f"# {name}\n")


@pytest.fixture
def models_root(tmp_path):
    root = str(tmp_path / "Models")
    os.makedirs(os.path.join(root, "latn-bilstm96x3"))
    with open(os.path.join(root, "latn-bilstm96x3", "weights.safetensors"), "wb") as f:
        f.write(b"\x01" * 1000)
    return root


def test_shared_network_is_listed_by_each_model_with_one_entry(models_root):
    make_model(models_root, "de-DE")
    make_model(models_root, "fr-FR")
    manifest = export.write_manifest(models_root)
    with open(os.path.join(models_root, "manifest.json")) as f:
        assert json.load(f) == manifest
    assert manifest["formatVersion"] == 1
    assert [m["identifier"] for m in manifest["models"]] == ["de-DE", "fr-FR"]  # the shared folder is no model
    digest = hashlib.sha256(b"\x01" * 1000).hexdigest()
    shared = {"path": "latn-bilstm96x3/weights.safetensors", "size": 1000, "sha256": digest}
    for m in manifest["models"]:
        paths = [f["path"] for f in m["files"]]
        name = m["identifier"]
        assert paths == [f"{name}/MODEL_CARD.md", f"{name}/config.json", f"{name}/lm.bin",
                         "latn-bilstm96x3/weights.safetensors"]
        assert shared in m["files"]


def test_own_files_are_not_duplicated(models_root):
    make_model(models_root, "en-US", weights="weights.safetensors")
    with open(os.path.join(models_root, "en-US", "weights.safetensors"), "wb") as f:
        f.write(b"w")
    manifest = export.write_manifest(models_root)
    assert [f["path"] for f in manifest["models"][0]["files"]] == [
        "en-US/MODEL_CARD.md", "en-US/config.json", "en-US/lm.bin", "en-US/weights.safetensors"]


@pytest.mark.parametrize("weights", ["../../etc/passwd", "/etc/passwd", "../weights.safetensors",
                                     "../latn-bilstm96x3/../../x", "../missing/weights.safetensors"])
def test_references_leaving_the_models_root_are_refused(models_root, weights):
    make_model(models_root, "de-DE", weights=weights)
    with pytest.raises(ValueError):
        export.write_manifest(models_root)


def test_a_shared_folder_linking_out_of_the_root_is_refused(models_root, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "weights.safetensors").write_bytes(b"x")
    os.symlink(outside, os.path.join(models_root, "linked"))
    make_model(models_root, "de-DE", weights="../linked/weights.safetensors")
    with pytest.raises(ValueError):
        export.write_manifest(models_root)


def test_the_shipped_manifest_is_reproduced():
    models = os.path.join(HERE, "..", "..", "Models")
    with open(os.path.join(models, "manifest.json")) as f:
        shipped = json.load(f)
    import shutil
    import tempfile
    with tempfile.TemporaryDirectory() as t:
        for name in os.listdir(models):  # the model folders and the shared network folders
            if name != "Swift" and os.path.isdir(os.path.join(models, name)):
                shutil.copytree(os.path.join(models, name), os.path.join(t, name))
        assert export.write_manifest(t) == shipped


def test_network_name_must_match_the_weights_read(models_root):
    make_model(models_root, "de-DE")
    info_path = os.path.join(models_root, "de-DE", "model.json")
    info = json.load(open(info_path))
    # A model with weights of its own may name its own network, not a shared folder's
    # (en-US 1.4.1's model.json named latn-bilstm96x3 while reading its own weights).
    make_model(models_root, "en-US", weights="weights.safetensors")
    with open(os.path.join(models_root, "en-US", "weights.safetensors"), "wb") as f:
        f.write(b"w")
    own_path = os.path.join(models_root, "en-US", "model.json")
    own = json.load(open(own_path))
    for network, ok in ((None, True), ("en-bilstm96x3", True), ("latn-bilstm96x3", False)):
        with open(own_path, "w") as f:
            json.dump({**own, **({"network": network} if network else {})}, f)
        if ok:
            export.write_manifest(models_root)
        else:
            with pytest.raises(ValueError, match="en-US/model.json names the shared network 'latn-bilstm96x3'"):
                export.write_manifest(models_root)
    with open(own_path, "w") as f:
        json.dump(own, f)
    # A model that reads the shared weights must name their network.
    for wrong in ({k: v for k, v in info.items() if k != "network"}, {**info, "network": "latn-other"}):
        with open(info_path, "w") as f:
            json.dump(wrong, f)
        with pytest.raises(ValueError, match="de-DE/config.json reads the shared weights"):
            export.write_manifest(models_root)
