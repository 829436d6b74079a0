"""When the brief's "no note needed" may decide: only once it has been shown to tell claims
that need no note from claims that need one better than chance. Measured by `bench.needs_note`
on claims a person has judged (`supported`: no note needed; `refuted`: one is), and tested
here: a one-sided Fisher exact test that the supported claims are declined more often."""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

# The test's level: one-sided, 5%. At 20 claims a label and none of the refuted declined, the
# supported must be declined 5 times or more (p = 0.024; 4 gives p = 0.053).
ALPHA = 0.05


def fisher_one_sided(declined_none: int, n_none: int, declined_needed: int, n_needed: int) -> float:
    """P(the claims needing no note get `declined_none` or more of all the declines) when the
    label makes no difference: the hypergeometric tail."""
    total, declines = n_none + n_needed, declined_none + declined_needed
    if total == 0:
        return 1.0
    tail = sum(
        comb(declines, x) * comb(total - declines, n_none - x)
        for x in range(declined_none, min(declines, n_none) + 1)
    )
    return tail / comb(total, n_none)


@dataclass(frozen=True)
class ChanceTest:
    """The declines of claims that need no note against those that need one, tested."""

    declined_none: int
    n_none: int
    declined_needed: int
    n_needed: int

    @property
    def p(self) -> float:
        return fisher_one_sided(
            self.declined_none, self.n_none, self.declined_needed, self.n_needed
        )

    @property
    def beats(self) -> bool:
        return self.p < ALPHA

    def needed_to_beat(self) -> int | None:
        """The fewest declines of the no-note claims that would beat chance at this sample and
        these declines of the others; None when no count would."""
        return next(
            (
                k
                for k in range(self.n_none + 1)
                if fisher_one_sided(k, self.n_none, self.declined_needed, self.n_needed) < ALPHA
            ),
            None,
        )

    def line(self) -> str:
        need = self.needed_to_beat()
        bar = "no count would" if need is None else f"{need} of {self.n_none} would"
        return (
            f"declined: no note needed {self.declined_none}/{self.n_none}, a note needed "
            f"{self.declined_needed}/{self.n_needed}; one-sided Fisher p = {self.p:.3f} "
            f"({'beats' if self.beats else 'does not beat'} chance at {ALPHA:g}; {bar})"
        )


def beats_chance(
    declined_none: int, n_none: int, declined_needed: int, n_needed: int
) -> ChanceTest:
    return ChanceTest(declined_none, n_none, declined_needed, n_needed)
