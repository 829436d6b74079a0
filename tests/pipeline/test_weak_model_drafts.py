"""What a real weak model's drafts taught the checks and repairs: a focused write once the
rewrites are spent (the model words a note from sentences code picked from the pages read, code
cites them: `pipeline/focused_write.py`), code reading the search results a draft cites
unopened, and the refusal of the prompt's example, of a whole sentence of the post and of a
note of a word or two."""

from __future__ import annotations

from typing import Any

from pipeline.actions import SupportedClaim, Write
from pipeline.brief import VerificationBrief
from pipeline.budget import EvidenceBudget
from pipeline.drafting.context import DraftContext
from pipeline.drafting.draft import Draft
from pipeline.drafting.focused import sentences_on_the_claims
from pipeline.drafting.grounding import (
    repeats_the_example,
    repeats_the_post,
    ungrounded_terms,
)
from pipeline.drafting.prompts import EXAMPLE_NOTE_SENTENCE
from pipeline.drafting.repair import citing_read_pages, repaired_by_code, without_unsupported
from pipeline.drafting.rules import findings
from pipeline.episode import EpisodeRunner
from pipeline.evidence import Evidence
from pipeline.ports import NoMemory
from pipeline.post import Post
from pipeline.trajectory import StepRecord
from tests.fakes.policy import DEFAULT_BRIEF, ResearchPolicy, abstain, write
from tests.fakes.ports import FakeChatModel, FakeWeb, Journal, health_pages

POST = Post(text="The measles vaccine causes autism. Don't vaccinate your kids!")
MMR = "https://www.cdc.gov/vaccines/mmr-safety"


class FailsThenWords:
    """Every draft of its own is refused (far too long); asked to word a note from sentences,
    it gives `note`."""

    answers = ("FocusedNote",)

    def __init__(self, note: dict[str, Any]) -> None:
        self.research = ResearchPolicy(prose="y" * 1000)
        self.note = note
        self.prompts: list[str] = []

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
        if schema == "FocusedNote":
            self.prompts.append(messages[-1]["content"])
            return self.note
        return self.research(schema, messages)


async def run(policy: Any, **budget: Any) -> tuple[Any, FakeChatModel, list[StepRecord]]:
    web = FakeWeb(health_pages())
    model = FakeChatModel(policy)
    journal = Journal()
    outcome = await EpisodeRunner(
        model=model,
        search=web,
        reader=web,
        memory=NoMemory(),
        budget=EvidenceBudget(max_rewrites=2, **budget),
    ).run(POST, journal=journal)
    return outcome, model, journal.steps


async def test_the_model_words_a_note_from_the_sentences_and_code_cites_them() -> None:
    words = "Many studies have found no link between the MMR vaccine and autism."
    policy = FailsThenWords({"text": words, "used": [1]})
    outcome, model, steps = await run(policy)
    assert outcome.status == "noted"
    assert outcome.note == f"{words}\n\n{MMR}"
    assert model.calls.count("FocusedNote") == 1
    # the subject and the page's sentences reach it numbered, inside untrusted tags; the
    # claim's own words do not (the real model copied them)
    prompt = policy.prompts[0]
    assert "<untrusted_sentences>\n[1] Many studies have found no link" in prompt
    assert "<untrusted_subject>\nmeasles, vaccine, autism\n</untrusted_subject>" in prompt
    assert "causes autism" not in prompt
    assert steps[-1].phase == "write" and steps[-1].observation.startswith("accepted")
    assert outcome.support_checked is True  # every word in the cited sentence: by code


async def test_a_focused_note_with_a_payload_is_refused_like_any_draft() -> None:
    policy = FailsThenWords(
        {"text": "Studies found no link with autism; see vaxtruth com/report.", "used": [1]}
    )
    outcome, model, _ = await run(policy)
    assert outcome.status == "abstained" and outcome.note is None
    assert "vaxtruth" not in (outcome.abstain_reason or "")
    assert model.calls.count("FocusedNote") == 1  # once, not once per refusal


async def test_when_it_words_nothing_the_episode_abstains_with_the_evidence() -> None:
    policy = FailsThenWords({"text": "", "used": []})
    outcome, _, steps = await run(policy)
    assert outcome.status == "abstained"
    assert "after 2 rewrites" in (outcome.abstain_reason or "")
    assert steps[-1].observation == "focused write: no sentence bears on the claims"
    # a sentence number that names no sentence cites nothing either
    policy = FailsThenWords({"text": "Vaccines are safe.", "used": [9]})
    outcome, _, _ = await run(policy)
    assert outcome.status == "abstained"


