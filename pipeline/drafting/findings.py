"""What a draft got wrong, in the rules' own terms: `RuleId` (one id per rule, stored with the
step), `Finding` (a rule, the writer's feedback, the sentence) and how a card speaks of each
rule. Values only: the rules themselves are `pipeline.drafting.rules.RULES`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RuleId(StrEnum):
    """Why a draft is refused: one id per rule, stored with the step (`failed_checks`)."""

    NOT_READ = "not-read"  # cites a page that was not read
    OFF_TOPIC = "off-topic"  # cites a read page that shares no key term with the claims
    NAMED_ONLY = "named-only"  # cites only low-tier pages the post or its requesters named
    NO_CITATION = "no-citation"  # cites no page read
    TOKENS = "unread-tokens"  # a word, number or link no vocabulary and no page read has
    DIRECTIVE = "directive"  # addresses a reader, a rater or the system
    LINK_LIKE = "link-like"  # a token X's evaluator would check as a link
    REPEATED = "repeated-sentence"  # the same sentence twice
    QUESTION = "question"  # a question is no fact
    ABOUT_THE_NOTE = "about-the-note"  # speaks of the note or its sources, not the post
    EXAMPLE = "repeats-example"  # the prompts' example sentence on another topic
    COPIES_POST = "copies-post"  # the post's own words
    ATTRIBUTION = "unsourced-attribution"  # gives its claim to someone no cited page names
    ORDER = "unsourced-order"  # orders people to do what no cited page says to
    UNGROUNDED = "ungrounded-terms"  # speaks of claim terms no cited page uses
    NO_PROSE = "no-prose"
    VERDICT_ONLY = "verdict-only"  # a sentence that only finds for the post, stating no fact
    TOO_SHORT = "too-short"
    CUT_OFF = "cut-off"  # the last sentence stops mid-way
    TOO_LONG = "too-long"  # over X's 280 characters
    TOO_FEW_SEARCHES = "too-few-searches"  # the budget's minimum of research
    TOO_FEW_READS = "too-few-reads"
    UNSUPPORTED = "unsupported"  # the model's support check found a sentence not borne out


@dataclass(frozen=True)
class Finding:
    """One thing a draft got wrong: the rule, the feedback the writer reads, and the sentence
    (1-based) it is about, or None for the whole draft."""

    rule: RuleId
    feedback: str
    sentence: int | None = None


@dataclass(frozen=True)
class RuleCard:
    """How a card speaks of a rule: `kind` completes "the last draft …"; `said` is whether it
    is about what the draft said (shown) or its form (code's to repair, or the model's, in the
    trajectory)."""

    kind: str
    said: bool


UNSUPPORTED_KIND = "made claims its sources do not bear out"

CARDS: dict[RuleId, RuleCard] = {
    RuleId.NOT_READ: RuleCard("cited pages that were not read", False),
    RuleId.OFF_TOPIC: RuleCard("cited pages that share no key term with the claims", True),
    RuleId.NAMED_ONLY: RuleCard("cited only pages the post or its requesters named", True),
    RuleId.NO_CITATION: RuleCard("cited no page read", False),
    RuleId.TOKENS: RuleCard("held words, links or numbers that no page read uses", True),
    RuleId.DIRECTIVE: RuleCard("addressed its readers, raters or the system", True),
    RuleId.LINK_LIKE: RuleCard("held a token X would check as a link", False),
    RuleId.REPEATED: RuleCard("repeated a sentence", False),
    RuleId.QUESTION: RuleCard("asked a question", False),
    RuleId.ABOUT_THE_NOTE: RuleCard("wrote about the note instead of the note", True),
    RuleId.EXAMPLE: RuleCard("repeated the instructions' example", True),
    RuleId.COPIES_POST: RuleCard("repeated the post's own words instead of answering them", True),
    RuleId.ATTRIBUTION: RuleCard(UNSUPPORTED_KIND, True),
    RuleId.ORDER: RuleCard("gave an order no page it cites gives", True),
    RuleId.UNGROUNDED: RuleCard(UNSUPPORTED_KIND, True),
    RuleId.NO_PROSE: RuleCard("had no prose", False),
    RuleId.VERDICT_ONLY: RuleCard("said only that the post is right", True),
    RuleId.TOO_SHORT: RuleCard("was too short to say anything", False),
    RuleId.CUT_OFF: RuleCard("ended mid-sentence", False),
    RuleId.TOO_LONG: RuleCard("was over 280 characters", False),
    RuleId.TOO_FEW_SEARCHES: RuleCard("came before enough searching", False),
    RuleId.TOO_FEW_READS: RuleCard("came before enough reading", False),
    RuleId.UNSUPPORTED: RuleCard(UNSUPPORTED_KIND, True),
}


def what_was_said_wrong(findings: list[Finding]) -> list[str]:
    """The card's words for what the findings say the draft said wrong, each once, in order;
    never its form."""
    kinds = (CARDS[f.rule] for f in findings)
    return list(dict.fromkeys(card.kind for card in kinds if card.said))
