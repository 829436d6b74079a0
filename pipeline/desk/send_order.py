"""Which approved notes go to X first once it shows them (after admission), within the writing
limit X sets: a forecast of how raters will take each note ranks them, none below the bar goes
but a small share picked to explore, so the forecast keeps meeting outcomes.

Measured live by an AI Note Writer on X (cn-return-bot): X's own claim-opinion score predicted
helpfulness only moderately (AUC 0.67) and a gate on it "neither cost nor protected"; ordering
within the writing limit by a forecast of P(Helpful) - P(Not Helpful), with an explore share
below the bar, is what paid. Before admission the evaluator's bar decides, as X judges
admission on it (`EvaluationBar.evaluated`).
"""

from __future__ import annotations

from dataclasses import dataclass

# a stable draw per episode: a restart decides the same, and no state is kept for it
_DRAW_PRIME = 2_654_435_761


@dataclass(frozen=True)
class SendPolicy:
    min_net_helpful: float = 0.0  # the forecast's P(H) - P(NH) a note must reach
    explore_share: float = 0.1  # of the notes under the bar, the share sent all the same

    def explores(self, episode_id: int) -> bool:
        """Whether the episode's note is one the explore share sends under the bar."""
        return (episode_id * _DRAW_PRIME) % 1000 < self.explore_share * 1000

    def decide(self, episode_id: int, net: float | None) -> SendDecision:
        if net is None:
            return SendDecision(net, False, False, "no forecast: sent first come")
        if net >= self.min_net_helpful:
            return SendDecision(net, False, False, f"forecast net helpful {net:+.2f}")
        if self.explores(episode_id):
            why = f"forecast net helpful {net:+.2f}, under the bar, sent to explore"
            return SendDecision(net, True, False, why)
        why = (
            f"the forecast gives it net helpful {net:+.2f}, under the bar of "
            f"{self.min_net_helpful:+.2f} (EVONOTE_X__MIN_NET_HELPFUL)"
        )
        return SendDecision(net, False, True, why)


@dataclass(frozen=True)
class SendDecision:
    net: float | None
    explore: bool  # sent under the bar, marked so its outcome tests the forecast
    held: bool  # under the bar and not explored: never sent unless a moderator insists
    why: str

    def rank(self) -> tuple[int, float]:
        """Sort key, first sent first: explored notes (they are few, and they only teach if
        they go), then by the forecast, then those without one."""
        if self.net is None:
            return (2, 0.0)
        return (0 if self.explore else 1, -self.net)
