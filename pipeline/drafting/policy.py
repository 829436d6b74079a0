"""What model-written text may contain before it is published (a note) or remembered (a
lesson): no token the general vocabulary and the pages read do not vouch for
(`pipeline.drafting.tokens`), no directive (`pipeline.drafting.directives`)."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from pipeline.drafting.context import DraftContext
from pipeline.drafting.directives import directive
from pipeline.drafting.draft import Draft
from pipeline.drafting.findings import Finding
from pipeline.drafting.note import link_like_tokens, note_prose, with_run_ons_apart
from pipeline.drafting.provenance import NO_PROVENANCE, Provenance, normalise
from pipeline.drafting.rulebook import DraftCheck
from pipeline.drafting.tokens import refused_tokens, tokens_feedback
from pipeline.drafting.words import ANY_WORD

# The ids of the text policy's three draft rules (`pipeline.drafting.rules.RuleId` has them).
UNREAD_TOKENS = "unread-tokens"
DIRECTIVE = "directive"
LINK_LIKE = "link-like"


def disallowed_content(
    text: str, provenance: Provenance = NO_PROVENANCE, *, lesson: bool = False
) -> list[str]:
    """Why normalised `text` may not be published (or, as a `lesson`, remembered); empty when it
    may. Addressed to the model that wrote it (it names the tokens to remove)."""
    problems: list[str] = []
    tokens = refused_tokens(text, provenance)
    if tokens:
        problems.append(tokens_feedback(tokens))
    why = directive(text, lesson=lesson)
    if why:
        problems.append(f"Rewrite {why} as a neutral statement of fact.")
    return problems


def shared_run(text: str, sources: Iterable[str], words: int = 8) -> str | None:
    """A run of `words` consecutive words of `text` found in any of `sources`, or None."""
    mine = [w.lower() for w in ANY_WORD.findall(normalise(text))]
    if len(mine) < words:
        return None
    runs = {tuple(mine[i : i + words]) for i in range(len(mine) - words + 1)}
    for source in sources:
        theirs = [w.lower() for w in ANY_WORD.findall(normalise(source))]
        for i in range(len(theirs) - words + 1):
            if tuple(theirs[i : i + words]) in runs:
                return " ".join(theirs[i : i + words])
    return None


def prose_findings(prose: str, provenance: Provenance) -> list[tuple[str, str]]:
    """Why the prose may not be published, by rule (`pipeline.drafting.tokens`: vocabulary words,
    the words, numbers and URLs of the pages read, no directive; no token X takes for a link).
    Checked as written and as assembled, so that removing typed URLs cannot join anything up
    into a link."""
    found: list[tuple[str, str]] = []
    for text in (with_run_ons_apart(prose), note_prose(prose)):
        tokens = refused_tokens(text, provenance)
        if tokens and not any(rule == UNREAD_TOKENS for rule, _ in found):
            found.append((UNREAD_TOKENS, tokens_feedback(tokens)))
        why = directive(text)
        if why and not any(rule == DIRECTIVE for rule, _ in found):
            found.append((DIRECTIVE, f"Rewrite {why} as a neutral statement of fact."))
    if link_like_tokens(note_prose(prose)):
        # even a read page's host ("cdc.gov"): X's evaluator must find exactly the cited links
        found.append(
            (
                LINK_LIKE,
                "Write words, not addresses, file names or dotted codes: X checks every "
                "'name.ext' in a note as a link, and the sources go after the prose; name a "
                "source in words ('the CDC', 'MedlinePlus').",
            )
        )
    return found


def policy_check(id: str) -> DraftCheck:
    """The text policy's findings of one kind (`prose_findings`): on
    each sentence, so that code may drop the one that fails, and on the whole prose (a link can
    be spelt across sentences), where no sentence alone shows it."""

    def findings(context: DraftContext, draft: Draft) -> list[Finding]:
        provenance = context.provenance
        found = [
            Finding(id, feedback, i)
            for i, sentence in enumerate(draft.sentences, start=1)
            for r, feedback in _policy(sentence, provenance)
            if r == id
        ]
        if not found:
            found = [Finding(id, f) for r, f in _policy(draft.text, provenance) if r == id]
        return found

    return findings


@functools.lru_cache(maxsize=1024)
def _policy(text: str, provenance: Provenance) -> tuple[tuple[str, str], ...]:
    # three rules read the same findings of each sentence, and a repair asks again
    return tuple(prose_findings(text, provenance))
