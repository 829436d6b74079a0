"""Real-model episodes replayed: the answers a real model gave (`bench.real_model`'s
recordings in tests/fixtures/real_model) against stand-in pages, so that what it did wrong
stays a test without the model. Each fixture says what happened."""

from __future__ import annotations

from typing import Any

from pipeline.budget import EvidenceBudget
from pipeline.episode import EpisodeRunner
from pipeline.ports import NoMemory
from pipeline.post import Post
from tests.fakes.ports import FakeWeb, Journal, Page
from tests.fakes.replay import ReplayedModel, recording

# the settings `evonote doctor` gives the CPU server the recordings come from
# as the recordings ran: code searched the top gap before the first turn (slow-server)
CPU_SERVER = EvidenceBudget(max_urls_per_visit=2, condense_pages=False, search_gap_first=True)


async def replay(name: str, **budget: Any) -> tuple[Any, ReplayedModel, Journal]:
    """The recorded episode replayed under the slow-server budget (`budget`: switches changed,
    where a recording was made with code's own word on)."""
    episode = recording(name)
    pages = {u: Page(url=u, title=p["title"], text=p["text"]) for u, p in episode["pages"].items()}
    web = FakeWeb(pages)
    model = ReplayedModel(episode["answers"])
    journal = Journal()
    runner = EpisodeRunner(
        model=model,
        search=web,
        reader=web,
        memory=NoMemory(),
        budget=CPU_SERVER.model_copy(update=budget),
    )
    outcome = await runner.run(Post(text=episode["post"]), journal=journal)
    return outcome, model, journal


def checks_said(journal: Journal) -> str:
    """What the checks said of every draft, in order."""
    return " ".join(s.observation for s in journal.steps if s.phase == "write")


def sent_back_unchecked(journal: Journal, starting: str = "") -> dict[str, Any]:
    """The first draft (starting with `starting`) code passed to the model's check, which could
    not run on it."""
    steps = [s for s in journal.steps if s.phase == "write"]
    return next(
        s.action
        for s in steps
        if s.action.get("refused_by") == ["support-unchecked"]
        and s.action["text"].startswith(starting)
    )


def cited_by(action: dict[str, Any]) -> list[str]:
    return [c["url"] for c in action["support"]]


async def test_a_note_that_copies_the_posts_false_claim_is_never_published() -> None:
    outcome, model, journal = await replay("sids-note-copies-the-post")
    assert outcome.status == "abstained" and outcome.note is None
    assert "repeated the post's own words" in (outcome.abstain_reason or "")
    assert "SupportVerdicts" not in model.asked  # refused by code before the model's check
    feedback = [s.observation for s in journal.steps if s.phase == "write"]
    assert all("do not repeat it: sentence 1 copies the post" in f for f in feedback), feedback


async def test_with_nothing_on_the_claim_the_card_names_the_evidence_not_the_drafts_form() -> None:
    outcome, _, journal = await replay("bmj-nothing-on-the-claim")
    assert outcome.status == "abstained" and outcome.note is None
    # code read nothing: the one result on vaccines shares no key term with the claims, and
    # the agent only wrote; the card says so, and what the drafts said, never their form
    assert outcome.abstain_reason == (
        "no note passed the checks after 5 rewrites: no page was read; the last draft "
        "repeated the post's own words instead of answering them; said what the post claims"
    )
    feedback = checks_said(journal)
    assert "do not repeat it" in feedback  # the drafts copied the post


async def test_a_claim_given_to_someone_no_cited_page_names_is_never_published() -> None:
    outcome, _, journal = await replay("bmj-misattributed-note")
    assert outcome.status == "abstained" and outcome.note is None
    feedback = checks_said(journal)
    assert "gives its claim to 'BMJ', which no page it cites mentions" in feedback
    assert "made claims its sources do not bear out" in (outcome.abstain_reason or "")


async def test_a_revision_that_writes_about_the_note_is_refused_by_code() -> None:
    """Asked to revise a note for X's evaluator, the real model wrote advice about the note
    ("The note should be revised to …") as its prose: refused before any support check."""
    from datetime import UTC, datetime

    from pipeline.desk.episode import Episode
    from pipeline.desk.evaluation_bar import note_draft
    from pipeline.evidence import Evidence
    from pipeline.revision import EpisodeReviser, claim_opinion_feedback

    recorded = recording("revision-writes-about-the-note")
    page = Evidence.model_validate(recorded["pages"][0])
    episode = Episode(
        id=1,
        source="bench",
        requester="bench",
        post=Post(text=recorded["post"]),
        status="noted",
        created_at=datetime.now(UTC),
        note_text=recorded["note"],
        cited_urls=[page.url],
        evidence=[page],
    )
    model = ReplayedModel(recorded["answers"])
    revision = await EpisodeReviser(model).revise(
        note_draft(episode), claim_opinion_feedback(0.31, 0.7)
    )
    assert revision.note is None
    assert any(p.startswith("Write the note itself") for p in revision.problems), revision
    assert "SupportVerdicts" not in model.asked


async def test_a_note_that_repeats_the_prompts_example_is_never_published() -> None:
    outcome, model, journal = await replay("tylenol-note-repeats-the-prompts-example")
    # the real run published the measles sentence in a note on Tylenol; code refuses it (no
    # page read says it) and, since a writer copying its instructions is off its pages, sends
    # the whole draft back instead of keeping the sentences on how Tylenol works, which the
    # page read never says: nothing is published
    assert outcome.status == "abstained" and outcome.note is None
    feedback = [s.observation for s in journal.steps if s.phase == "write"]
    assert any("sentence 3 repeats the example in your instructions" in f for f in feedback)
    assert "SupportVerdicts" not in model.asked


