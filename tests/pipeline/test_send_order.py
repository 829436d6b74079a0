"""After admission, approved notes go to X best first by the persona forecast's net
helpfulness; none under the bar but the explore share, which is marked."""

from __future__ import annotations

from pipeline.desk.send_order import SendPolicy
from pipeline.forecast.prompts import Helpfulness
from tests.fakes.forecasts import forecast_of, net


def test_net_helpful_is_the_helpful_share_less_the_not_helpful_share() -> None:
    mixed = forecast_of(
        (Helpfulness.HELPFUL, 6), (Helpfulness.SOMEWHAT, 2), (Helpfulness.NOT_HELPFUL, 2)
    )
    assert mixed.net_helpful() == (6 - 2) / 10
    assert forecast_of().net_helpful() == 0.0
    assert net(-0.3).net_helpful() == -0.3


def test_best_first_none_under_the_bar_but_the_explored() -> None:
    policy = SendPolicy(min_net_helpful=0.2, explore_share=0.1)
    high, low, none = policy.decide(1, 0.8), policy.decide(2, 0.3), policy.decide(3, None)
    assert not (high.held or low.held or none.held)
    assert sorted([none, low, high], key=lambda d: d.rank()) == [high, low, none]
    under = [policy.decide(n, -0.1) for n in range(1, 1001)]
    explored = [d for d in under if d.explore]
    assert 80 <= len(explored) <= 120  # about a tenth, by a draw that is the same every time
    assert all(d.held for d in under if not d.explore)
    assert [policy.decide(n, -0.1).explore for n in range(1, 50)] == [d.explore for d in under[:49]]
    assert min(d.rank() for d in [high, *explored]) == explored[0].rank()  # explored go first
    assert "under the bar of +0.20 (EVONOTE_X__MIN_NET_HELPFUL)" in next(
        d.why for d in under if d.held
    )
    assert not any(SendPolicy(explore_share=0.0).decide(n, -0.5).explore for n in range(500))
