"""The limits of one episode, and what has been spent of them."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class EvidenceBudget:
    """How much an episode may do. Defaults follow the EvoNote paper."""

    max_steps: int = 15
    max_searches: int = 5
    max_visits: int = 12
    min_searches_before_write: int = 1
    min_visits_before_write: int = 1
    max_rewrites: int = 5
    max_urls_per_visit: int = 4
    results_per_search: int = 8
    deadline_s: float = 120.0
    writing_reserve_s: float = 20.0
    model_call_timeout_s: float = 60.0
    page_timeout_s: float = 20.0
    visit_grace_s: float = 5.0  # once one page of a visit is in, how long the others may take
    search_timeout_s: float = 15.0
    evidence_chars_per_page: int = 1500
    page_chars_for_notes: int = 6000
    condense_pages: bool = True
    # code searches the post's words while the claim is analysed, then the brief's top gap,
    # and reads the best results on the claims before the first agent turn
    search_post_first: bool = True
    read_search_results: bool = True  # code reads the best results of each agent search
    notes_min_chars: int = 1500  # shorter pages are shown whole, without page notes
    check_support: bool = True
    # A draft whose every sentence carries verbatim quotes of its sources that bear it out
    # (all its content words and numbers, its negation) passes without the model's check.
    support_by_quotes: bool = True
    # Off only for the no-analyzer ablation: the post itself is the one claim and the one gap.
    claim_analysis: bool = True
    # Benchmarks on old posts: search capped at the post's time, and only lessons learned
    # from earlier posts retrieved.
    as_of_post_time: bool = False
    memories_per_phase: int = 4


@dataclass
class BudgetUse:
    steps: int = 0
    searches: int = 0
    visits: int = 0
    rewrites: int = 0
    failed_checks: list[str] = field(default_factory=list)

    def searches_left(self, budget: EvidenceBudget) -> int:
        return max(0, budget.max_searches - self.searches)

    def visits_left(self, budget: EvidenceBudget) -> int:
        return max(0, budget.max_visits - self.visits)

    def steps_left(self, budget: EvidenceBudget) -> int:
        return max(0, budget.max_steps - self.steps)
