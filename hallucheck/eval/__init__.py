"""Evaluation: data sets, the project's data split, metrics, runner and reports."""
