"""Lesson 06's check reports every case a wrong validate_arguments fails, not only the first.

The wrong solutions themselves, and what the first reason of each report must say, are in the
catalogue (tests/wrong_solutions/lesson06.py, run by tests/test_wrong_solutions.py).
"""
from __future__ import annotations

from solutions.arguments import validate_arguments as reference_validate
from solutions.course.check import check
from tests.wrong_solutions.lesson06 import isinstance_only


def test_isinstance_only_is_refused_for_everything_it_cannot_see(capsys) -> None:
    assert check(isinstance_only) is reference_validate
    report = capsys.readouterr().out
    assert report.startswith("✗ validate_arguments")
    for case in ("""(add_days, '{"date": "2025-03-14"}')""", "true", "kelvin", '"count": 0'):
        assert case in report, case  # missing required, bool for integer, enum, minimum
