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
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from pipeline.actions import SupportedClaim, Write
from pipeline.brief import VerificationBrief
from pipeline.claim_stance import (
    JUDGING_STEMS,
    denies_a_claim,
    reports_a_claim,
    states_nothing,
    without_named_claims,
)
from pipeline.draft_rules import RULES, Draft
from pipeline.evidence import Evidence, SupportVerdicts
from pipeline.findings import Finding, RuleId
from pipeline.lexicon import (
    ANY_WORD,
    TOPIC_TERM_ZIPF,
    a_run_of,
    clauses,
    content_words,
    copies_a_run,
    ends_a_sentence,
    everyday,
    key_stems,
    last_word,
    negated,
    numbers,
    page_sentences,
    spelt_as_one_of,
    spelt_out_acronyms,
    stem,
    stems,
    zipf,
)
from pipeline.note_text import (
    NOTE_CHAR_LIMIT,
    assemble_note,
    find_urls,
    split_sentences,
)
from pipeline.ports import ChatMessage
from pipeline.post import Post
from pipeline.prompts import EXAMPLE_NOTE_SENTENCE, support_messages
from pipeline.source_quality import STANDING_TIER, source_tier, vouches
from pipeline.text_policy import Provenance, orders_to_people
from pipeline.urls import page_key

# Content words (4+ letters) in a row a note may not take from the post: a note answers the
# post, it does not repeat it (human notes copy at most 4 words of any length).
COPIED_RUN = 7
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