async def test_the_budget_can_turn_it_off() -> None:
    outcome, model, _ = await run(FailsThenWords({"text": "x", "used": [1]}), focused_write=False)
    assert outcome.status == "abstained"
    assert "FocusedNote" not in model.calls


def test_sentences_come_from_pages_on_the_claims_most_key_terms_first() -> None:
    evidence = {
        MMR: Evidence(
            url=MMR,
            title="MMR vaccine safety",
            excerpt="Two doses of MMR vaccine are about 97% effective at preventing measles. "
            "Many studies have found no link between the MMR vaccine and autism. Short one.",
        ),
        "https://example.org/cold": Evidence(
            url="https://example.org/cold",
            title="The common cold",
            excerpt="Colds are caused by many different viruses and pass within a week or so.",
        ),
    }
    brief = VerificationBrief.model_validate(
        {**DEFAULT_BRIEF, "checkworthy_claims": ["The MMR vaccine causes autism in children."]}
    )
    picked = sentences_on_the_claims(DraftContext.of(POST, evidence, brief))
    assert picked == [
        (MMR, "Many studies have found no link between the MMR vaccine and autism."),
        (MMR, "Two doses of MMR vaccine are about 97% effective at preventing measles."),
    ]


def test_the_prompts_example_sentence_is_refused_in_a_note_on_another_topic() -> None:
    tylenol_post = Post(text="Nobody knows how Tylenol works, and it is bad for your liver.")
    tylenol_url = "https://medlineplus.gov/painrelievers.html"
    tylenol = {
        tylenol_url: Evidence(
            url=tylenol_url, title="Pain relievers", excerpt="Acetaminophen relieves pain."
        )
    }
    checks = DraftContext.of(tylenol_post, tylenol)
    assert repeats_the_example(checks, EXAMPLE_NOTE_SENTENCE)
    assert repeats_the_example(
        checks, "Also, large studies found no link between the MMR vaccine and autism in children."
    )
    assert not repeats_the_example(checks, "Acetaminophen relieves pain and fever.")
    # on a post about the MMR vaccine and autism it is on topic: the support check judges it
    mmr = {MMR: Evidence(url=MMR, title="MMR", excerpt="Measles spreads fast.")}
    assert not repeats_the_example(DraftContext.of(POST, mmr), EXAMPLE_NOTE_SENTENCE)


def test_a_whole_sentence_of_the_post_is_a_copy_however_short() -> None:
    post = Post(text="Vaccines cause autism. Dr. Wakefield explains how and why.")
    checks = DraftContext.of(post, {})
    assert repeats_the_post(checks, "Vaccines cause autism.")
    assert repeats_the_post(checks, "Dr. Wakefield explains how and why.")
    assert not repeats_the_post(checks, "Vaccines do not cause autism.")
    assert not repeats_the_post(checks, "Autism is not caused by vaccines.")


def test_a_note_of_a_word_or_two_is_refused() -> None:
    checks = DraftContext.of(POST, {MMR: Evidence(url=MMR, title="MMR", excerpt="Vaccines work.")})
    draft = Write(text="Dr.", support=[SupportedClaim(claim="Dr.", url=MMR)])
    assert "Too short to be a note: write at least one full sentence." in [
        f.feedback for f in findings(checks, parse(checks, draft))
    ]


class CitesWhatItNeverOpened:
    """Writes at once, citing a search result it never visited (the real 1.5B model did so in
    four posts of ten, five drafts in a row)."""

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
        if schema == "VerificationBrief":
            return DEFAULT_BRIEF
        return write(
            "Measles is caused by a virus, and the MMR vaccine protects against it.",
            ["https://medlineplus.gov/measles.html"],
        )


async def test_code_reads_an_on_topic_search_result_a_draft_cites_unopened() -> None:
    web = FakeWeb(health_pages())
    journal = Journal()
    outcome = await EpisodeRunner(
        model=FakeChatModel(CitesWhatItNeverOpened()),
        search=web,
        reader=web,
        memory=NoMemory(),
        budget=EvidenceBudget(max_urls_per_visit=1),  # code's own first read takes one page
    ).run(POST, journal=journal)
    assert outcome.status == "noted"
    assert outcome.urls == ["https://medlineplus.gov/measles.html"]
    visits = [s for s in journal.steps if s.phase == "visit"]
    assert [t["url"] for t in visits[-1].action["targets"]] == [
        "https://medlineplus.gov/measles.html"
    ]
    assert visits[-1].action["targets"][0]["goal"] == "a page the draft cites"


