"""InkrecProcess against a stand-in process (fake_inkrec.py): answers in order, a death is survived with
every line answered exactly once, and an ink that kills the process is found and answered with an error."""
import io
import os
import sys

import pytest

from inkrec_spark import InkrecDied, InkrecProcess

FAKE = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_inkrec.py")]


def texts(answers):
    return [a["candidates"][0]["text"] if "candidates" in a else ("ERROR", a["error"]) for a in answers]


def test_answers_in_order_over_several_calls_with_one_process():
    with InkrecProcess(FAKE, log=io.StringIO()) as p:
        assert texts(p.answer_all([f"ink{i}" for i in range(3000)])) == [f"ink{i}"[::-1] for i in range(3000)]
        pid = p.pid
        assert texts(p.answer_all(["ab"])) == ["ba"]
        assert p.pid == pid and p.restarts == 0


def test_a_process_that_dies_midway_is_restarted_and_every_line_is_answered_once(tmp_path, monkeypatch):
    monkeypatch.setenv("DIE_AFTER", "700")
    monkeypatch.setenv("DIE_FLAG", str(tmp_path / "died"))
    log = io.StringIO()
    with InkrecProcess(FAKE, log=log) as p:
        lines = [f"ink{i}" for i in range(2000)]
        assert texts(p.answer_all(lines)) == [s[::-1] for s in lines]
        assert p.restarts == 1
    assert "the inkrec process died (signal SIGKILL) with 1300 of 2000 lines unanswered" in log.getvalue()


def test_an_ink_that_kills_the_process_every_time_gets_an_error_and_the_rest_are_read():
    log = io.StringIO()
    lines = [f"ink{i}" for i in range(600)]
    lines[450] = "POISON"
    with InkrecProcess(FAKE, log=log) as p:
        got = texts(p.answer_all(lines))
    assert got[:450] == [s[::-1] for s in lines[:450]] and got[451:] == [s[::-1] for s in lines[451:]]
    assert got[450] == ("ERROR", "the inkrec process died while recognizing this ink (signal SIGKILL)")
    assert "inkrec[" in log.getvalue() and "fake_inkrec: poisoned" in log.getvalue()  # its stderr, prefixed


def test_too_many_deaths_fail_the_partition_for_spark_to_retry():
    with InkrecProcess(FAKE, log=io.StringIO(), max_restarts=2) as p:
        with pytest.raises(InkrecDied, match="inkrec died 3 times in one partition"):
            p.answer_all(["POISON", "a", "POISON", "b", "POISON"])