async def test_a_note_that_is_the_posts_own_short_sentences_is_never_published() -> None:
    outcome, _, journal = await replay("wakefield-note-is-the-post")
    # the real run published "Vaccines cause autism. Dr. Wakefield explains how and why."
    assert outcome.status == "abstained" and outcome.note is None
    assert "repeated the post's own words" in (outcome.abstain_reason or "")
    feedback = [s.observation for s in journal.steps if "rejected" in s.observation]
    assert feedback and all("sentence 1 copies the post" in f for f in feedback), feedback


async def test_a_note_restating_the_post_where_no_cited_page_does_is_never_published() -> None:
    """Published in a real run, every sentence passed by the model's own check: four sentences
    on the liver and how Tylenol works in the post's words, citing a page on pain relievers
    that says neither."""
    outcome, _, journal = await replay("tylenol-note-restates-the-post")
    assert outcome.status == "abstained" and outcome.note is None
    assert "speaks of 'liver', which none of them uses" in checks_said(journal)
    assert "made claims its sources do not bear out" in (outcome.abstain_reason or "")


async def test_a_note_that_writes_about_itself_goes_back_whole() -> None:
    """Published in a real run: "The standard practice for refilling prescriptions is to take
    medications as need." citing pages that never mention refills, with "The draft sentence
    contradicts the claim made in the post, …" after it. The first draft goes to the model's
    check, which refuses it here; every later one holds a sentence about the note, and code
    sends it back whole instead of keeping its other sentences."""
    outcome, _, journal = await replay("prescriptions-note-says-what-no-page-says")
    assert outcome.status == "abstained" and outcome.note is None
    rejected = [s.observation for s in journal.steps if s.phase == "write"]
    assert len(rejected) >= 2 and all("is about the note" in f for f in rejected[1:]), rejected
    assert "wrote about the note instead of the note" in (outcome.abstain_reason or "")


async def test_a_sentence_about_the_post_said_three_times_is_never_published() -> None:
    """ "The Malaria in Florida post is about a serious disease caused by a parasite." three
    times over, citing malaria pages that never mention Florida: published in a real run. Its
    words beyond the claims' are its pages' own ("serious", "disease", "parasite"), so Florida
    is a question for the model's check, marked; code refuses it as about the post."""
    outcome, _, journal = await replay("malaria-note-says-one-sentence-three-times")
    assert outcome.status == "abstained" and outcome.note is None
    assert "sentence 1 is about the note or its sources, not the post" in checks_said(journal)
    assert "made claims its sources do not bear out" in (outcome.abstain_reason or "")


async def test_a_focused_note_that_names_no_sentence_is_cited_by_its_words() -> None:
    outcome, model, journal = await replay("smoking-focused-note-names-no-sentence")
    # the real run gave up: its one draft refused, then "The post does not need a note as it
    # is correct", then a focused note worded from the pages read, naming no sentence
    # its note joins two page sentences: no page's sentence word for word, so the blind
    # check, not code, bears it out (#59: code compared bags of stems, and words reordered
    # passed)
    assert model.asked[-2:] == ["FocusedNote", "SupportVerdicts"]
    # the recording holds no verdict for it: a check that cannot run publishes nothing
    checked = sent_back_unchecked(journal)
    assert checked["text"].startswith("People who start smoking before the age of 21")
    assert "https://www.nlm.nih.gov/medlineplus/smokingandyouth.html" in cited_by(checked)
    assert outcome.status == "abstained" and outcome.note is None


async def test_a_note_quoting_a_pages_headings_keeps_only_its_statement() -> None:
    # recorded with code's own word on: the repaired note was published without a check call
    outcome, _, journal = await replay(
        "smoking-note-quotes-the-pages-headings", support_by_quotes=True
    )
    # the real run published "Quitting smoking is important for your health. What is (are)
    # Quitting Smoking for Older Adults? What causes Quitting Smoking for Older Adults?"
    assert outcome.status == "noted" and outcome.note is not None
    assert outcome.note.startswith("Quitting smoking is important for your health.\n\n")
    assert "?" not in outcome.note
    assert "code removed what the checks refused (3 sentence(s) dropped)" in checks_said(journal)


async def test_a_paraphrase_of_its_page_is_the_models_check_to_judge() -> None:
    outcome, _, _ = await replay("ivermectin-sound-sentence-refused-by-the-models-check")
    # the real run refused "The FDA has not approved Ivermectin for COVID-19." on its own
    # check, then abstained. The FDA page read says "While there are approved uses for
    # ivermectin in people and animals, it is not approved for the prevention or treatment of
    # COVID-19.": code bore the paraphrase out by its stems until an independent red team
    # published "Getting measles is much safer than getting MMR vaccine." the same way (#59).
    # Code now bears out only a page's sentence word for word; this paraphrase is the check's,
    # and the real model's check refused it: what that rule costs, one recorded note.
    assert outcome.status == "abstained"
    assert outcome.abstain_reason is not None
    assert "do not bear out" in outcome.abstain_reason


async def test_a_sentence_cites_the_page_read_that_says_it_when_the_model_cited_others() -> None:
    fda = (
        "https://www.fda.gov/emergency-preparedness-and-response/mcm-issues/"
        "coronavirus-disease-2019-covid-19-frequently-asked-questions"
    )
    outcome, _, journal = await replay("ivermectin-note-cites-pages-that-never-say-it")
    # the real run refused every draft for speaking of ivermectin on pages that never do, with
    # the FDA page that says it read; code now cites that page too, and the draft goes to the
    # model's check (the recording has no verdict for it: nothing is published unchecked)
    checked = sent_back_unchecked(journal, "The FDA has not approved Ivermectin for COVID-19")
    assert fda in cited_by(checked)
    assert "speaks of" not in checks_said(journal)
    assert outcome.status == "abstained" and outcome.note is None
