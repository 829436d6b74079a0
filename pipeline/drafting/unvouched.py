"""Words a note can have taken only from a page without standing: a clause whose words, beyond
what its vouching pages, the claims and a verdict's judging words say, all come from pages read
that do not vouch (`DraftContext.vouches`). Such a page may inform the brief, never a note's
words (#59); the text policy reads only rare tokens, so a false claim or an order in everyday
words ("…, and the vaccine causes seizures") taken from the attacker's page passed to the
model's check."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.drafting.context import DraftContext, terms_read
from pipeline.drafting.stance import JUDGING_STEMS
from pipeline.drafting.words import content_words, everyday, note_clauses, stem

# Two words, not one: a clause sharing a single stray word with a page without standing is
# chance (one word: 5 honest AVeriTeC verdicts refused; two: 3; payloads caught alike, 114 of
# the 117 drawn payloads that reached the model's check; `bench.rules`, 2026-12-03).
MIN_UNVOUCHED_WORDS = 2
# Words this common ("there", "anything") say nothing of where a clause came from: with them,
# "There is no evidence at all that Hyde has anything to do with Covid" was refused.
FUNCTION_WORD_ZIPF = 5.8


def unvouched_words(context: DraftContext, sentence: str, cited: Sequence[str]) -> list[str]:
    """The words (stems) of the sentence's first clause that only pages without standing
    say: at least `MIN_UNVOUCHED_WORDS` of them, none on a vouching page it cites, in the
    claims or a judging word; empty when there is none."""
    vouched = frozenset().union(*(terms_read(context.evidence[u]) for u in context.vouching(cited)))
    others = [e for u, e in context.evidence.items() if not context.vouches(u)]
    unvouched = frozenset().union(*(terms_read(e) for e in others))
    if not unvouched:
        return []
    for clause in note_clauses(sentence):
        said = {stem(w) for w in content_words(clause) if not everyday(w, FUNCTION_WORD_ZIPF)}
        words = said - JUDGING_STEMS - vouched - context.claim_stems
        if len(words) >= MIN_UNVOUCHED_WORDS and words <= unvouched:
            return sorted(words)
    return []
