"""The package's shared pieces: the entry point, cards, splits and the engine runner."""
import hashlib
import json
import os
import stat
import subprocess

import pytest

from inkrec_training import cards, cli, engine, splits


# --- the entry point ---------------------------------------------------------------------------------

def test_every_tool_is_a_module_with_main():
    import importlib
    for family, commands in cli.TOOLS.items():
        assert set(commands) <= set(cli.COMMANDS), family
        for command, topics in commands.items():
            for topic, tool in topics.items():
                module = importlib.import_module(f"inkrec_training.{tool.module}")
                assert callable(getattr(module, "main", None)), (family, command, topic)


def test_resolve_picks_the_default_topic_or_the_named_one():
    tool, prog, args = cli.resolve(["latin", "evaluate", "--words", "5"])
    assert tool.module == "families.latin.evaluate" and args == ["--words", "5"]
    assert prog == "python -m inkrec_training latin evaluate english"
    tool, _, args = cli.resolve(["latin", "evaluate", "languages", "--card"])
    assert tool.module == "families.latin.evaluate_languages" and args == ["--card"]
    tool, _, args = cli.resolve(["shapes", "export", "--version", "1"])   # a topic with options of its own
    assert tool.module == "families.shapes.train" and args == ["--export-only", "--version", "1"]


@pytest.mark.parametrize("argv,message", [([], ""), (["greek"], "unknown family 'greek'"),
                                          (["latin"], "which command"), (["pages", "train"], "no command 'train'")])
def test_resolve_refuses_with_the_usage(argv, message):
    with pytest.raises(SystemExit) as e:
        cli.resolve(argv)
    assert message in str(e.value) and "usage: python -m inkrec_training" in str(e.value)


def test_the_module_runs_from_anywhere(tmp_path):
    out = cli.run_tool("pages", "data", "--help", capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0 and "python -m inkrec_training pages data pages" in out.stdout


# --- cards -------------------------------------------------------------------------------------------

B, E = "<!-- x: written by a tool -->", "<!-- /x -->"


def test_put_section_replaces_in_place_and_leaves_the_rest():
    text = f"# Card\n\nintro\n\n{B}\nold figures\n{E}\n\n## Status\nfine\n"
    got = cards.put_section(text, B, E, f"{B}\nnew figures\n{E}\n", before="## Status")
    assert got == f"# Card\n\nintro\n\n{B}\nnew figures\n{E}\n\n## Status\nfine\n"
    assert cards.section(got, B, E) == f"{B}\nnew figures\n{E}"


def test_put_section_inserts_before_a_heading_or_appends():
    text = "# Card\n\n## Status\nfine\n"
    assert cards.put_section(text, B, E, f"{B}\n1\n{E}", before="## Status") == f"# Card\n\n{B}\n1\n{E}\n\n## Status\nfine\n"
    assert cards.put_section(text, B, E, f"{B}\n1\n{E}") == f"# Card\n\n## Status\nfine\n\n{B}\n1\n{E}\n"
    with pytest.raises(ValueError):
        cards.put_section(text, B, E, "no markers")


def test_write_card_keeps_the_evaluated_part(tmp_path):
    path = str(tmp_path / "MODEL_CARD.md")
    cards.write(path, f"# v1\n{B}\nfigures\n{E}\n")
    cards.write_card(path, "# v2\n", keep_from=B)
    assert cards.read(path) == f"# v2\n\n{B}\nfigures\n{E}\n"
    cards.write_card(path, "# v3\n")
    assert cards.read(path) == "# v3\n"


# --- splits ------------------------------------------------------------------------------------------

def test_buckets_are_md5_of_salt_and_key():
    for key, salt in (("wri:ter1", ""), ("ced:MWBK4038", "lang"), ("x", "align")):
        assert splits.bucket(key, salt) == int(hashlib.md5((salt + key).encode()).hexdigest()[:8], 16)
    assert splits.writer_half("w", "lang") == ("tuning" if splits.bucket("w", "lang") % 2 == 0 else "reported")


def test_held_out_writers_are_about_a_tenth_and_slices_are_disjoint():
    writers = [f"writer{i}" for i in range(4000)]
    share = sum(map(splits.is_validation_writer, writers)) / len(writers)
    assert 0.08 < share < 0.12

    class It:
        def __init__(self, i): self.id, self.writer = i, writers[i % 50]
    items = [It(i) for i in range(300)]
    train, val = splits.split(items)
    assert {id(x) for x in train}.isdisjoint(id(x) for x in val) and len(train) + len(val) == 300
    rep, tune, rest = splits.held_out_word_slices(val, reported=10, tuning=5)
    ids = [x.id for x in rep + tune + rest]
    assert len(rep) == 10 and len(tune) == 5 and sorted(ids) == sorted(x.id for x in val)


# --- the engine runner -------------------------------------------------------------------------------

def fake_cli(tmp_path, body: str) -> str:
    path = tmp_path / "inkrec"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_recognize_file_reads_answers_by_id(tmp_path):
    answers = [{"id": "a", "candidates": [{"text": "cat", "score": -1.0, "confidence": 0.9},
                                         {"text": "cot", "score": -2.0}]},
               {"id": "b", "candidates": []}]
    cli_path = fake_cli(tmp_path, "echo \"$@\" > " + str(tmp_path / "args") + "\n" +
                        "".join(f"echo '{json.dumps(a)}'\n" for a in answers))
    got, seconds = engine.recognize_file(cli_path, "M", "in.jsonl", ["--strict"], max_results=2)
    assert got == answers and seconds >= 0
    assert (tmp_path / "args").read_text().split() == ["recognize", "--model-directory", "M", "--batch", "in.jsonl",
                                                       "--max-results", "2", "--strict"]
    assert engine.best_texts(got) == {"a": "cat", "b": ""}
    assert engine.candidate_lists(got) == {"a": [("cat", -1.0, 0.9), ("cot", -2.0, None)], "b": []}


def test_a_failing_engine_raises_unless_failures_are_tolerated(tmp_path, capsys):
    partly = fake_cli(tmp_path, "echo '{\"id\": \"a\"}'\necho 'line 2: not an ink' >&2\nexit 1\n")
    with pytest.raises(subprocess.CalledProcessError):
        engine.run(partly, ["recognize"])
    out, _ = engine.run(partly, ["recognize"], tolerate_failures=True)
    assert out.strip() == '{"id": "a"}' and "not an ink" in capsys.readouterr().err
    os.remove(partly)
    silent = fake_cli(tmp_path, "exit 3\n")
    with pytest.raises(SystemExit):
        engine.run(silent, ["recognize"], tolerate_failures=True)
