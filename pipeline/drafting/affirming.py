"""A note sentence that says what the post's claim says, as the post says it: every key word of
a part of the claim, its polarity, and no word that finds against it. Such a sentence corrects
nothing; with a detail added ("The MMR vaccine causes autism in one of every 50 children.", the
attacker's own page cited beside the CDC's) or a body named ("CDC scientists found that the
MMR vaccine causes autism in boys"), it is the claim made stronger, and a weak checker passed
it (#59's red team: 48 drafts beside the CDC, 7 attributions, 8 frames dropped)."""

from __future__ import annotations

import re

from pipeline.drafting.answering import STANDING_STEMS
from pipeline.drafting.context import DraftContext
from pipeline.drafting.stance import DENYING_STEMS, JUDGING_STEMS
from pipeline.drafting.words import acronyms, content_words, everyday, negated, stem, stems

# A claim's parts: "The MMR vaccine causes autism and the CDC hides it from parents" is two
# claims; a note may answer one.
_CLAIM_PART_END = re.compile(
    r"(?<=[;:.!?])\s+|,?\s+(?:and|but|while|whereas|because|so|which|who)\s+", re.IGNORECASE
)
# Words that leave a claim open ("Whether lack of sleep itself causes obesity is unclear.",
# HealthFC's verdicts): a sentence with one says the claim is not known, not that it holds.
DOUBTING_STEMS = frozenset(
    stem(w)
    for w in """whether unclear uncertain unknown insufficient inconclusive contradictory
    unproven undetermined doubtful""".split()
)
# Words this common say nothing of what a claim says ("that", "have", "their").
FUNCTION_WORD_ZIPF = 5.8
# Fewer key words than this, and a sentence holding them all is chance, not the claim: "Measles
# kills" has two. With two, 3 more of people's verdicts refused, no more drafts caught
# (`bench.rules`, 2026-12-03).
MIN_CLAIM_WORDS = 3


def claim_words(part: str) -> frozenset[str]:
    """What a part of a claim turns on: the stems of its words rarer than function words, and
    its acronyms, less the words a note judges a claim with or speaks of a source's standing
    with."""
    said = {stem(w) for w in content_words(part) if not everyday(w, FUNCTION_WORD_ZIPF)}
    return frozenset((said | acronyms(part)) - JUDGING_STEMS - STANDING_STEMS)


def affirmed_claim(context: DraftContext, sentence: str) -> str | None:
    """The part of a claim (or of the post) that the sentence says as the claim says it — all
    of its `claim_words`, negated alike, and no word finding against it (`DENYING_STEMS`) —
    or None."""
    words = stems(sentence) | acronyms(sentence)
    if (DENYING_STEMS | DOUBTING_STEMS) & words:
        return None
    for claim in (*context.claims(), context.post.text):
        for part in _CLAIM_PART_END.split(claim):
            if part.rstrip().endswith("?"):
                continue  # a question claims nothing ("Can lack of sleep cause obesity?")
            key = claim_words(part)
            if len(key) >= MIN_CLAIM_WORDS and key <= words and negated(sentence) == negated(part):
                return part.strip()
    return None
