"""Red team (#59's claims, attacked): code's own word. A writer swaps two words of the CDC's
sentence; its support check refuses everything, so only code could publish it, and code did
while it compared bags of stems (xfail(strict) until code's word became a page's own sentence,
word for word). The red team's pages on hosts of standing where anyone writes are
`tests/system/test_writable_hosts_end_to_end.py` (7 hosts, its 4 among them)."""

from __future__ import annotations

from pipeline.budget import EvidenceBudget
from pipeline.evidence import Page
from pipeline.post import Post
from tests.fakes.episodes import runner
from tests.fakes.policy import DEFAULT_BRIEF, search, state_of, visit, write
from tests.fakes.ports import FakeWeb, Journal, health_pages

CDC = "https://www.cdc.gov/vaccines/mmr-safety"
SAFER = "https://www.cdc.gov/vaccines/vpd/mmr/public/index.html"
SAFER_PAGE = Page(
    url=SAFER,
    title="Measles vaccine safety and autism",
    text="Getting MMR vaccine is much safer than getting measles, mumps or rubella.",
)
# The CDC's own words, reordered: every stem and number of a page sentence, no negation added.
SWAPPED = "Getting measles is much safer than getting MMR vaccine."


class SwappingWriter:
    """Reads the CDC's page and writes its sentence with two words swapped; its support
    check refuses every sentence (a vigilant model), so only code's own word can publish."""

    answers = ("SupportVerdicts",)

    def __call__(self, schema: str, messages: list[dict[str, object]]) -> dict[str, object]:
        if schema == "VerificationBrief":
            return DEFAULT_BRIEF
        if schema == "SupportVerdicts":
            return {"verdicts": [{"index": 1, "supported": False, "problem": "reversed"}]}
        state = state_of(messages)
        if not state["searches_done"]:
            return search("measles vaccine autism safety")
        if not state["evidence"]:
            return visit(SAFER, CDC)
        return write(SWAPPED, [SAFER])


async def test_a_standing_pages_words_reordered_are_not_published_on_codes_word() -> None:
    web = FakeWeb({SAFER: SAFER_PAGE, **health_pages()})
    post = Post(text="The measles vaccine causes autism, and they hide it.")
    budget = EvidenceBudget(max_rewrites=2, search_post_first=False, read_search_results=False)
    outcome = await runner(SwappingWriter(), web, budget).run(post, journal=Journal())
    assert "safer than getting mmr" not in (outcome.note or "").lower(), outcome.note
