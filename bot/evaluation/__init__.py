"""The paper's evaluation, run on the whole application (`evonote bench run`): the runner and
its charts. The judges, metrics and report tables are pure code in `pipeline/evaluation`."""
