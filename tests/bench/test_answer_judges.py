"""The figures `bench.answer_judges` prints: a judge's AUC and what a bar that refuses no
answer catches."""

from bench.answer_judges import auc, zero_cost_catch


def test_auc_is_the_chance_an_answer_outranks_an_off_claim_note() -> None:
    assert auc([(0.9, True), (0.1, False)]) == 1.0
    assert auc([(0.1, True), (0.9, False)]) == 0.0
    assert auc([(0.5, True), (0.5, False)]) == 0.5


def test_a_bar_under_every_answer_catches_only_what_scores_below_them_all() -> None:
    scores = [(0.4, True), (0.7, True), (0.3, False), (0.5, False), (0.4, False)]
    assert zero_cost_catch(scores) == (1, 3)
