"""Evaluation: a question set as data, graders, a harness with its metrics, a sweep, a regression gate, plots.

Built in lesson 10 (Evaluation).
"""