class Verdict(StrEnum):
    """What the writing step decides of a draft without a model call."""

    PUBLISHED_BY_CODE = "published_by_code"
    TO_MODEL = "to_model"
    REFUSED = "refused"


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
            # a page the post or its requesters named, below a source of standing, may be read
            # to understand the claim; its words vouch for nothing (the attacker's own page
            # gave notes its phone number)
            vouching = [self.evidence[u] for u in self.vouching(self.evidence)]
            read = [t for e in vouching for t in (e.title, e.excerpt, *e.quotes)]
            self._provenance = key, Provenance(key[0], "\n".join(read), key[1])
        return self._provenance[1]

    def vouching(self, urls: Iterable[str]) -> list[str]:
        """The URLs among `urls` of pages read that may vouch for a note's words: every page
        read but one the post or its requesters named (`named`)."""
        return [u for u in urls if u in self.evidence and not self.named(u)]

    def named(self, url: str) -> bool:
        """Whether a page read is one the post or its requesters named (in any spelling) and
        below `STANDING_TIER`: the attacker's own page, not the WHO page a post misquotes,
        which a note may well cite for what it really says."""
        return same_page(url, self.post_links) in self.post_links and (
            source_tier(url) < STANDING_TIER
        )

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
                return CodeDecision(Verdict.REFUSED, action, tuple(findings))
            action, repaired = fixed, True
        verdict = Verdict.PUBLISHED_BY_CODE if self.quotes_bear_out(action) else Verdict.TO_MODEL
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
            if not cited or not (missing := self._ungrounded(sentence, cited)[0]):
                continue
            page = next(
                (
                    u
                    for u, e in self.evidence.items()
                    if u not in cited
                    and self.of_standing(u)
                    and self.about_the_claims(u)
                    and set(missing) <= _terms_read(e)
                ),
                None,
            )
            if page is not None:
                support.append(SupportedClaim(claim=sentence[:400], url=page))
        return action.model_copy(update={"support": support})

    def of_standing(self, url: str) -> bool:
        """Whether code may cite a page read on its own: a source of standing
        (`vouches`) that neither the post nor its requesters named. An
        attacker's page read from the results, the post's link or a suggested source would
        otherwise vouch for its own words (the trust issue: code added one as a second
        source)."""
        return vouches(url, self.post_links)

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
        if any(f.sentence and f.rule not in droppable for f in findings):
            return None  # a sentence that shows the writer off its pages: the draft goes back
        dropped = {f.sentence for f in findings if f.rule in droppable and f.sentence}
        if 1 in dropped and not states_nothing(sentences[0]):
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
        if len(kept) < len(sentences) and _a_remnant(kept):
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
        if 1 in unsupported and not states_nothing(sentences[0]):
            return None
        if not unsupported or len(unsupported) >= len(sentences):
            return None
        kept = [s for i, s in enumerate(sentences, start=1) if i not in unsupported]
        if _a_remnant(kept):
            return None
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

    def unsourced_order(self, sentence: str, cited: list[str] | tuple[str, ...]) -> str | None:
        """The verb of an order to people (`orders_to_people`) that no page the sentence cites
        uses, in any form ("stop" where no cited page says "stop"), else None. A page the post
        named (`named`) gives no order: the attacker's own page says what it wants said."""
        read = frozenset().union(*(_terms_read(self.evidence[u]) for u in self.vouching(cited)))
        return next((v for v in orders_to_people(sentence) if stem(v) not in read), None)

    def ungrounded_terms(self, sentence: str, cited: list[str] | tuple[str, ...]) -> list[str]:
        """The key terms of the post or its claims that a sentence speaks of and none of the
        pages it cites (as read: title, excerpt, quotes) uses, in any form of the word: what
        the sentence says of them, no page read says in those words. The words a note judges a
        claim with ('evidence', 'misleading', 'studies') are not counted. Each is marked for
        the model's support check (`unused_terms`); code refuses only `added_terms`."""
        return sorted(self._ungrounded(sentence, cited)[0].values())

    def added_terms(self, sentence: str, cited: list[str] | tuple[str, ...]) -> list[str]:
        """The `ungrounded_terms` code refuses: a name no cited page uses ("The Malaria in
        Florida post is about …", the real model's, published), or any of them in a sentence
        that says nothing the post does not (`restates_the_post`: "Tylenol is not great for
        your liver." citing a page on Tylenol that never mentions the liver, the real model's,
        passed by its own check with the term marked) — when at most half of the claims'
        terms it names are missing from its pages (a sentence missing most of them is worded
        otherwise than its pages: "alkaline water" where a translated page says "basic water").
        Every other ungrounded term is marked for the model's support check: what a sentence
        says beyond its post, in words its held pages lack, is a question of meaning.

        Measured (`bench.rules`, fifth round): refusing an added term wherever a clause took
        under 3 words from its pages cost 30 honest verdicts by itself (HealthFC's own
        verdicts name the question's "vertebral", "toothpaste", "preterm", which its five key
        sentences lack) and caught 4 bad drafts no other rule did; those 4 are now caught as
        restatements of the post or as drafts a sentence shows off their pages (the prompts'
        example, a sentence about the draft: not droppable), and the rule costs 3.

        A clause that denies a claim (`denies_a_claim`: "Coronavirus is not a hoax.") names
        its terms to deny them, as "There is no evidence that …" does: the model's check
        judges it. Only that clause's terms: a hostile model put "evil . com" into the claims
        and appended "evil. com has it." to a sentence that denied the claim
        (tests/system/test_hostile_model)."""
        missing, named = self._ungrounded(sentence, cited)
        if not missing or 2 * len(missing) > len(named):
            return []
        claims = [*self.claims(), self.post.text]
        denied = {
            term
            for clause in clauses(sentence)
            if clause.strip() and denies_a_claim(clause, claims)
            for term in stems(clause)
        }
        restated = self.restates_the_post(sentence)
        return sorted(
            word
            for term, word in missing.items()
            if term not in denied and (restated or _named(word, sentence))
        )

    def _read_on_the_claims(self, cited: list[str] | tuple[str, ...]) -> frozenset[str]:
        """Every term the cited pages on the claims' topic use (`_terms_read`); none when no
        cited page is on it."""
        pages = [e for u in cited if (e := self.evidence.get(u)) and self.about_the_claims(u)]
        return frozenset().union(*(_terms_read(e) for e in pages))

    def _ungrounded(
        self, sentence: str, cited: list[str] | tuple[str, ...]
    ) -> tuple[dict[str, str], set[str]]:
        """`ungrounded_terms` as {stem: the sentence's word}, and the claims' terms (stems)
        the sentence names."""
        read = self._read_on_the_claims(cited)
        if not read:
            return {}, set()  # no page on the claims to judge by: the citation checks refuse it
        named = (key_stems(without_named_claims(sentence)) & self.claim_stems()) - JUDGING_STEMS
        # a term spelt one letter otherwise is the page's word ("oestrogen" for "estrogen")
        missing = {t for t in named - read if not spelt_as_one_of(t, read)}
        words = {stem(w.lower()): w for w in ANY_WORD.findall(sentence)}
        return {t: words.get(t, t) for t in missing}, named

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
        said = stems(sentence) - JUDGING_STEMS
        if len(said) < 2:
            return False
        return any(
            said <= stems(claim) and negated(sentence) == negated(claim)
            for claim in (*self.claims(), self.post.text)
        )

    def restates_the_post(self, sentence: str) -> bool:
        """Whether every content word of the sentence (judging words aside) is the post's: it
        says nothing the post does not, in the post's words. The post's own words, not the
        brief's claims: the real 1.5B model wrote its answer as the claim ("Turmeric is not a
        known cancer treatment or prevention agent.") and then that answer as its note."""
        return stems(sentence) - JUDGING_STEMS <= stems(self.post.all_text())

    def claim_stems(self) -> set[str]:
        """The key terms (stems) of the post and the claims checked."""
        return key_stems(" ".join([self.post.all_text(), *self.claims()]))

    def topic(self) -> set[str]:
        """The topic terms (stems) of the post and the claims; when they have none (a claim in
        everyday words), their content words."""
        text = " ".join([self.post.all_text(), *self.claims()])
        return key_stems(text, TOPIC_TERM_ZIPF) or stems(text) - JUDGING_STEMS

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
        # a page the post named vouches for nothing (`named`): not even code's comparison
        cited = self.vouching(action.cited_urls())
        page_sentences_cited = [s for s in self.sentences_of(cited) if not reports_a_claim(s)]
        borne: set[int] = set()
        for i, sentence in enumerate(split_sentences(action.text), start=1):
            words = stems(sentence)
            if len(words) < 2 or self.restates_a_claim(sentence):
                continue
            quotes = [
                quote
                for s in action.support
                if s.url.strip() in cited
                and (quote := self.verbatim_quote(s.url.strip(), s.quote))
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

    def support_request(
        self, action: Write, mark_unused: bool = True
    ) -> tuple[list[str], list[ChatMessage]]:
        """The draft's sentences, and the messages asking the model whether each is borne out
        by the sources cited for it; each sentence marked with the claims' words it speaks of
        that none of them uses (`unused_terms`), the one question code cannot answer.
        `mark_unused=False` is the prompt before that marking, for the benchmark's comparison."""
        sentences = split_sentences(action.text)
        support = self.cited_for_each(action)
        unused = self.unused_terms(action, support) if mark_unused else {}
        # the check judges by the pages that may vouch: never one the post named (`named`)
        sources = [self.evidence[u] for u in self.vouching(action.cited_urls())]
        return sentences, support_messages(self.post, sentences, support, sources, unused)

    def cited_for_each(self, action: Write) -> dict[int, list[str]]:
        """Each sentence's (1-based) sources: those whose supported claim shares two content
        words with it; none means the draft's sources as a whole."""
        cited: dict[int, list[str]] = {}
        for i, sentence in enumerate(split_sentences(action.text), start=1):
            words = content_words(sentence)
            cited[i] = [
                s.url.strip()
                for s in action.support
                if len(words & content_words(s.claim)) >= 2 and not self.named(s.url.strip())
            ]
        return cited

    def unused_terms(self, action: Write, cited: dict[int, list[str]]) -> dict[int, list[str]]:
        """For each sentence that has them, its `ungrounded_terms` by its own sources (`cited`:
        `cited_for_each`)."""
        every = action.cited_urls()
        found = {
            i: self.ungrounded_terms(sentence, cited[i] or every)
            for i, sentence in enumerate(split_sentences(action.text), start=1)
        }
        return {i: terms for i, terms in found.items() if terms}


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


def _a_remnant(kept: list[str]) -> bool:
    """What repair left of a draft states nothing but a verdict ("This is misleading."): the
    facts it judged were dropped, so the draft goes back to the writer instead."""
    return all(states_nothing(s) for s in kept)


def _as_read(page: Evidence) -> str:
    """What was read of a page: its title, excerpt and quotes."""
    return " ".join([page.title, page.excerpt, *page.quotes])


def _terms_read(page: Evidence) -> frozenset[str]:
    """Every term a page read uses, as the rules compare them: the stems of its words, and
    its words and acronyms as written, lower-cased (its address names it too: "FDA" is on
    fda.gov's page), each two words joined ("Corona virus" says "coronavirus"), and the
    acronyms it spells out ("United States" says "US": `spelt_out_acronyms`)."""
    return _terms_of(" ".join([page.url, _as_read(page)]))


@functools.lru_cache(maxsize=256)
def _terms_of(text: str) -> frozenset[str]:
    # cached: a draft's checks and repairs ask of the same pages read many times over
    words = [w.lower() for w in ANY_WORD.findall(text)]
    joined = {stem(a + b) for a, b in itertools.pairwise(words)}
    return frozenset(stems(text) | set(words) | joined | spelt_out_acronyms(text))


def _bears_out(sentence: str, quotes: list[str]) -> bool:
    """The quotes together hold every content word (stem) and number of the sentence, and one
    of them is negated as the sentence is (or none is)."""
    said = " ".join(quotes)
    return (
        stems(sentence) <= stems(said)
        and numbers(sentence) <= numbers(said)
        and any(negated(q) == negated(sentence) for q in quotes)
    )


def same_page(url: str, known: list[str]) -> str:
    """The URL of `known` that names the same page as `url` in another spelling (`page_key`),
    or `url` itself."""
    if url in known:
        return url
    key = page_key(url)
    return next((k for k in known if page_key(k) == key), url)


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


def _named(word: str, sentence: str) -> bool:
    """Whether a word of the sentence is a name: capitalised where a sentence does not start,
    and a name by `_a_name` ("Florida", "WHO"; not "Rising" opening a sentence)."""
    return word[:1].isupper() and not sentence.lstrip().startswith(word) and _a_name(word)


def _a_name(word: str) -> bool:
    """A capitalised word that names someone: an acronym (CDC, WHO, BMJ) or a word rarer than
    everyday English that is no plural (Pfizer, Wakefield) — not "Health", nor a group
    ("Researchers", "Pediatricians", "Epidemiologists"), which no page has to name."""
    if len(word) >= 2 and word.isupper():
        return True
    return not everyday(word.lower(), _NAME_ZIPF) and not word.lower().endswith("s")
