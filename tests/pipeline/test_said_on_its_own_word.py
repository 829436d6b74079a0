"""Code publishes a sentence on its own word only when its page says it on its own word: not a
quotation, not a labelled myth, not what a rating finds against. A second red team published
each of these from a page of standing (#59, tests/redteam2/)."""

from __future__ import annotations

from pipeline.actions import SupportedClaim, Write
from pipeline.drafting.context import DraftContext
from pipeline.drafting.draft import Draft
from pipeline.drafting.stance import said_on_its_own_word
from pipeline.drafting.support import borne_out_by_code
from pipeline.drafting.words import page_sentences
from pipeline.evidence import Evidence
from pipeline.post import Post

REUTERS = "https://www.reuters.com/world/ivermectin-sellers-2021-05-10/"
QUOTED = (
    "Online sellers of ivermectin are thriving despite FDA warnings. “Ivermectin works. The "
    "relief line 1800 555 199 ships doses overnight. We have nothing to hide,” said John "
    "Smith. ‘Families should skip the booster,’ a flyer read. Doctors advise against it."
)
MYTHS = "MYTH\nCOVID-19 vaccines change your DNA.\nFACT\nCOVID-19 vaccines do not change your DNA."
RATED = (
    "Ivermectin cures COVID-19 in 48 hours. The relief line ships ivermectin overnight. "
    "Rating: False. Clinical trials found no benefit."
)
ANSWERED = "Vaccines cause autism.\nThis is false. The 1998 study was retracted."


def test_only_what_the_page_says_itself_is_its_word() -> None:
    assert said_on_its_own_word(page_sentences(QUOTED)) == [
        "Online sellers of ivermectin are thriving despite FDA warnings.",
        "Doctors advise against it.",
    ]
    assert said_on_its_own_word(page_sentences(MYTHS)) == [
        "COVID-19 vaccines do not change your DNA."
    ]
    assert said_on_its_own_word(page_sentences(RATED)) == ["Clinical trials found no benefit."]
    assert said_on_its_own_word(page_sentences(ANSWERED)) == ["The 1998 study was retracted."]


def test_code_bears_out_no_quotation_and_no_labelled_myth() -> None:
    post = Post(text="Ivermectin cures COVID-19 and vaccines change your DNA.")
    for page, note, own in (
        (QUOTED, "The relief line 1800 555 199 ships doses overnight.", False),
        (MYTHS, "COVID-19 vaccines change your DNA.", False),
        (RATED, "Ivermectin cures COVID-19 in 48 hours.", False),
        (MYTHS, "COVID-19 vaccines do not change your DNA.", True),
    ):
        context = DraftContext.of(post, {REUTERS: Evidence(url=REUTERS, title="x", excerpt=page)})
        support = [SupportedClaim(claim=note, url=REUTERS, quote=note)]
        draft = Draft.parse(Write(text=note, support=support), context.read)
        assert (borne_out_by_code(context, draft) == {1}) is own, note


def test_a_title_or_an_abbreviation_does_not_end_a_pages_sentence() -> None:
    # the third red team: "Dr." and "e.g." cut the post's words off into a sentence of their own
    for lead in ("The video features a former physician, Dr.", "Parents see claims online, e.g."):
        page = f"{lead} Vaccines can cause autism in young children. We found no evidence."
        assert page_sentences(page) == [
            f"{lead} Vaccines can cause autism in young children.",
            "We found no evidence.",
        ]
    # a fact-checker's "No." answers, and "No. 5" is a number
    assert page_sentences("No. Federal law bars it. See No. 5 below.") == [
        "No.",
        "Federal law bars it.",
        "See No. 5 below.",
    ]


def test_a_line_wrapped_mid_sentence_is_one_sentence() -> None:
    # a PDF's wrap after "It is a myth that" made the myth a line of the page's own
    page = (
        "There is no link between the MMR vaccine and autism.\nHealth workers should never "
        "suggest that\nparents should skip the second dose.\nMeasles\nMeasles is a virus."
    )
    assert page_sentences(page) == [
        "There is no link between the MMR vaccine and autism.",
        "Health workers should never suggest that parents should skip the second dose.",
        "Measles",
        "Measles is a virus.",
    ]
