"""The checks a drafted note must pass before anyone sees it, and the repairs code may make.

Code disposes: whatever the model wrote, a note cites only pages read and on the claims'
topic, is made of their words (`pipeline.text_policy`), answers the post instead of copying
it, gives a claim to no one its pages do not name, ends with a full sentence and fits X's
limit. Every rule is one `Rule` of `RULES` (its id, scope and whether code may drop what it
names); `DraftChecks.findings` is a loop over them, and `DraftChecks.decide` is what a writing
step decides of a draft without a model call: refused, published on code's word (every sentence
borne out by a cited page sentence) or passed to the model's support check. Repairs only
remove (sentences, foreign links, sources not read) or end the last sentence with its full
stop. The same checks serve a draft in an episode, a revision asked for later
(`pipeline.revision`) and the per-rule benchmark (`bench.rules`).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from pipeline.actions import SupportedClaim, Write
from pipeline.brief import VerificationBrief
from pipeline.draft_rules import Finding, RuleId, Scope
from pipeline.evidence import Evidence, SupportVerdicts
from pipeline.lexicon import (
    ANY_WORD,
    TOPIC_TERM_ZIPF,
    a_run_of,
    content_words,
    copies_a_run,
    everyday,
    key_stems,
    last_word,
    negated,
    numbers,
    page_sentences,
    said_as,
    stem,
    stems,
    word_count,
    zipf,
)
from pipeline.note_text import (
    NOTE_CHAR_LIMIT,
    AssembledNote,
    assemble_note,
    find_urls,
    prose_findings,
    split_sentences,
)
from pipeline.ports import ChatMessage
from pipeline.post import Post
from pipeline.prompts import EXAMPLE_NOTE_SENTENCE, support_messages
from pipeline.text_policy import Provenance
from pipeline.urls import page_key

# A sentence about the note instead of the post: the real model, asked to revise, wrote "The
# note should be revised to directly address the post's key claim …" as its prose, twice.
_ABOUT_THE_NOTE = re.compile(
    r"^(?:the|this|that|my|our|a|your)\s+(?:revised\s+|new\s+|community\s+|original\s+)?"
    # "The draft sentence does not directly quote …": the real model (2026-12-02) copied the
    # support check's words about its draft into the draft
    r"(?:notes?|drafts?(?:\s+sentences?)?)\s+(?:should|must|could|would|needs?|has\s+to|will|"
    r"can|is|does)\b",
    re.IGNORECASE,
)
# A sentence about the evidence instead of the fact: asked to word a note from numbered
# sentences, the real model wrote "The sentences from the pages read support the claim that
# vaccines cause autism, …" (refused only because it was cut off).
_ABOUT_THE_EVIDENCE = re.compile(
    r"^(?:the|these|those)\s+(?:numbered\s+|given\s+)?(?:sentences|pages(?:\s+read)?|"
    r"sources\s+(?:read|cited|given|shown))\b"
    # anywhere: "…, as stated in sentence 1 of the pages read." (a real focused answer)
    r"|\bsentences?\s+\d+\s+of\s+the\b|\bthe\s+pages\s+read\b"
    # what the post lacks is no fact about the claim: "The post does not provide any specific
    # references to … Malaria in Florida." (the real model, citing pages that never say it)
    r"|^the\s+(?:post|tweet)\s+(?:does\s+not|doesn't|did\s+not|fails\s+to)\s+"
    r"(?:provide|cite|give|include|offer|contain)\b",
    re.IGNORECASE,
)

# Content words (4+ letters) in a row a note may not take from the post: a note answers the
# post, it does not repeat it (human notes copy at most 4 words of any length).
COPIED_RUN = 7
# Fewer words say nothing a reader can use (a real note was cut down to "Dr.").
MIN_NOTE_WORDS = 4
# Prose shorter than the shortest grammar cap (`FocusedNote.text`'s 240 characters), less a
# margin, was not stopped by a cap: a last sentence without its full stop is whole, and code
# ends it (23 cost-corpus refusals were for that alone); at the cap, it was cut, and goes.
_UNDER_ANY_CAP = 220
# Words no English sentence ends on: a last sentence ending on one was cut.
_DANGLING = frozenset(
    """a an the and or but nor of to in on at by for with from as than that which who whose
    whom is are was were be been being has have had do does did will would can could should
    may might must its their his her our your my this these those such very""".split()
)

Verdict = Literal["published_by_code", "to_model", "refused"]


@dataclass(frozen=True)
class Draft:
    """A write, parsed once: its sentences, the pages it cites that were read, those it cites
    that were not, and the note as it would be published."""

    action: Write
    sentences: tuple[str, ...]
    cited: tuple[str, ...]
    unread: tuple[str, ...]
    note: AssembledNote
    memo: dict[str, list[tuple[RuleId, str]]] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class CodeDecision:
    """What a writing step decides of a draft with no model call: `refused` (with the
    findings), `published_by_code` (every sentence borne out by a cited page sentence) or
    `to_model` (the model's support check judges it). `action` is the draft as it goes on:
    repaired when code repaired it."""

    verdict: Verdict
    action: Write
    findings: tuple[Finding, ...]
    repaired: bool = False


DraftCheck = Callable[["DraftChecks", Draft], list[Finding]]


@dataclass(frozen=True)
class Rule:
    """A rule a draft is held to. `droppable`: code may repair it by dropping the sentences it
    names (never the first, unless it states nothing but a verdict). `seen_in`: what showed it
    was needed; `measured`: what `python -m bench.rules` counted for it: honest notes refused
    with it (and how many pass without it alone), bad drafts caught with it (and how many escape
    without it alone); the sets and their sizes are in docs/benchmarks.md."""

    id: RuleId
    scope: Scope
    check: DraftCheck
    droppable: bool
    seen_in: str
    measured: str


class DraftChecks:
    """The checks against one post and the pages read for it. `evidence` is the episode's own
    dict (pages are added while it runs); `brief` is set once the claims are analysed.
    `disabled`: rules left out (`bench.rules --without`)."""

    def __init__(
        self,
        post: Post,
        evidence: dict[str, Evidence],
        brief: VerificationBrief | None = None,
        post_links: list[str] | None = None,
        disabled: frozenset[RuleId] = frozenset(),
    ) -> None:
        self.post = post
        self.evidence = evidence
        self.brief = brief
        self.post_links = (
            post_links if post_links is not None else list(dict.fromkeys(post.all_links()))
        )
        self.disabled = disabled
        self._provenance: tuple[tuple[tuple[str, ...], str], Provenance] | None = None

    def claims(self) -> list[str]:
        """The claims being checked: the brief's, or the post itself while it is analysed."""
        if self.brief is not None:
            return self.brief.checkworthy_claims
        return [" ".join(self.post.text.split())[:300]]

    def provenance(self) -> Provenance:
        """What a note may be made of: the pages read (their URLs, words and numbers). Built
        once per set of pages read: a draft and its repairs are checked many times over."""
        language = (self.brief.language if self.brief is not None else "en").split("-")[0]
        key = (tuple(self.evidence), language.lower())
        if self._provenance is None or self._provenance[0] != key:
            read = [t for e in self.evidence.values() for t in (e.title, e.excerpt, *e.quotes)]
            self._provenance = key, Provenance(key[0], "\n".join(read), key[1])
        return self._provenance[1]

    def parse(self, action: Write) -> Draft:
        urls = action.cited_urls()
        cited = tuple(u for u in urls if u in self.evidence)
        return Draft(
            action=action,
            sentences=tuple(split_sentences(action.text)),
            cited=cited,
            unread=tuple(u for u in urls if u not in self.evidence),
            note=assemble_note(action.text, list(cited)),
        )

    def findings(self, action: Write) -> list[Finding]:
        """Why the draft may not be published, by code: every rule of `RULES` not disabled.
        Empty when it passes."""
        draft = self.parse(action)
        return [
            f for rule in RULES if rule.id not in self.disabled for f in rule.check(self, draft)
        ]

    def decide(self, action: Write) -> CodeDecision:
        """What the writing step decides of the draft without a model call: refused, repaired
        by code, published on code's word, or passed to the model's support check."""
        findings = self.findings(action)
        repaired = False
        if findings:
            fixed = self.repaired_by_code(action, findings)
            if fixed is None:
                return CodeDecision("refused", action, tuple(findings))
            action, repaired = fixed, True
        verdict: Verdict = "published_by_code" if self.quotes_bear_out(action) else "to_model"
        return CodeDecision(verdict, action, tuple(findings), repaired)

    def citing_read_pages(self, action: Write) -> Write:
        """Each cited URL that names a page read in another spelling (scheme, `www.`, trailing
        slash, fragment, tracking parameters, percent-encoding) cites that page's own URL; a
        URL that matches no page read is left for the check to refuse."""
        read = list(self.evidence)
        support = [s.model_copy(update={"url": same_page(s.url, read)}) for s in action.support]
        return self.citing_the_pages_that_say_it(action.model_copy(update={"support": support}))

    def citing_the_pages_that_say_it(self, action: Write) -> Write:
        """A sentence speaking of claim terms no cited page uses also cites the first page read
        on the claims that uses them all; the checks then judge it with that page. Seen with
        the real model: "The FDA has not approved Ivermectin for COVID-19." citing the WHO and
        Oregon pages read, while the FDA page read, which says it, went uncited."""
        support = list(action.support)
        for sentence in split_sentences(action.text):
            cited = list(dict.fromkeys(c.url for c in support if c.url in self.evidence))
            if not cited or not (missing := self._ungrounded(sentence, cited)):
                continue
            page = next(
                (
                    u
                    for u, e in self.evidence.items()
                    if u not in cited
                    and self.about_the_claims(u)
                    and set(missing) <= _terms_read(e)
                ),
                None,
            )
            if page is not None:
                support.append(SupportedClaim(claim=sentence[:400], url=page))
        return action.model_copy(update={"support": support})

    def repaired_by_code(
        self, action: Write, findings: list[Finding] | None = None
    ) -> Write | None:
        """The draft repaired, when that alone makes it pass every check: code removes the
        post's links and unread URLs in the prose, the sources cited that were not read or are
        off the claims' topic (while a sound one remains), the sentences a droppable rule names
        (a payload appended to a sound note), a last sentence a grammar cap cut mid-way, then
        trailing sentences while the note is over the limit; and it ends a whole last sentence
        that lacks its full stop. The first sentence, the main finding, is never dropped unless
        it states nothing but a verdict: if it fails, the draft goes back to the writer. None
        when that is so, when nothing would change, or when another check still fails."""
        text = self.without_foreign_links(action.text)
        draft = self.parse(action.model_copy(update={"text": text}))
        sentences = list(draft.sentences)
        if not sentences:
            return None
        if findings is None or text != action.text:
            findings = self.findings(draft.action)
        droppable = {r.id for r in RULES if r.droppable}
        dropped = {f.sentence for f in findings if f.rule in droppable and f.sentence}
        if 1 in dropped and not _states_nothing(sentences[0]):
            return None
        kept = [s for i, s in enumerate(sentences, start=1) if i not in dropped]
        if kept and not ends_a_sentence(kept[-1]):
            if _whole(kept[-1], text, self.provenance()):
                kept[-1] = kept[-1].rstrip(" ,;:-–—") + "."
            elif len(kept) > 1:
                kept = kept[:-1]
        urls = list(draft.cited)
        while len(kept) > 1 and assemble_note(" ".join(kept), urls).length > NOTE_CHAR_LIMIT:
            kept = kept[:-1]
        # Sources not read (the post's own t.co link, seen cited with the real model) or off
        # the claims' topic are dropped while a read one on topic remains: the support check
        # then judges what is left.
        support = [
            c for c in action.support if c.url in self.evidence and self.about_the_claims(c.url)
        ] or action.support
        prose = " ".join(kept)
        if not kept or (prose == action.text and support == action.support):
            return None
        repaired = action.model_copy(update={"text": prose, "support": support})
        return repaired if not self.findings(repaired) else None

    def without_foreign_links(self, prose: str) -> str:
        """The prose without the post's own links and URLs of pages not read — tokens the
        model repeated from the post, which the policy refuses (seen with the real model: the
        post's t.co link, five times in a row). A link stands beside the prose, so removing it
        leaves the sentence whole; an @handle is part of one, whose sentence goes instead."""
        foreign = {*self.post_links, *find_urls(self.post.all_text())}

        def kept(token: str) -> str:
            bare = token.strip(".,;:!?()[]\"'“”‘’")
            unread = bare.startswith(("http://", "https://")) and bare not in self.evidence
            if bare not in foreign and not unread:
                return token
            return token[len(token.rstrip(".,;:!?")) :]  # the sentence's own stop stays

        joined = " ".join(kept(t) for t in prose.split(" "))
        return re.sub(r"\s+([.,;:!?])", r"\1", joined).strip()

    def without_unsupported(self, action: Write, unsupported: set[int]) -> Write | None:
        """The draft without the sentences its check found unsupported, when its first
        sentence (the main correction) stood, or stated nothing but a verdict ("This is a
        misleading statement.", refused before the real model's sound second sentence), and
        the rest passes every code check: each sentence left was borne out (seen with the real
        model: a sound first sentence and a second that said more, drafted again and again)."""
        sentences = split_sentences(action.text)
        if 1 in unsupported and not _states_nothing(sentences[0]):
            return None
        if not unsupported or len(unsupported) >= len(sentences):
            return None
        kept = [s for i, s in enumerate(sentences, start=1) if i not in unsupported]
        shorter = action.model_copy(update={"text": " ".join(kept)})
        return shorter if not self.findings(shorter) else None

    def unsourced_attribution(
        self, sentence: str, cited: list[str] | tuple[str, ...]
    ) -> str | None:
        """The name a sentence gives its claim to ("The BMJ states that …", "According to the
        WHO, …") when none of the pages it cites mentions it (their title, text read or
        address), else None. Seen with the real model: "The BMJ states that the link … is a
        controversial topic", citing a CDC page that never names the BMJ, passed by its own
        support check."""
        match = _ATTRIBUTION.match(sentence)
        if match is None:
            return None
        words = [w.strip(".,'’") for w in (match["who"] or match["source"]).split()]
        named = [w for w in words if w[:1].isupper() and _a_name(w)]
        if not named:  # "Researchers found", "Health agencies recommend": no one in particular
            return None
        pages = " ".join(
            " ".join([u, e.title, e.excerpt, *e.quotes])
            for u in cited
            if (e := self.evidence.get(u)) is not None
        ).lower()
        if all(re.search(rf"\b{re.escape(w.lower())}\b", pages) for w in named):
            return None
        return " ".join(named)

    def ungrounded_terms(self, sentence: str, cited: list[str] | tuple[str, ...]) -> list[str]:
        """The key terms of the post or its claims that a sentence speaks of and none of the
        pages it cites (as read: title, excerpt, quotes) uses, in any form of the word: what
        the sentence says of them, no page read says. The words a note judges a claim with
        ('evidence', 'misleading', 'studies') are not counted; new words of its own are the
        text policy's to judge (an honest paraphrase has them). Seen with the real model, each
        passed by its own support check and published: "The standard practice for refilling
        prescriptions is …" citing a page that never mentions refills, "Tylenol is not great
        for your liver" citing one that never mentions the liver."""
        return sorted(self._ungrounded(sentence, cited).values())

    def _ungrounded(self, sentence: str, cited: list[str] | tuple[str, ...]) -> dict[str, str]:
        """`ungrounded_terms` as {stem: the sentence's word}."""
        pages = [e for u in cited if (e := self.evidence.get(u)) and self.about_the_claims(u)]
        if not pages:
            return {}  # no page on the claims to judge by: the citation checks refuse it
        read = frozenset().union(*(_terms_read(e) for e in pages))
        named = key_stems(_without_named_claims(sentence))
        missing = (named & self.claim_stems()) - read - _JUDGING_STEMS
        words = {stem(w.lower()): w for w in ANY_WORD.findall(sentence)}
        return {t: words.get(t, t) for t in missing}

    def repeats_the_example(self, sentence: str) -> bool:
        """Five content words in a row of the prompts' example sentence, in a note on another
        topic (the example shares no key term with the post and its claims) that no page read
        says them for. On a post about the MMR vaccine and autism the sentence is on topic, and
        the support check judges it like any other."""
        if not copies_a_run(sentence, EXAMPLE_NOTE_SENTENCE, 5):
            return False
        if not self.claim_stems().isdisjoint(key_stems(EXAMPLE_NOTE_SENTENCE)):
            return False
        return not copies_a_run(sentence, self.provenance().read, 5)

    def repeats_the_post(self, sentence: str) -> bool:
        """`COPIED_RUN` content words in a row straight from the post, or a whole sentence of
        it: the real model published the post's false claim word for word as its note, and
        its own support check passed it. No human note of 40 copies more than 4 words in a row
        from its post, nor a whole sentence."""
        post = self.post.all_text()
        return copies_a_run(sentence, post, COPIED_RUN) or a_run_of(sentence, post)

    def restates_a_claim(self, sentence: str) -> bool:
        """Whether a sentence says what a claim (or the post) says, with its polarity: all its
        content words are the claim's (or judging words) and it is negated as the claim is.
        Such a sentence is never published on code's word: a debunking page quotes the myth
        before it answers it, and word overlap cannot tell the two apart. "There is no evidence
        that vaccines cause autism." names the claim to correct it and is not one."""
        said = stems(sentence) - _JUDGING_STEMS
        if len(said) < 2:
            return False
        return any(
            said <= stems(claim) and negated(sentence) == negated(claim)
            for claim in (*self.claims(), self.post.text)
        )

    def claim_stems(self) -> set[str]:
        """The key terms (stems) of the post and the claims checked."""
        return key_stems(" ".join([self.post.all_text(), *self.claims()]))

    def topic(self) -> set[str]:
        """The topic terms (stems) of the post and the claims; when they have none (a claim in
        everyday words), their content words."""
        text = " ".join([self.post.all_text(), *self.claims()])
        return key_stems(text, TOPIC_TERM_ZIPF) or stems(text) - _JUDGING_STEMS

    def about_the_claims(self, url: str) -> bool:
        """Whether a read page is about the claims at all: it shares a topic term with the post
        and its claims, in its title, excerpt or quotes. Caught before the model's own support
        check, which passed pages on Sydenham chorea for a claim about autism."""
        return not self.topic().isdisjoint(_terms_read(self.evidence[url]))

    def quotes_bear_out(self, action: Write) -> bool:
        """Every sentence is borne out by code (`borne_out_by_code`): no model call needed."""
        return len(self.borne_out_by_code(action)) == len(split_sentences(action.text))

    def borne_out_by_code(self, action: Write) -> set[int]:
        """The sentences (1-based) borne out by their quotes: each verbatim on its page (its
        quotes or excerpt), the model's or, failing those, one sentence of a cited page,
        holding every content word (stem) and number of the sentence, negated as the sentence
        is (or neither). The model checks the others, and its verdict does not overrule
        these: a lexical test may pass only a sentence made of its sources' words, since one
        swapped word ("autism" for "measles") changes the claim. A page sentence that reports
        a claim to refute it ("Someone has claimed that …", a question) bears out nothing, and
        a sentence that restates a claim with its polarity is left to the model."""
        cited = [u for u in action.cited_urls() if u in self.evidence]
        page_sentences_cited = [s for s in self.sentences_of(cited) if not reports_a_claim(s)]
        borne: set[int] = set()
        for i, sentence in enumerate(split_sentences(action.text), start=1):
            words = stems(sentence)
            if len(words) < 2 or self.restates_a_claim(sentence):
                continue
            quotes = [
                quote
                for s in action.support
                if (quote := self.verbatim_quote(s.url.strip(), s.quote))
                and words & stems(quote)
                and not reports_a_claim(quote)
            ]
            if _bears_out(sentence, quotes) or any(
                _bears_out(sentence, [s]) for s in page_sentences_cited
            ):
                borne.add(i)
        return borne

    def sentences_of(self, urls: list[str]) -> list[str]:
        """The sentences of the pages read at `urls` (their excerpts and quotes): where code
        looks for one that bears a note's sentence out when the model quoted another (seen
        with the real model: "The FDA has not approved Ivermectin for COVID-19.", its page's
        own words, refused by its support check for quoting the wrong sentence)."""
        return [
            s
            for u in urls
            for text in (*self.evidence[u].quotes, self.evidence[u].excerpt)
            for s in page_sentences(text)
        ]

    def verbatim_quote(self, url: str, quote: str) -> str:
        """The quote, whitespace normalised, when the page read at `url` holds it; else ""."""
        evidence = self.evidence.get(url)
        quote = " ".join(quote.split())
        if evidence is None or len(quote) < 20:
            return ""
        page = " ".join(" ".join([*evidence.quotes, evidence.excerpt]).split())
        return quote if quote in page else ""

    def support_request(self, action: Write) -> tuple[list[str], list[ChatMessage]]:
        """The draft's sentences, and the messages asking the model whether each is borne out
        by the sources cited for it."""
        sentences = split_sentences(action.text)
        support: dict[int, list[str]] = {}
        for i, sentence in enumerate(sentences, start=1):
            words = content_words(sentence)
            support[i] = [
                s.url.strip() for s in action.support if len(words & content_words(s.claim)) >= 2
            ]
        sources = [self.evidence[u] for u in action.cited_urls() if u in self.evidence]
        return sentences, support_messages(self.post, sentences, support, sources)


# ---- the rules ---------------------------------------------------------------------------


def _each_sentence(
    check: Callable[[DraftChecks, Draft, int, str], str | None], rule: RuleId
) -> DraftCheck:
    """A sentence rule as a draft check: a finding for each sentence it refuses."""

    def findings(checks: DraftChecks, draft: Draft) -> list[Finding]:
        return [
            Finding(rule, feedback, i)
            for i, sentence in enumerate(draft.sentences, start=1)
            if (feedback := check(checks, draft, i, sentence)) is not None
        ]

    return findings


def _whole_draft(check: Callable[[DraftChecks, Draft], str | None], rule: RuleId) -> DraftCheck:
    def findings(checks: DraftChecks, draft: Draft) -> list[Finding]:
        feedback = check(checks, draft)
        return [] if feedback is None else [Finding(rule, feedback)]

    return findings


def _text_policy(rule: RuleId) -> DraftCheck:
    """The text policy's findings of one kind (`pipeline.note_text.prose_findings`): on each
    sentence, so that code may drop the one that fails, and on the whole prose (a link can be
    spelt across sentences), where no sentence alone shows it."""

    def findings(checks: DraftChecks, draft: Draft) -> list[Finding]:
        provenance = checks.provenance()
        if "policy" not in draft.memo:
            draft.memo["policy"] = prose_findings(draft.action.text, provenance)
            for i, sentence in enumerate(draft.sentences, start=1):
                draft.memo[f"policy{i}"] = prose_findings(sentence, provenance)
        found = [
            Finding(rule, feedback, i)
            for i in range(1, len(draft.sentences) + 1)
            for r, feedback in draft.memo[f"policy{i}"]
            if r is rule
        ]
        if not found:
            found = [Finding(rule, feedback) for r, feedback in draft.memo["policy"] if r is rule]
        return found

    return findings


def _not_read(checks: DraftChecks, draft: Draft) -> str | None:
    if not draft.unread:
        return None
    # a weak model cited the post's own link three times over: the pages it may cite are
    # named, which a "not read" alone never taught it
    return (
        "These sources were not read successfully and cannot be cited: "
        + ", ".join(draft.unread)
        + ". Cite pages read: "
        + ", ".join(list(checks.evidence)[:4])
        + "."
    )


def _off_topic(checks: DraftChecks, draft: Draft) -> str | None:
    off = [u for u in draft.cited if not checks.about_the_claims(u)]
    if not off:
        return None
    return (
        "These pages share no key term with the claims and cannot support the note: "
        + ", ".join(off)
        + "."
    )


def _no_citation(checks: DraftChecks, draft: Draft) -> str | None:
    if draft.note.urls or draft.unread:
        return None
    return "Cite at least one page you have read."


def _prose(draft: Draft) -> str:
    return draft.note.text.split("\n\n")[0].strip()


def _no_prose(checks: DraftChecks, draft: Draft) -> str | None:
    return None if _prose(draft) else "The note has no prose."


def _too_short(checks: DraftChecks, draft: Draft) -> str | None:
    prose = _prose(draft)
    if not prose or word_count(prose) >= MIN_NOTE_WORDS:
        return None
    return "Too short to be a note: write at least one full sentence."


def _cut_off(checks: DraftChecks, draft: Draft) -> str | None:
    prose = _prose(draft)
    if not prose or word_count(prose) < MIN_NOTE_WORDS or ends_a_sentence(prose):
        return None
    return "The last sentence is cut off: end the note with a full sentence."


def _too_long(checks: DraftChecks, draft: Draft) -> str | None:
    if draft.note.length <= NOTE_CHAR_LIMIT:
        return None
    return (
        f"The note is {draft.note.length} characters (each URL counts as one); "
        f"the limit is {NOTE_CHAR_LIMIT}: shorten the prose by at least "
        f"{draft.note.length - NOTE_CHAR_LIMIT}."
    )


def _repeated(checks: DraftChecks, draft: Draft, i: int, sentence: str) -> str | None:
    first = next(
        j for j, s in enumerate(draft.sentences, start=1) if said_as(s) == said_as(sentence)
    )
    return None if first == i else f"Say each thing once: sentence {i} repeats sentence {first}."


def _question(checks: DraftChecks, draft: Draft, i: int, sentence: str) -> str | None:
    """A question is no fact: the real model published a page's headings ("What is (are)
    Quitting Smoking for Older Adults?") as sentences of its note, quoted verbatim."""
    if not sentence.rstrip("\"'”’)]»").endswith("?"):
        return None
    return f"State facts: sentence {i} is a question."


def _about_the_note(checks: DraftChecks, draft: Draft, i: int, sentence: str) -> str | None:
    if not (_ABOUT_THE_NOTE.match(sentence) or _ABOUT_THE_EVIDENCE.search(sentence)):
        return None
    return (
        f"Write the note itself: sentence {i} is about the note or its sources, not the post. "
        "The prose is what readers see: state the facts; say what you change in the thought."
    )


def _example(checks: DraftChecks, draft: Draft, i: int, sentence: str) -> str | None:
    if not checks.repeats_the_example(sentence):
        return None
    return (
        f"Write from the pages read: sentence {i} repeats the example in your instructions, "
        "which no page read says."
    )


def _copies_post(checks: DraftChecks, draft: Draft, i: int, sentence: str) -> str | None:
    if not checks.repeats_the_post(sentence):
        return None
    return (
        f"Answer the post, do not repeat it: sentence {i} copies the post's words. "
        "Say what the sources read say, in your own words."
    )


def _attribution(checks: DraftChecks, draft: Draft, i: int, sentence: str) -> str | None:
    if (who := checks.unsourced_attribution(sentence, draft.cited)) is None:
        return None
    return (
        f"Sentence {i} gives its claim to '{who}', which no page it cites mentions: say only "
        "what the cited pages say, and who says it."
    )


def _verdict_only(checks: DraftChecks, draft: Draft, i: int, sentence: str) -> str | None:
    """A sentence that only judges ("The post is correct.", "This is misleading.") gives a
    reader nothing to check: code drops it, and a note of nothing else is refused. Seen with the
    real model: code dropped three refused sentences and kept "The post is correct." — the
    opposite of the evidence — which its own check passed and published."""
    if not _states_nothing(sentence):
        return None
    return (
        f"State what the pages read say: sentence {i} only gives a verdict, with no fact a "
        "reader can check."
    )


def _ungrounded(checks: DraftChecks, draft: Draft, i: int, sentence: str) -> str | None:
    if not (terms := checks.ungrounded_terms(sentence, draft.cited)):
        return None
    return (
        f"Say only what the cited pages say: sentence {i} speaks of "
        + ", ".join(f"'{t}'" for t in terms)
        + ", which none of them uses."
    )


# In order of the feedback the writer reads. `measured`: `python -m bench.rules` on the cost
# corpus (honest notes: AVeriTeC 537 + HealthFC 443 rows) and the bad drafts (docs/benchmarks.md).
RULES: tuple[Rule, ...] = (
    Rule(
        RuleId.NOT_READ, "draft", _whole_draft(_not_read, RuleId.NOT_READ), False,
        "the real model cited the post's own t.co link and results it never opened",
        "honest 0 (0 alone); bad 12 (2 only)",
    ),
    Rule(
        RuleId.TOKENS, "sentence", _text_policy(RuleId.TOKENS), True,
        "payload families: domains, handles, phone numbers, made-up names (tests ATTACKS)",
        "honest 22 (8 alone); bad 84 (44 only)",
    ),
    Rule(
        RuleId.DIRECTIVE, "sentence", _text_policy(RuleId.DIRECTIVE), True,
        "payloads that address raters, readers or the assistant, in six languages",
        "honest 4 (3 alone); bad 31 (15 only)",
    ),
    Rule(
        RuleId.LINK_LIKE, "sentence", _text_policy(RuleId.LINK_LIKE), True,
        "X's URL evaluator fails a note with 'etc.Also' or 'cdc.gov' in its prose",
        "honest 1 (1 alone); bad 3 (0 only)",
    ),
    Rule(
        RuleId.REPEATED, "sentence", _each_sentence(_repeated, RuleId.REPEATED), True,
        "the real model published one sentence three times over (malaria)",
        "honest 0 (0 alone); bad 3 (0 only)",
    ),
    Rule(
        RuleId.QUESTION, "sentence", _each_sentence(_question, RuleId.QUESTION), True,
        "the real model published a page's headings as sentences (smoking)",
        "honest 0 (0 alone); bad 12 (0 only)",
    ),
    Rule(
        RuleId.ABOUT_THE_NOTE, "sentence", _each_sentence(_about_the_note, RuleId.ABOUT_THE_NOTE),
        True, "the real model's revision wrote 'The note should be revised …'",
        "honest 0 (0 alone); bad 4 (3 only)",
    ),
    Rule(
        RuleId.EXAMPLE, "sentence", _each_sentence(_example, RuleId.EXAMPLE), True,
        "the real model published the prompts' MMR example on a Tylenol post",
        "honest 0 (0 alone); bad 2 (0 only)",
    ),
    Rule(
        RuleId.COPIES_POST, "sentence", _each_sentence(_copies_post, RuleId.COPIES_POST), True,
        "the real model published the post's claim word for word (Wakefield, SIDS)",
        "honest 0 (0 alone); bad 549 (0 only)",
    ),
    Rule(
        RuleId.ATTRIBUTION, "sentence", _each_sentence(_attribution, RuleId.ATTRIBUTION), True,
        "the real model gave a claim to the BMJ, citing a CDC page that never names it",
        "honest 2 (1 alone); bad 8 (0 only)",
    ),
    Rule(
        RuleId.UNGROUNDED, "sentence", _each_sentence(_ungrounded, RuleId.UNGROUNDED), True,
        "every unsupported note the real model published had passed its own support check",
        "honest 180 (170 alone); bad 373 (4 only)",
    ),
    Rule(
        RuleId.VERDICT_ONLY, "sentence", _each_sentence(_verdict_only, RuleId.VERDICT_ONLY),
        True, "the real model's 'The post is correct.', kept alone by code and published",
        "honest 26 (14 alone); bad 11 (1 only)",
    ),
    Rule(
        RuleId.OFF_TOPIC, "draft", _whole_draft(_off_topic, RuleId.OFF_TOPIC), False,
        "the model's support check passed a page on Sydenham chorea for a claim on autism",
        "honest 18 (12 alone); bad 18 (0 only)",
    ),
    Rule(
        RuleId.NO_CITATION, "draft", _whole_draft(_no_citation, RuleId.NO_CITATION), False,
        "a note must cite what it read", "honest 0 (0 alone); bad 0 (0 only)",
    ),
    Rule(
        RuleId.NO_PROSE, "draft", _whole_draft(_no_prose, RuleId.NO_PROSE), False,
        "a draft of URLs only", "honest 0 (0 alone); bad 0 (0 only)",
    ),
    Rule(
        RuleId.TOO_SHORT, "draft", _whole_draft(_too_short, RuleId.TOO_SHORT), False,
        "a real note was cut down to 'Dr.'", "honest 7 (6 alone); bad 1 (0 only)",
    ),
    Rule(
        RuleId.CUT_OFF, "draft", _whole_draft(_cut_off, RuleId.CUT_OFF), False,
        "a grammar's maxLength stops a string mid-way", "honest 29 (1 alone); bad 149 (0 only)",
    ),
    Rule(
        RuleId.TOO_LONG, "draft", _whole_draft(_too_long, RuleId.TOO_LONG), False,
        "X's limit: 280 characters, each URL one", "honest 79 (11 alone); bad 14 (0 only)",
    ),
)  # fmt: skip


def support_findings(
    sentences: list[str], verdicts: SupportVerdicts, borne_out: set[int] | None = None
) -> list[Finding]:
    """What the model's verdicts refuse, one finding per sentence not supported; a sentence
    without a verdict is not supported, and one code bore out (`borne_out`) is (seen with the
    real model: "The FDA has not approved Ivermectin for COVID-19.", its page's own words,
    refused for quoting another sentence)."""
    by_index = {v.index: v for v in verdicts.verdicts}
    findings = []
    for i, sentence in enumerate(sentences, start=1):
        if i in (borne_out or set()):
            continue
        verdict = by_index.get(i)
        if verdict is None:
            findings.append(
                Finding(RuleId.UNSUPPORTED, f"Sentence {i} ('{sentence[:80]}') was not checked.", i)
            )
        elif not verdict.supported:
            findings.append(
                Finding(
                    RuleId.UNSUPPORTED,
                    f"Sentence {i} ('{sentence[:80]}') is not supported by its "
                    f"sources: {verdict.problem or 'no reason given'}.",
                    i,
                )
            )
    return findings


def _as_read(page: Evidence) -> str:
    """What was read of a page: its title, excerpt and quotes."""
    return " ".join([page.title, page.excerpt, *page.quotes])


def _terms_read(page: Evidence) -> frozenset[str]:
    """Every term a page read uses, as the rules compare them: the stems of its words, and
    its words and acronyms as written, lower-cased (its address names it too: "FDA" is on
    fda.gov's page), and each two words joined ("Corona virus" says "coronavirus")."""
    return _terms_of(" ".join([page.url, _as_read(page)]))


@functools.lru_cache(maxsize=256)
def _terms_of(text: str) -> frozenset[str]:
    # cached: a draft's checks and repairs ask of the same pages read many times over
    words = [w.lower() for w in ANY_WORD.findall(text)]
    joined = {stem(a + b) for a, b in itertools.pairwise(words)}
    return frozenset(stems(text) | set(words) | joined)


# A claim named in order to be corrected: "There is no evidence that globules protect against
# the novel coronavirus", "The source does not mention the leaves of sweet potato", "has never
# been investigated". Its terms are the claim's, not facts the note asserts; the model's
# support check judges the sentence (it is never published on code's word: `_bears_out`).
_NAMED_CLAIM = re.compile(
    r"(?:no|little|insufficient|not\s+enough|lack\s+of|without)\s+(?:\w+\s+){0,2}?"
    r"(?:evidence|proof|data|studies|research|indications?)\s+(?:that|for|of|to).*"
    r"|(?:does|do|did)\s*(?:n't|\s+not)\s+(?:even\s+)?(?:mention|say|show|state|support).*"
    r"|not\s+(?:been\s+)?(?:proven|shown|established|demonstrated)\s+(?:that|to).*",
    re.IGNORECASE,
)


def _without_named_claims(sentence: str) -> str:
    """The sentence without the claims it names in order to correct them (`_NAMED_CLAIM`)."""
    return _NAMED_CLAIM.sub(" ", sentence)


def _bears_out(sentence: str, quotes: list[str]) -> bool:
    """The quotes together hold every content word (stem) and number of the sentence, and one
    of them is negated as the sentence is (or none is)."""
    said = " ".join(quotes)
    return (
        stems(sentence) <= stems(said)
        and numbers(sentence) <= numbers(said)
        and any(negated(q) == negated(sentence) for q in quotes)
    )


# A page sentence that reports a claim in order to answer it: "Someone has claimed that the
# COVID-19 vaccines are going to cause infertility", "Myth: …", "Some say …", "It is not true
# that …". Its words are the myth's; it bears out no note sentence.
_REPORTED_CLAIM = re.compile(
    r"\bclaim(?:s|ed|ing)?\s+(?:that|to)\b|\b(?:some|many|they|people|others)\s+"
    r"(?:people\s+)?(?:say|said|believe|believed|think|claim|argue|suggest)\b|"
    r"\b(?:it\s+is|it's)\s+(?:not\s+true|false|a\s+myth|untrue)\b|\bmyths?\b|\brumou?rs?\b|"
    r"\bmisconceptions?\b|\b(?:falsely|wrongly|erroneously)\b|\bcontrary\s+to\b|"
    r"\b(?:allegedly|supposedly|so-called|purported(?:ly)?)\b|\bhoax\b|[\"“][^\"”]{12,}[\"”]",
    re.IGNORECASE,
)


def reports_a_claim(page_sentence: str) -> bool:
    """Whether a page sentence reports a claim (to refute it) instead of stating a fact, or
    asks a question."""
    text = page_sentence.rstrip("\"'”’)]» ")
    return text.endswith("?") or bool(_REPORTED_CLAIM.search(page_sentence))


def same_page(url: str, known: list[str]) -> str:
    """The URL of `known` that names the same page as `url` in another spelling (`page_key`),
    or `url` itself."""
    if url in known:
        return url
    key = page_key(url)
    return next((k for k in known if page_key(k) == key), url)


def ends_a_sentence(text: str) -> bool:
    return text.rstrip("\"'”’)]»").endswith((".", "!", "?", "…", "。"))


def _whole(sentence: str, prose: str, provenance: Provenance) -> bool:
    """Whether a last sentence lacking its full stop is whole: the prose is under every grammar
    cap (nothing stopped it) and it ends on a whole word (one a page read uses, or a common
    one: "meas" is the start of "measles") a sentence can end on."""
    last = last_word(sentence)
    return (
        len(prose) < _UNDER_ANY_CAP
        and last not in _DANGLING
        and bool(re.search(r"[^\W_]\W*$", sentence))
        and (last in provenance.words or zipf(last) >= 3.0)
    )


# Words a note uses to judge a claim, not to state a fact: no page need use them.
_JUDGING_STEMS = frozenset(
    stem(w)
    for w in """accuracy accurate claim claimed claims context contrary correct credible debunk
    debunked evidence factual false falsely mention mentioned misleading myth myths proof proven
    quote quoted quotes reliable reputable science scientific stated statement studies study
    suggest suggests support supported unfounded unproven unsupported verified true untrue
    incorrect wrong inaccurate""".split()
)


def _states_nothing(sentence: str) -> bool:
    """A verdict, no fact ("This is a misleading statement.", "The post is correct."): no key
    term but the words a note judges a claim with, no number, and fewer than
    `_PLAIN_FACT_WORDS` other words of its own (function words aside). "Study found it was
    only 4%" and "he made it public on social media, not on TV" state facts in everyday words
    (on the cost corpus the verdict-only rule alone refused 21 honest verdicts when only a key
    term was a fact, 14 with this)."""
    if key_stems(sentence) - _JUDGING_STEMS or numbers(sentence):
        return False
    plain = {
        stem(w) for w in content_words(sentence) if w.isalpha() and w not in _FUNCTION_WORDS
    } - _JUDGING_STEMS
    return len(plain) < _PLAIN_FACT_WORDS


# Words of four or more letters that carry no fact of their own.
_FUNCTION_WORDS = frozenset(
    """that this these those there their them they then than what when which while where
    whom whose with without within from into onto upon about above below after before again
    against among between during through until does have been being were would could should
    shall will must might also however therefore thus hence even ever only just very much
    many more most some such other each every both either neither none nothing anything
    something said says here well still already""".split()
)
_PLAIN_FACT_WORDS = 3


# A sentence that opens by giving its claim to someone: "The BMJ states that …", "According to
# the World Health Organization, …". A bare "Normally, …" gives nothing to anyone: the comma
# form needs "According to".
_NAME = r"[A-Z][\w&.'’-]*(?:\s+(?:of\s+|for\s+)?[A-Z][\w&.'’-]*){0,5}"
_ATTRIBUTION = re.compile(
    rf"^(?:According\s+to\s+(?:[Tt]he\s+)?(?P<source>{_NAME})\s*,|(?:[Tt]he\s+)?(?P<who>{_NAME})"
    r"\s+(?:also\s+)?(?:states?|stated|says|said|notes?|noted|reports?|reported|finds?|found|"
    r"conclude[sd]?|recommends?|recommended|warns?|warned|shows?|showed|confirms?|confirmed|"
    r"writes?|wrote|advises?|advised)\b)"
)


# A word at least this common is no one's name: "Health", "Normally".
_NAME_ZIPF = 4.8


def _a_name(word: str) -> bool:
    """A capitalised word that names someone: an acronym (CDC, WHO, BMJ) or a word rarer than
    everyday English that is no plural (Pfizer, Wakefield) — not "Health", nor a group
    ("Researchers", "Pediatricians", "Epidemiologists"), which no page has to name."""
    if len(word) >= 2 and word.isupper():
        return True
    return not everyday(word.lower(), _NAME_ZIPF) and not word.lower().endswith("s")
