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
