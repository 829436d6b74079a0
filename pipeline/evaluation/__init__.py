"""Evaluation (the paper's): dataset format, judges, evidence and time metrics, report
tables. The runner and the charts are in `bot.evaluation`."""