def test_a_sentence_about_the_sentences_read_is_refused() -> None:
    checks = DraftContext.of(POST, {MMR: Evidence(url=MMR, title="MMR", excerpt="Vaccines work.")})
    meta = (
        "The sentences from the pages read support the claim that vaccines cause autism in "
        "young children."
    )
    draft = Write(text=meta, support=[SupportedClaim(claim=meta, url=MMR)])
    assert any(
        p.startswith("Write the note itself: sentence 1")
        for p in [f.feedback for f in findings(checks, parse(checks, draft))]
    )
    # energy sources, or sources in general, are not the evidence
    for prose in ("All the sources Texas uses can be winterized.", "Sources of vitamin D vary."):
        fine = Write(text=prose, support=[SupportedClaim(claim=prose, url=MMR)])
        assert not any(
            p.startswith("Write the note itself")
            for p in [f.feedback for f in findings(checks, parse(checks, fine))]
        )


TYLENOL_POST = Post(text="No one knows how Tylenol works, and it is not great for your liver.")
PAIN = "https://medlineplus.gov/painrelievers.html"
PAIN_PAGE = Evidence(
    url=PAIN,
    title="Pain relievers",
    excerpt="There are two main kinds of pain relievers sold over the counter: acetaminophen "
    "(Tylenol) and anti-inflammatory drugs such as ibuprofen.",
)


def cites_pain(text: str) -> Write:
    return Write(text=text, support=[SupportedClaim(claim=text, url=PAIN)])


def test_a_sentence_may_speak_of_the_claims_terms_only_as_far_as_its_pages_do() -> None:
    checks = DraftContext.of(TYLENOL_POST, {PAIN: PAIN_PAGE})
    # the real model's published sentence: the page never mentions the liver
    assert ungrounded_terms(checks, "Tylenol is not great for your liver.", [PAIN]) == ["liver"]
    problems = [
        f.feedback
        for f in findings(checks, parse(checks, cites_pain("Tylenol is not great for your liver.")))
    ]
    assert (
        "Say only what the cited pages say: sentence 1 speaks of 'liver', which none of them "
        "uses." in problems
    )
    # what the page says of Tylenol passes, and so do the words a note judges a claim with
    assert not ungrounded_terms(
        checks,
        "Tylenol is acetaminophen, one of the two main pain relievers sold over the counter.",
        [PAIN],
    )
    assert not ungrounded_terms(
        checks, "There is no scientific evidence for the misleading claim about Tylenol.", [PAIN]
    )
    # new words of the note's own are the text policy's to judge, not this check's
    assert not ungrounded_terms(checks, "Tylenol is a common painkiller.", [PAIN])


def test_code_drops_a_sentence_no_cited_page_bears_out_while_a_sound_one_stands() -> None:
    checks = DraftContext.of(TYLENOL_POST, {PAIN: PAIN_PAGE})
    draft = cites_pain(
        "Tylenol is acetaminophen, a pain reliever sold over the counter. "
        "Tylenol is not great for your liver."
    )
    repaired = repaired_draft(checks, parse(checks, draft))
    assert repaired is not None
    assert repaired.text == "Tylenol is acetaminophen, a pain reliever sold over the counter."


def test_a_page_off_the_claims_is_refused_as_off_topic_not_as_ungrounded() -> None:
    cold = "https://example.org/cold"
    page = Evidence(url=cold, title="The common cold", excerpt="Colds pass within a week.")
    checks = DraftContext.of(TYLENOL_POST, {cold: page})
    assert ungrounded_terms(checks, "Tylenol is not great for your liver.", [cold]) == []


def test_a_sentence_said_twice_is_refused_and_code_keeps_it_once() -> None:
    checks = DraftContext.of(TYLENOL_POST, {PAIN: PAIN_PAGE})
    once = "Tylenol is acetaminophen, a pain reliever sold over the counter."
    draft = cites_pain(f"{once}\n\n{once.upper()}\n\n{once}")
    problems = [f.feedback for f in findings(checks, parse(checks, draft))]
    assert "Say each thing once: sentence 2 repeats sentence 1." in problems
    assert "Say each thing once: sentence 3 repeats sentence 1." in problems
    repaired = repaired_draft(checks, parse(checks, draft))
    assert repaired is not None and repaired.text == once


