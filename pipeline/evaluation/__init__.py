"""Evaluation (issue #8): judges and metrics of the EvoNote paper. The dataset runner and the
reports are still to come."""
