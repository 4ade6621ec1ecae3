"""scripts/public_api.py: the API listing and the check that fails on a removed or changed public symbol."""
import copy
import json
import os
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "public_api.py")


def symbol(path, kind, declaration, spi=False, synthesized=False, access="public"):
    precise = "s:" + "".join(path) + ("::SYNTHESIZED::x" if synthesized else "")
    s = {"kind": {"identifier": "swift." + kind, "displayName": kind.capitalize()},
         "identifier": {"precise": precise, "interfaceLanguage": "swift"},
         "pathComponents": path, "accessLevel": access,
         "declarationFragments": [{"kind": "text", "spelling": declaration}]}
    if spi:
        s["spi"] = True
    return s


GRAPH = {"symbols": [
    symbol(["DigitalInkRecognizer"], "class", "final class DigitalInkRecognizer"),
    symbol(["DigitalInkRecognizer", "recognize(_:context:)"], "method",
           "func recognize(_ ink: Ink, context: RecognitionContext = RecognitionContext()) async throws -> DigitalInkRecognitionResult"),
    symbol(["DigitalInkRecognizer", "unload()"], "method", "func unload() async"),
    symbol(["ComputeOptions", "recurrentKernel"], "property", "var recurrentKernel: RecurrentKernel", spi=True),
    symbol(["Ink", "!=(_:_:)"], "operator", "static func != (lhs: Self, rhs: Self) -> Bool", synthesized=True),
]}


def run(tmp_path, graph, *args):
    d = tmp_path / "graphs"
    d.mkdir(exist_ok=True)
    (d / "DigitalInk.symbols.json").write_text(json.dumps(graph))
    return subprocess.run([sys.executable, SCRIPT, str(d), "--api", str(tmp_path / "api.txt"), *args],
                          capture_output=True, text=True)


def test_listing_has_signatures_and_leaves_out_spi_and_synthesized(tmp_path):
    assert run(tmp_path, GRAPH, "--update").returncode == 0
    lines = (tmp_path / "api.txt").read_text().splitlines()
    assert lines == [
        "DigitalInkRecognizer (class): final class DigitalInkRecognizer",
        "DigitalInkRecognizer.recognize(_:context:) (method): func recognize(_ ink: Ink, context: RecognitionContext = "
        "RecognitionContext()) async throws -> DigitalInkRecognitionResult",
        "DigitalInkRecognizer.unload() (method): func unload() async",
    ]
    ok = run(tmp_path, GRAPH)
    assert ok.returncode == 0, ok.stderr
    assert "3 public symbols (1 top-level), as listed" in ok.stdout


def test_a_removed_public_method_fails(tmp_path):
    run(tmp_path, GRAPH, "--update")
    graph = copy.deepcopy(GRAPH)
    graph["symbols"] = [s for s in graph["symbols"] if s["pathComponents"][-1] != "unload()"]
    r = run(tmp_path, graph)
    assert r.returncode == 1
    assert "-DigitalInkRecognizer.unload() (method): func unload() async" in r.stderr
    assert "1 lines gone or changed, 0 new" in r.stderr


def test_a_changed_signature_fails(tmp_path):
    run(tmp_path, GRAPH, "--update")
    graph = copy.deepcopy(GRAPH)
    for s in graph["symbols"]:
        if s["pathComponents"][-1] == "recognize(_:context:)":
            s["declarationFragments"][0]["spelling"] = s["declarationFragments"][0]["spelling"].replace(
                "async throws", "async throws(DigitalInkError)")
    r = run(tmp_path, graph)
    assert r.returncode == 1
    assert "+DigitalInkRecognizer.recognize(_:context:) (method): func recognize(" in r.stderr


def test_an_spi_change_does_not_fail(tmp_path):
    run(tmp_path, GRAPH, "--update")
    graph = copy.deepcopy(GRAPH)
    graph["symbols"].append(symbol(["ComputeOptions", "projectionKernel"], "property", "var projectionKernel", spi=True))
    assert run(tmp_path, graph).returncode == 0
