"""The checks a drafted note must pass before anyone sees it, and the repairs code may make.

Code disposes: whatever the model wrote, a note cites only pages read and on the claims'
topic, is made of their words (`pipeline.text_policy`), answers the post instead of copying
it, gives a claim to no one its pages do not name, ends with a full sentence and fits X's
limit. Repairs only remove (sentences, foreign links, sources not read). The same checks serve
a draft in an episode and a revision asked for later (`pipeline.revision`).
"""

from __future__ import annotations

import functools
import re

from wordfreq import zipf_frequency

from pipeline.actions import SupportedClaim, Write
from pipeline.brief import VerificationBrief
from pipeline.evidence import Evidence, SupportVerdicts
from pipeline.excerpt import page_sentences
from pipeline.note_text import (
    NOTE_CHAR_LIMIT,
    assemble_note,
    find_urls,
    prose_problems,
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
    r"notes?\s+(?:should|must|could|would|needs?|has\s+to|will|can|is|does)\b",
    re.IGNORECASE,
)
# A sentence about the evidence instead of the fact: asked to word a note from numbered
# sentences, the real model wrote "The sentences from the pages read support the claim that
# vaccines cause autism, …" (refused only because it was cut off).
_ABOUT_THE_EVIDENCE = re.compile(
    r"^(?:the|these|those)\s+(?:numbered\s+|given\s+)?(?:sentences|pages(?:\s+read)?|"
    r"sources\s+(?:read|cited|given|shown))\b"
    # anywhere: "…, as stated in sentence 1 of the pages read." (a real focused answer)
    r"|\bsentences?\s+\d+\s+of\s+the\b|\bthe\s+pages\s+read\b",
    re.IGNORECASE,
)

# Content words (4+ letters) in a row a note may not take from the post: a note answers the
# post, it does not repeat it (human notes copy at most 4 words of any length).
COPIED_RUN = 7
# Fewer words say nothing a reader can use (a real note was cut down to "Dr.").
MIN_NOTE_WORDS = 4


