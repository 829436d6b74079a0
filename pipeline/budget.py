"""The limits of one episode, and what has been spent of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

# How an episode researches, by name: each preset sets research switches only, and a value
# set explicitly still wins. The operator picks one (EVONOTE_BUDGET__PRESET); the switches
# themselves are for benchmarks and ablations.
RESEARCH_PRESETS: dict[str, dict[str, Any]] = {
    "paper": {},  # the EvoNote paper's loop, with code's shortcuts: the defaults
    # a CPU or other slow server: page notes each cost a long prompt, so fewer pages, unnoted;
    # two rewrites, then the focused write (in 32 real episodes of a 1.5B model on a CPU, no
    # draft passed after its second: the later rewrites only spent the deadline)
    "slow-server": {
        "search_gap_first": True,
        "search_ahead": False,  # code searches the top gap itself, and the model writes first
        "condense_pages": False,
        "max_urls_per_visit": 2,
        "max_rewrites": 2,
    },
    # the agent takes every step itself (the benchmark's baseline)
    "no-shortcuts": {
        "search_post_first": False,
        "search_ahead": False,
        "read_search_results": False,
        "notes_min_chars": 0,
        "focused_write": False,
    },
    "no-analysis": {"claim_analysis": False},  # the no-analyzer ablation
    "code-bears-out": {"support_by_quotes": True},  # a draft may pass on its quotes alone
}


def _switches(switches: dict[str, Any]) -> str:
    """A preset's switches as the settings table shows them (written from the presets
    themselves: two hand-written tables had drifted apart)."""
    if not switches:
        return "the defaults"
    return ", ".join(f"{name}={str(value).lower()}" for name, value in switches.items())


Preset = Literal["paper", "slow-server", "no-shortcuts", "no-analysis", "code-bears-out"]


class EvidenceBudget(BaseModel):
    """How much an episode may do; defaults follow the EvoNote paper. It is also the settings
    section `EVONOTE_BUDGET__*`: one definition, one default each."""

    model_config = ConfigDict(frozen=True)

    preset: Preset = Field(
        default="paper",
        description="how an episode researches, by name (a switch set on its own still wins): "
        + "; ".join(
            f"{name}: {_switches(switches)}" for name, switches in RESEARCH_PRESETS.items()
        ),
    )

    @model_validator(mode="before")
    @classmethod
    def _apply_preset(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(name := data.get("preset"), str):
            return {**RESEARCH_PRESETS.get(name, {}), **data}
        return data

    @model_validator(mode="after")
    def _leaves_time_to_research(self) -> EvidenceBudget:
        """A reserve as long as the deadline leaves no research: every episode would fail."""
        if self.writing_reserve_s >= self.deadline_s:
            raise ValueError(
                f"the writing reserve ({self.writing_reserve_s:g} s, "
                "EVONOTE_BUDGET__WRITING_RESERVE_S) must be shorter than the deadline "
                f"({self.deadline_s:g} s, EVONOTE_BUDGET__DEADLINE_S)"
            )
        return self

    def unwritable(self) -> str | None:
        """Why no note could ever be written under this budget (a floor above its ceiling:
        every episode abstains "no note passed the checks after 5 rewrites"), or None. The
        settings refuse such a budget; tests and benchmarks may build one on purpose."""
        for floor, ceiling in (
            ("min_visits_before_write", "max_visits"),
            ("min_searches_before_write", "max_searches"),
        ):
            if getattr(self, floor) > getattr(self, ceiling):
                return (
                    f"EVONOTE_BUDGET__{floor.upper()} ({getattr(self, floor)}) is above "
                    f"EVONOTE_BUDGET__{ceiling.upper()} ({getattr(self, ceiling)}): no note "
                    "could ever be written; lower the first or raise the second"
                )
        return None

    max_steps: int = Field(default=15, ge=1, description="agent turns per episode")
    max_searches: int = Field(default=5, ge=0, description="searches per episode")
    max_visits: int = Field(default=12, ge=0, description="page reads per episode")
    min_searches_before_write: int = Field(
        default=1, ge=0, description="searches required before a note may be written"
    )
    min_visits_before_write: int = Field(
        default=1, ge=0, description="pages that must be read before a note may be written"
    )
    max_rewrites: int = Field(default=5, ge=0, description="rejected drafts before abstaining")
    focused_write: bool = Field(
        default=True,
        description="once the rewrites are spent, the final write fails or the model gives "
        "up after a refused draft, one more draft before abstaining: the model "
        "words a note from the sentences of the pages read that share most key terms with the "
        "claims, and code cites them (a weak model that cannot research still phrases)",
    )
    max_urls_per_visit: int = Field(
        default=4, ge=1, le=6, description="pages read concurrently in one visit step"
    )
    results_per_search: int = Field(default=8, ge=1, le=20, description="results per search")
    deadline_s: float = Field(default=120.0, gt=0, description="wall-clock limit per episode")
    writing_reserve_s: float = Field(
        default=20.0,
        ge=0,
        description="time kept back from research for the final write and its support check "
        "(a note whose check cannot run is not sent)",
    )
    page_timeout_s: float = Field(default=20.0, gt=0, description="limit for reading one page")
    visit_grace_s: float = Field(
        default=5.0,
        gt=0,
        description="once the first page of a visit is in, how much longer the others may take "
        "(the rest are recorded as unread: one slow site does not hold the episode)",
    )
    search_timeout_s: float = Field(default=15.0, gt=0, description="limit for one search")
    condense_pages: bool = Field(
        default=True,
        description="the model notes each page read (a short summary and the numbers of its "
        "sentences worth quoting; code copies the quotes)",
    )
    search_post_first: bool = Field(
        default=True,
        description="search the post's own words while the claim is analysed and begin "
        "reading its best results then; those on the claims are taken in before the first "
        "agent turn, which starts with pages read",
    )
    search_gap_first: bool = Field(
        default=False,
        description="code also searches the brief's most pressing gap before the first agent "
        "turn and reads its best results: for a weak agent that writes from whatever is read "
        "(slow-server); a capable one searches its gaps itself",
    )
    search_ahead: bool = Field(
        default=True,
        description="once the brief is known, code begins searching its top gap and reading "
        "the best results while the agent's first turn is asked; an agent that searches that "
        "gap (the real model's first search, whenever it searched first) takes them at once, "
        "and an unused search ahead is dropped (a search and a few page reads, no model call)",
    )
    read_search_results: bool = Field(
        default=True,
        description="code reads the best unread results of each agent search at once (highest "
        "tier first, up to max_urls_per_visit), sparing the agent a turn",
    )
    notes_min_chars: int = Field(
        default=1500,
        ge=0,
        description="pages of at most this many characters are shown whole, without notes",
    )
    check_support: bool = Field(
        default=True,
        description="check every sentence of a draft against its sources before accepting it",
    )
    # Off: code cannot tell a page's own sentence from one it quotes or frames in every
    # layout. The third red team (tests/redteam3, 2026-12-03) had code publish 806 payloads on
    # its own word from pages of standing: myths under labels and line breaks no list reads
    # (B1-B5, G3), a fact-check's quotation of the post (H1), reported speech (H2), op-eds and
    # paid folders (A3-A6). The blind check sees the page with its frames. What it costs: of
    # people's verdicts, the 4 code published go to the check, none refused; one more model call
    # for such a note (the stand-in's episodes never published on code's word: 12.0 calls a note
    # either way, `bench.research`).
    support_by_quotes: bool = Field(
        default=False,
        description="a draft whose every sentence is, word for word, one a cited page of "
        "standing asserts passes without the model's check, and overrules its refusal; off: the "
        "model checks every draft (code cannot tell a page's own sentence from one it quotes in "
        "every layout)",
    )
    # Off until a model tells an answer from a neighbouring fact at a bar that spares people's
    # verdicts (`bench.answer_judges`, 2026-12-03): on 66 drafts code lets through, the real
    # 1.5B model's yes/no ranks them at AUC 0.651 and a bar sparing all 30 people's verdicts
    # catches 6 of 33 off-claim notes; asked for its JSON verdict (`bench.blind_answer_probe`)
    # it said "does not answer" to 9 of 10 notes on the claim. On, with that model, it would
    # refuse nearly every note.
    check_answers: bool = Field(
        default=False,
        description="after the support check, one more call shown only the claims and the "
        "note: a note that does not answer the claim itself (a neighbouring fact, a source's "
        "standing) goes back to the writer. Off: no model here has been shown to judge it "
        "(bench.answer_judges); turn it on with a model that does",
    )
    claim_analysis: bool = Field(
        default=True,
        description="analyse claims and information gaps before searching (off: the "
        "no-analyzer ablation of the benchmark)",
    )
    # Off until the brief's "no note needed" beats chance on claims a person has judged
    # (`pipeline.note_need_gate`, tests/pipeline/test_note_need_measured.py). The real 1.5B
    # model (bench.needs_note, 2026-12-03) declined 0 of 20 supported AVeriTeC health claims and
    # 2 of 20 refuted ones ("a side detail"): one-sided Fisher p = 1.0, the wrong way round.
    decline_unneeded: bool = Field(
        default=False,
        description="end the episode after the brief when it says the post needs no note "
        "(a joke, an opinion, accurate as posted, …): one call, and the card says why. Off: "
        "no model has been shown to judge it better than chance (bench.needs_note); never "
        "acted on for a post that describes itself (satire, opinion, joke)",
    )
    as_of_post_time: bool = Field(
        default=False,
        description="evidence and lessons as of the post's time: search capped at it, only "
        "lessons from earlier posts (benchmarks on old posts)",
    )
    evidence_chars_per_page: int = Field(
        default=1500, ge=200, description="characters of each read page shown to the model"
    )
    page_chars_for_notes: int = Field(
        default=6000, ge=500, description="characters of a page the model takes notes on"
    )


@dataclass
class BudgetUse:
    steps: int = 0
    searches: int = 0
    visits: int = 0
    rewrites: int = 0

    def searches_left(self, budget: EvidenceBudget) -> int:
        """Searches still worth running: none once every page read is spent, since a note
        cites only pages read and no result of such a search could be read (the agent searched
        twice more after its last visit in the research policy, a turn and a search each:
        #47, 43.2 → 36.2 s a note on the stand-in, 20 → 18 model calls)."""
        if self.visits_left(budget) == 0:
            return 0
        return max(0, budget.max_searches - self.searches)

    def visits_left(self, budget: EvidenceBudget) -> int:
        return max(0, budget.max_visits - self.visits)

    def steps_left(self, budget: EvidenceBudget) -> int:
        return max(0, budget.max_steps - self.steps)
