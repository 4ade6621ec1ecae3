"""ink_line: the JSON line sent to inkrec for each way a DataFrame may hold an ink."""
import json

import numpy as np

from inkrec_spark import ink_line


def test_a_json_string_is_passed_on_and_one_over_several_lines_is_joined():
    s = '{"strokes": [{"points": [{"x": 1, "y": 2}]}]}'
    assert ink_line(s) == (s, None)
    line, reason = ink_line('{"strokes":\n [{"points": [{"x": 1, "y": 2}]}]}')
    assert reason is None and "\n" not in line and json.loads(line) == json.loads(s)


def test_what_cannot_be_an_ink_gets_a_reason_instead_of_a_line():
    assert ink_line(None) == (None, "the ink is null")
    assert ink_line("  ")[0] is None
    assert ink_line(42) == (None, "the ink is a int, not a JSON string or a struct")
    assert "not JSON" in ink_line("{\n broken")[1]
    assert "no strokes" in ink_line({"id": "a"})[1]
    assert "different lengths" in ink_line({"strokes": [{"x": [1, 2], "y": [1]}]})[1]
    assert "not a finite number" in ink_line({"strokes": [{"x": [float("nan")], "y": [1.0]}]})[1]


def test_a_struct_of_points_as_spark_reads_the_project_format():
    d = {"strokes": [{"points": [{"x": 1.5, "y": 2.0, "t": None}, {"x": 3.0, "y": 4.0, "t": 16.0}]}],
         "writingArea": {"width": 600.0, "height": 120.0}, "preContext": None}
    line, reason = ink_line(d)
    assert reason is None
    assert json.loads(line) == {"strokes": [{"points": [{"x": 1.5, "y": 2}, {"x": 3, "y": 4, "t": 16}]}],
                                "writingArea": {"width": 600, "height": 120}}


def test_a_struct_of_arrays_becomes_points_numpy_arrays_included():
    d = {"strokes": np.array([{"x": np.array([1.0, 2.5]), "y": np.array([3.0, 4.0]), "t": np.array([0, 10])},
                              {"x": [5.0], "y": [6.0], "t": None}], dtype=object), "preContext": "hello"}
    line, reason = ink_line(d)
    assert reason is None
    assert json.loads(line) == {"strokes": [{"points": [{"x": 1, "y": 3, "t": 0}, {"x": 2.5, "y": 4, "t": 10}]},
                                            {"points": [{"x": 5, "y": 6}]}], "preContext": "hello"}