class DraftChecks:
    """The checks against one post and the pages read for it. `evidence` is the episode's own
    dict (pages are added while it runs); `brief` is set once the claims are analysed."""

    def __init__(
        self,
        post: Post,
        evidence: dict[str, Evidence],
        brief: VerificationBrief | None = None,
        post_links: list[str] | None = None,
    ) -> None:
        self.post = post
        self.evidence = evidence
        self.brief = brief
        self.post_links = (
            post_links if post_links is not None else list(dict.fromkeys(post.all_links()))
        )
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

    def problems(self, action: Write) -> list[str]:
        """Why the draft may not be published, by code: unread or off-topic sources, the text
        policy, copying the post, unsourced attribution, a cut sentence, the length. Empty
        when it passes."""
        problems: list[str] = []
        urls = action.cited_urls()
        unread = [u for u in urls if u not in self.evidence]
        if unread:
            # a weak model cited the post's own link three times over: the pages it may cite
            # are named, which a "not read" alone never taught it
            problems.append(
                "These sources were not read successfully and cannot be cited: "
                + ", ".join(unread)
                + ". Cite pages read: "
                + ", ".join(list(self.evidence)[:4])
                + "."
            )
        note = assemble_note(action.text, [u for u in urls if u in self.evidence])
        problems.extend(prose_problems(action.text, self.provenance()))
        cited = [u for u in urls if u in self.evidence]
        said: dict[str, int] = {}
        for i, sentence in enumerate(split_sentences(action.text), start=1):
            if (first := said.setdefault(_said(sentence), i)) != i:
                problems.append(f"Say each thing once: sentence {i} repeats sentence {first}.")
            if _a_question(sentence):
                problems.append(f"State facts: sentence {i} is a question.")
            if _ABOUT_THE_NOTE.match(sentence) or _ABOUT_THE_EVIDENCE.search(sentence):
                problems.append(
                    f"Write the note itself: sentence {i} is about the note or its sources, "
                    "not the post. The prose is what readers see: state the facts; say what "
                    "you change in the thought."
                )
            if self.repeats_the_example(sentence):
                problems.append(
                    f"Write from the pages read: sentence {i} repeats the example in your "
                    "instructions, which no page read says."
                )
            if self.repeats_the_post(sentence):
                problems.append(
                    f"Answer the post, do not repeat it: sentence {i} copies the post's words. "
                    "Say what the sources read say, in your own words."
                )
            if (who := self.unsourced_attribution(sentence, cited)) is not None:
                problems.append(
                    f"Sentence {i} gives its claim to '{who}', which no page it cites "
                    "mentions: say only what the cited pages say, and who says it."
                )
            if ungrounded := self.ungrounded_terms(sentence, cited):
                problems.append(
                    f"Say only what the cited pages say: sentence {i} speaks of "
                    + ", ".join(f"'{t}'" for t in ungrounded)
                    + ", which none of them uses."
                )
        off_topic = [u for u in urls if u in self.evidence and not self.about_the_claims(u)]
        if off_topic:
            problems.append(
                "These pages share no key term with the claims and cannot support the note: "
                + ", ".join(off_topic)
                + "."
            )
        if not note.urls and not unread:
            problems.append("Cite at least one page you have read.")
        prose = note.text.split("\n\n")[0].strip()
        if not prose:
            problems.append("The note has no prose.")
        elif len(_ANY_WORD.findall(prose)) < MIN_NOTE_WORDS:
            problems.append("Too short to be a note: write at least one full sentence.")
        elif not ends_a_sentence(prose):
            problems.append("The last sentence is cut off: end the note with a full sentence.")
        if note.length > NOTE_CHAR_LIMIT:
            problems.append(
                f"The note is {note.length} characters (each URL counts as one); "
                f"the limit is {NOTE_CHAR_LIMIT}: shorten the prose by at least "
                f"{note.length - NOTE_CHAR_LIMIT}."
            )
        return problems

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
            if not cited or not (missing := self.ungrounded_terms(sentence, cited)):
                continue
            wanted = {w[:6] for w in missing}
            page = next(
                (
                    u
                    for u, e in self.evidence.items()
                    if u not in cited
                    and self.about_the_claims(u)
                    and wanted <= key_stems(_as_read(e))
                ),
                None,
            )
            if page is not None:
                support.append(SupportedClaim(claim=sentence[:400], url=page))
        return action.model_copy(update={"support": support})

    def repaired_by_code(self, action: Write) -> Write | None:
        """The draft with sentences removed, when that alone makes it pass every check: code
        removes, it never adds. In order: the post's links and unread URLs in the prose, the
        sources cited that were not read or are off the claims' topic (while a sound one
        remains), the sentences the text policy refuses (a payload appended to a sound note),
        a last sentence cut off mid-way (a grammar's `maxLength`
        stops strings there), then trailing sentences while the note is over the limit (the
        first, the main correction, always stays). None when nothing would remain or another
        check still fails."""
        provenance = self.provenance()
        text = self.without_foreign_links(action.text)
        sentences = split_sentences(text)
        cited = [u for u in action.cited_urls() if u in self.evidence]
        kept = [
            s
            for i, s in enumerate(sentences)
            if _said(s) not in {_said(t) for t in sentences[:i]}
            and not _a_question(s)
            and not self.repeats_the_post(s)
            and not self.repeats_the_example(s)
            and self.unsourced_attribution(s, cited) is None
            and not self.ungrounded_terms(s, cited)
            and not prose_problems(s, provenance)
        ]
        if len(kept) > 1 and not ends_a_sentence(kept[-1]):
            kept = kept[:-1]
        urls = [u for u in action.cited_urls() if u in self.evidence]
        while len(kept) > 1 and assemble_note(" ".join(kept), urls).length > NOTE_CHAR_LIMIT:
            kept = kept[:-1]
        # Sources not read (the post's own t.co link, seen cited with the real model) or off
        # the claims' topic are dropped while a read one on topic remains: the support check
        # then judges what is left.
        support = [
            c for c in action.support if c.url in self.evidence and self.about_the_claims(c.url)
        ] or action.support
        if not kept or (kept == sentences and text == action.text and support == action.support):
            return None
        repaired = action.model_copy(update={"text": " ".join(kept), "support": support})
        return repaired if not self.problems(repaired) else None

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
        return shorter if not self.problems(shorter) else None

    def unsourced_attribution(self, sentence: str, cited: list[str]) -> str | None:
        """The name a sentence gives its claim to ("The BMJ states that …", "According to the
        WHO, …") when none of the pages it cites mentions it (their title, text read or
        address), else None. Seen with the real model: "The BMJ states that the link … is a
        controversial topic", citing a CDC page that never names the BMJ, passed by its own
        support check."""
        match = _ATTRIBUTION.match(sentence)
        if match is None:
            return None
        words = [w.strip(".,'’") for w in match["who"].split()]
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

    def ungrounded_terms(self, sentence: str, cited: list[str]) -> list[str]:
        """The key terms of the post or its claims that a sentence speaks of and none of the
        pages it cites (as read: title, excerpt, quotes) uses: what the sentence says of them,
        no page read says. The words a note judges a claim with ('evidence', 'misleading',
        'studies') are not counted; new words of its own are the text policy's to judge (an
        honest paraphrase has them). Seen with the real model, each passed by its own support
        check and published: "The standard practice for refilling prescriptions is …" citing
        a page that never mentions refills, "Tylenol is not great for your liver" citing one
        that never mentions the liver."""
        pages = [e for u in cited if (e := self.evidence.get(u)) and self.about_the_claims(u)]
        if not pages:
            return []  # no page on the claims to judge by: the citation checks refuse it
        read = key_stems(" ".join(_as_read(e) for e in pages))
        claims = self.claim_stems()
        missing = (key_stems(sentence) & claims) - read - _JUDGING_WORDS
        words = {w[:6]: w for w in sorted(content_words(sentence), key=len, reverse=True)}
        return [words.get(t, t) for t in sorted(missing)]

    def repeats_the_example(self, sentence: str) -> bool:
        """Five content words in a row of the prompts' example sentence, in a note on another
        topic (the example shares no key term with the post and its claims) that no page read
        says them for. On a post about the MMR vaccine and autism the sentence is on topic, and
        the support check judges it like any other."""
        if not _copies_a_run(sentence, EXAMPLE_NOTE_SENTENCE, 5):
            return False
        claims = self.claim_stems()
        if not claims.isdisjoint(key_stems(EXAMPLE_NOTE_SENTENCE)):
            return False
        return not _copies_a_run(sentence, self.provenance().read, 5)

    def repeats_the_post(self, sentence: str) -> bool:
        """`COPIED_RUN` content words in a row straight from the post, or a whole sentence of
        it: the real model published the post's false claim word for word as its note, and
        its own support check passed it. No human note of 40 copies more than 4 words in a row
        from its post, nor a whole sentence."""
        post = self.post.all_text()
        return _copies_a_run(sentence, post) or _a_run_of(sentence, post)

    def claim_stems(self) -> set[str]:
        """The key terms (stems) of the post and the claims checked."""
        return key_stems(" ".join([self.post.all_text(), *self.claims()]))

    def about_the_claims(self, url: str) -> bool:
        """Whether a read page is about the claims at all: it shares a key term (a word rarer
        than everyday English, stemmed) with the post and its claims, in its title, excerpt or
        quotes. Caught before the model's own support check, which passed pages on Sydenham
        chorea for a claim about autism."""
        page = self.evidence[url]
        claims = self.claim_stems()
        return not claims.isdisjoint(key_stems(_as_read(page)))

    def quotes_bear_out(self, action: Write) -> bool:
        """Every sentence is borne out by code (`borne_out_by_code`): no model call needed."""
        return len(self.borne_out_by_code(action)) == len(split_sentences(action.text))

    def borne_out_by_code(self, action: Write) -> set[int]:
        """The sentences (1-based) borne out by their quotes: each verbatim on its page (its
        quotes or excerpt), the model's or, failing those, one sentence of a cited page,
        holding every content word (stem) and number of the sentence, negated as the sentence
        is (or neither). The model checks the others, and its verdict does not overrule
        these: a lexical test may pass only a sentence made of its sources' words, since one
        swapped word ("autism" for "measles") changes the claim."""
        cited = [u for u in action.cited_urls() if u in self.evidence]
        page_sentences_cited = self.sentences_of(cited)
        borne: set[int] = set()
        for i, sentence in enumerate(split_sentences(action.text), start=1):
            words = _stems(sentence)
            quotes = [
                quote
                for s in action.support
                if (quote := self.verbatim_quote(s.url.strip(), s.quote)) and words & _stems(quote)
            ]
            if len(words) >= 2 and (
                _bears_out(sentence, quotes)
                or any(_bears_out(sentence, [s]) for s in page_sentences_cited)
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


def support_problems(
    sentences: list[str], verdicts: SupportVerdicts, borne_out: set[int] | None = None
) -> tuple[list[str], set[int]]:
    """What the model's verdicts refuse: the feedback, and the sentences (1-based) not
    supported; a sentence without a verdict is not supported, and one code bore out
    (`borne_out`) is (seen with the real model: "The FDA has not approved Ivermectin for
    COVID-19.", its page's own words, refused for quoting another sentence)."""
    by_index = {v.index: v for v in verdicts.verdicts}
    problems, unsupported = [], set()
    for i, sentence in enumerate(sentences, start=1):
        if i in (borne_out or set()):
            continue
        verdict = by_index.get(i)
        if verdict is None:
            unsupported.add(i)
            problems.append(f"Sentence {i} ('{sentence[:80]}') was not checked.")
        elif not verdict.supported:
            unsupported.add(i)
            problems.append(
                f"Sentence {i} ('{sentence[:80]}') is not supported by its "
                f"sources: {verdict.problem or 'no reason given'}."
            )
    return problems, unsupported


# What a rejected draft got wrong, for the moderator's card: the model's feedback names the
# refused tokens and quotes sentences, which are untrusted text and stay in the trajectory.
# (prefix of the feedback, the kind, whether it is about what the draft said: only those are
# shown; its form is code's to repair or the model's, in the trajectory)
_SUPPORT_KIND = "made claims its sources do not bear out"
_PROBLEM_KINDS = (
    ("Use only common words", "held words, links or numbers that no page read uses", True),
    ("Rewrite a sentence", "addressed its readers, raters or the system", True),
    ("Answer the post", "repeated the post's own words instead of answering them", True),
    ("Write the note itself", "wrote about the note instead of the note", True),
    ("Write from the pages read", "repeated the instructions' example", True),
    ("These pages share no key term", "cited pages that share no key term with the claims", True),
    ("These sources were not read", "cited pages that were not read", False),
    ("Write words, not addresses", "held a token X would check as a link", False),
    ("Say each thing once", "repeated a sentence", False),
    ("State facts", "asked a question", False),
    ("The note is", f"was over {NOTE_CHAR_LIMIT} characters", False),
    ("Search at least", "came before enough searching", False),
    ("Read at least", "came before enough reading", False),
    ("Cite at least", "cited no page read", False),
    ("The note has no prose", "had no prose", False),
    ("Too short to be a note", "was too short to say anything", False),
    ("The last sentence is cut off", "ended mid-sentence", False),
)
CONTENT_KINDS = {_SUPPORT_KIND, *(kind for _, kind, said in _PROBLEM_KINDS if said)}


def _as_read(page: Evidence) -> str:
    """What was read of a page: its title, excerpt and quotes."""
    return " ".join([page.title, page.excerpt, *page.quotes])


def _bears_out(sentence: str, quotes: list[str]) -> bool:
    """The quotes together hold every content word (stem) and number of the sentence, and one
    of them is negated as the sentence is (or none is)."""
    said = " ".join(quotes)
    return (
        _stems(sentence) <= _stems(said)
        and set(_NUMBER.findall(sentence)) <= set(_NUMBER.findall(said))
        and any(bool(_NEGATION.search(q)) == bool(_NEGATION.search(sentence)) for q in quotes)
    )


def same_page(url: str, known: list[str]) -> str:
    """The URL of `known` that names the same page as `url` in another spelling (`page_key`),
    or `url` itself."""
    if url in known:
        return url
    key = page_key(url)
    return next((k for k in known if page_key(k) == key), url)


def ends_a_sentence(text: str) -> bool:
    return text.rstrip("\"'”’)]»").endswith((".", "!", "?", "…", "。"))


def problem_kind(problem: str) -> str:
    kind = next((kind for prefix, kind, _ in _PROBLEM_KINDS if problem.startswith(prefix)), None)
    return kind or _SUPPORT_KIND


_WORD = re.compile(r"[^\W_]{4,}", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_NEGATION = re.compile(r"\b(?:no|not|never|none|nor|without|neither|cannot)\b|n't\b", re.I)


# Stems of the words a note uses to judge a claim, not to state a fact: no page need use them.
_JUDGING_WORDS = frozenset(
    {
        "accura", "claim", "claime", "claims", "contex", "contra", "correc", "credib",
        "debunk", "eviden", "factua", "false", "falsel", "mentio", "mislea", "myth", "myths",
        "proof", "proven", "quote", "quoted", "quotes", "reliab", "reputa", "scient", "stated",
        "statem", "studie", "sugges", "suppor", "unfoun", "unprov", "unsupp", "verifi",
    }
)  # fmt: skip


def _states_nothing(sentence: str) -> bool:
    """A sentence with no key term but the words a note judges a claim with: a verdict, no
    fact ("This is a misleading statement.")."""
    return not key_stems(sentence) - _JUDGING_WORDS


def _a_question(sentence: str) -> bool:
    """A question is no fact: the real model published a page's headings ("What is (are)
    Quitting Smoking for Older Adults?") as sentences of its note, quoted verbatim."""
    return sentence.rstrip("\"'”’)]»").endswith("?")


def _said(sentence: str) -> str:
    """A sentence as said, whatever its case and spacing: the real model published one
    sentence three times over as a note."""
    return " ".join(sentence.lower().split())


def _stems(text: str) -> set[str]:
    """Content words cut to six letters: 'preventing' and 'prevent' count as one."""
    return {w[:6] for w in content_words(text)}


def key_stems(text: str) -> set[str]:
    """Words of 4+ letters rarer than everyday English (wordfreq's Zipf < 4.8: 'autism',
    'vaccine', 'measles', not 'people' or 'found'), cut to six letters."""
    return {w[:6] for w in content_words(text) if w.isalpha() and not _everyday(w)}


@functools.lru_cache(maxsize=65_536)
def _everyday(word: str) -> bool:
    return zipf_frequency(word, "en") >= 4.8


# A sentence that opens by giving its claim to someone: "The BMJ states that …", "According to
# the World Health Organization, …".
_ATTRIBUTION = re.compile(
    r"^(?:According\s+to\s+)?(?:[Tt]he\s+)?(?P<who>[A-Z][\w&.'’-]*(?:\s+(?:of\s+|for\s+)?"
    r"[A-Z][\w&.'’-]*){0,5})(?:,|\s+(?:also\s+)?(?:states?|stated|says|said|notes?|noted|"
    r"reports?|reported|finds?|found|conclude[sd]?|recommends?|recommended|warns?|warned|"
    r"shows?|showed|confirms?|confirmed|writes?|wrote|advises?|advised)\b)"
)


def _a_name(word: str) -> bool:
    """A capitalised word that names someone: an acronym (CDC, WHO, BMJ) or a word rarer than
    everyday English that is no plural (Pfizer, Wakefield) — not "Health", nor a group
    ("Researchers", "Pediatricians", "Epidemiologists"), which no page has to name."""
    if len(word) >= 2 and word.isupper():
        return True
    return not _everyday(word.lower()) and not word.lower().endswith("s")


_ANY_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def _a_run_of(sentence: str, source: str) -> bool:
    """Whether the whole sentence, every word in order, is a run of `source`'s words: a short
    sentence the content-word run misses ("Vaccines cause autism.", which the real model
    published as its note on that post, and its own check passed). Short words count, so
    "Vaccines do not cause autism." is no copy of it."""
    ours = [w.lower() for w in _ANY_WORD.findall(sentence)]
    theirs = [w.lower() for w in _ANY_WORD.findall(source)]
    n = len(ours)
    return n >= 3 and any(theirs[i : i + n] == ours for i in range(len(theirs) - n + 1))


def _copies_a_run(text: str, source: str, run: int = COPIED_RUN) -> bool:
    """Whether `text` has `run` content words in a row as `source` has them."""
    theirs = [w.lower() for w in _WORD.findall(source)]
    runs = {tuple(theirs[i : i + run]) for i in range(len(theirs) - run + 1)}
    ours = [w.lower() for w in _WORD.findall(text)]
    return any(tuple(ours[i : i + run]) in runs for i in range(len(ours) - run + 1))


def content_words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}