class GivesUpAfterARefusal:
    """Drafts once (far too long, refused), then abstains: the real 1.5B model did so after a
    single refusal, with the page on the claim read. With `draft=False` it abstains at once."""

    answers = ("FocusedNote",)

    def __init__(self, *, draft: bool = True) -> None:
        self.research = ResearchPolicy(prose="y" * 1000)
        self.draft = draft
        self.drafted = False

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
        if schema == "FocusedNote":
            words = "Many studies have found no link between the MMR vaccine and autism."
            return {"text": words, "used": [1]}
        answer = self.research(schema, messages)
        if schema in ("AgentTurn", "FinalTurn") and answer["action"]["kind"] == "write":
            if self.drafted or not self.draft:
                return abstain("so the note should be rejected")
            self.drafted = True
        return answer


async def test_a_model_that_gives_up_after_a_refused_draft_still_gets_the_focused_write() -> None:
    outcome, model, steps = await run(GivesUpAfterARefusal())
    assert outcome.status == "noted" and outcome.note is not None
    assert outcome.note.startswith("Many studies have found no link")
    assert [s.phase for s in steps][-2:] == ["abstain", "write"]
    # a model that never drafted judged no note needed: that stands
    outcome, model, _ = await run(GivesUpAfterARefusal(draft=False))
    assert outcome.status == "abstained"
    assert outcome.abstain_reason == "so the note should be rejected"
    assert "FocusedNote" not in model.calls


async def test_a_focused_note_naming_no_sentence_cites_those_its_words_come_from() -> None:
    # the real model worded a sound sentence from the page and left `used` empty
    words = "Many studies have found no link between the MMR vaccine and autism."
    outcome, _, _ = await run(FailsThenWords({"text": words, "used": []}))
    assert outcome.status == "noted"
    assert outcome.note == f"{words}\n\n{MMR}"
    # words drawn from no sentence cite nothing, and nothing is published
    outcome, _, _ = await run(FailsThenWords({"text": "Vaccines are safe.", "used": []}))
    assert outcome.status == "abstained"


def test_a_sentence_pointing_at_the_sentences_read_is_refused_wherever_it_says_so() -> None:
    checks = DraftContext.of(POST, health_evidence())
    said = "The measles vaccine contains measles virus, as stated in sentence 1 of the pages read."
    draft = Write(text=said, support=[SupportedClaim(claim=said, url=MMR)])
    assert any(
        p.startswith("Write the note itself: sentence 1")
        for p in [f.feedback for f in findings(checks, parse(checks, draft))]
    )


def health_evidence() -> dict[str, Evidence]:
    page = health_pages()[MMR]
    return {MMR: Evidence(url=MMR, title=page.title, excerpt=page.text)}


def test_a_sentence_also_cites_the_page_read_that_speaks_of_its_claim_terms() -> None:
    cold = "https://example.org/pain-basics"
    page = Evidence(url=cold, title="Tylenol basics", excerpt="Tylenol eases pain and fever.")
    liver = "https://medlineplus.gov/liver.html"
    said = Evidence(url=liver, title="Liver", excerpt="Too much Tylenol can damage the liver.")
    checks = DraftContext.of(TYLENOL_POST, {cold: page, liver: said})
    text = "Too much Tylenol can damage the liver."
    draft = Write(text=text, support=[SupportedClaim(claim=text, url=cold)])
    cited = citing_read_pages(checks, parse(checks, draft))
    assert [c.url for c in cited.action.support] == [cold, liver]
    assert not [f.feedback for f in findings(checks, cited)]
    # a page read that does not use the terms either is never added
    lone = DraftContext.of(TYLENOL_POST, {cold: page})
    assert [c.url for c in citing_read_pages(lone, parse(lone, draft)).action.support] == [cold]


def test_a_first_sentence_that_is_only_a_verdict_may_go_when_the_check_refuses_it() -> None:
    checks = DraftContext.of(TYLENOL_POST, {PAIN: PAIN_PAGE})
    fact = "Tylenol is acetaminophen, a pain reliever sold over the counter."
    # the real model: "This is a misleading statement." refused, a sound second sentence
    kept = without_unsupported(
        checks, parse(checks, cites_pain(f"This is a misleading statement. {fact}")), {1}
    )
    assert kept is not None and kept.text == fact
    # a first sentence that states a fact is the main correction: refused, nothing is kept
    draft = cites_pain(f"Tylenol is not a pain reliever. {fact}")
    assert without_unsupported(checks, parse(checks, draft), {1}) is None


def parse(c: DraftContext, write: Write) -> Draft:
    return Draft.parse(write, c.read)


def repaired_draft(c: DraftContext, draft: Draft) -> Draft | None:
    return repaired_by_code(c, draft, findings(c, draft))
