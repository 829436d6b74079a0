"""How an episode researches: searches, visits and the reading of pages, with the bookkeeping
they share (the deadline, model calls, progress). The run of `pipeline.episode` builds on it:
this class holds none of the run's state, it only declares what of it the research uses.
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from pipeline.actions import AgentTurn, Search, Visit, VisitTarget
from pipeline.brief import VerificationBrief
from pipeline.budget import BudgetUse, EvidenceBudget
from pipeline.draft_checks import DraftChecks, same_page
from pipeline.errors import (
    ModelOutputInvalid,
    ModelTimeout,
    PageUnreadable,
    SearchFailed,
)
from pipeline.evidence import Evidence, Page, PageNotes, SearchResult
from pipeline.excerpt import matching_sentences, select_excerpt
from pipeline.lexicon import key_stems, page_sentences
from pipeline.ports import (
    ChatMessage,
    ModelReply,
)
from pipeline.post import Post
from pipeline.prompts import (
    log_line,
    page_notes_messages,
)
from pipeline.source_quality import source_tier
from pipeline.step_log import HeldStep, StepLog, hold_steps
from pipeline.trajectory import (
    Progress,
    Timings,
)

T = TypeVar("T", bound=BaseModel)

# Below this many seconds a final model call cannot be expected to answer.
MIN_SECONDS_FOR_A_CALL = 2.0
# Refused agent actions in a row (a repeated search, a visit of unknown URLs) before the loop
# ends and the final write begins.
MAX_REFUSED_IN_A_ROW = 3

if TYPE_CHECKING:
    from pipeline.episode import EpisodeRunner


class EpisodeResearch:
    """Searching and reading for one episode (the base of its run)."""

    # the run's state the research reads and adds to (set by the run's `__init__`)
    r: EpisodeRunner
    b: EvidenceBudget
    post: Post
    steps: StepLog
    record: Callable[..., Awaitable[None]]
    use: BudgetUse
    timings: Timings
    deadline: float
    loop_deadline: float
    brief: VerificationBrief | None
    queries: list[str]
    results: dict[str, SearchResult]
    post_links: list[str]
    evidence: dict[str, Evidence]
    checks: DraftChecks
    unreadable: dict[str, str]
    research: list[str]
    fresh: list[str]
    feedback: str
    model_name: str | None
    refused_in_a_row: int
    date_cap: datetime | None

    def seconds_left(self, until: float | None = None) -> float:
        return (until if until is not None else self.deadline) - self.r.clock()

    async def tell(self, phase: Any, detail: str = "") -> None:
        await self.steps.tell(
            Progress(
                phase=phase,
                searches=self.use.searches,
                max_searches=self.b.max_searches,
                sources_read=len(self.evidence),
                detail=detail,
            )
        )

    async def ask(
        self, messages: list[ChatMessage], output: type[T], until: float, inference: bool = True
    ) -> ModelReply[T]:
        """A model call bounded by `until`; page notes count as visit time, not inference."""
        timeout = min(self.r.call_timeout_s, self.seconds_left(until))
        if timeout <= 0:
            raise ModelTimeout("no time left for a model call")
        reply = await self.r.model.structured(messages, output, timeout_s=timeout)
        if inference:
            self.timings.inference_s += reply.latency_s
        self.timings.prompt_tokens += reply.prompt_tokens
        self.timings.completion_tokens += reply.completion_tokens
        self.model_name = reply.model
        return reply

    def log(self, entry: dict[str, Any]) -> None:
        self.research.append(log_line(entry))

    @staticmethod
    def shown(evidence: Evidence) -> dict[str, Any]:
        """A read page as the agent sees it: the notes when there are any, else the excerpt."""
        view = evidence.model_dump(
            mode="json", exclude_none=True, include={"url", "title", "tier", "goal", "published"}
        )
        if evidence.relevant is False:  # the notes found nothing on the claims
            view["relevant"] = False
        elif evidence.relevant and evidence.quotes:
            view["quotes"] = evidence.quotes
        else:
            view["excerpt"] = evidence.excerpt
        return view

    async def do_search(self, action: Search, reply: ModelReply[AgentTurn]) -> None:
        query = " ".join(action.query.split())
        self.fresh = []
        searched = self.use.searches
        if self.use.searches >= self.b.max_searches:
            self.feedback = (
                f"Search refused: the search budget ({self.b.max_searches}) is "
                "spent. Visit, write or abstain."
            )
        elif query.lower() in (q.lower() for q in self.queries):
            gap = self.next_gap_query()
            if gap is None:
                self.feedback = f"Search '{query}' refused: it was already searched (see the log)."
            else:  # a weak model repeats its search: the brief's next gap is searched instead
                _, found = await self.run_search(gap)
                self.feedback = f"'{query}' was already searched; searched the next gap: {found}"
        else:
            _, self.feedback = await self.run_search(query)
        self.count_refusal(self.use.searches == searched)
        await self.record("search", action.model_dump(), self.feedback, reply)
        await self.tell("searching", query)
        if self.fresh:
            # A search the agent aims at a gap: code reads its best unread results at once,
            # sparing the agent a turn to ask.
            self.feedback += await self.read_best(query)

    async def search_the_post(self) -> list[HeldStep]:
        """While the claim is analysed: search the post's own words. Its steps are held and
        returned, to be recorded after the analysis (a trajectory in a stable order); its
        results are read once the claims are known (`search_the_gap`)."""
        held = hold_steps()
        query, observation = await self.run_search(post_query(self.post.text), by_code=True)
        await self.record("search", {"kind": "search", "query": query, "by": "code"}, observation)
        await self.tell("searching", query)
        return held

    async def search_the_gap(self) -> None:
        """GitSearch: code searches the brief's most pressing gap, then reads the best results
        on the claims, the gap's first and the post's words' after: the first agent turn starts
        with pages read. A weak model writes at once from whatever is read (seen: the first
        action in 9 of 12 real episodes), and the post's raw words alone found pages on other
        diseases (Adams–Oliver syndrome for "Mayor Eric Adams")."""
        post_results = list(self.fresh)
        query = self.next_gap_query()
        found: list[str] = []
        if query is not None and self.use.searches_left(self.b) > 1:
            query, observation = await self.run_search(query, by_code=True)
            await self.record(
                "search", {"kind": "search", "query": query, "by": "code"}, observation
            )
            await self.tell("searching", query)
            found = list(self.fresh)
        await self.read_best(query or post_query(self.post.text), [*found, *post_results])

    def next_gap_query(self) -> str | None:
        """The brief's highest-priority gap query not searched yet."""
        if self.brief is None:
            return None
        searched = {q.lower() for q in self.queries}
        for gap in self.brief.top_gaps(len(self.brief.gaps)):
            query = " ".join(gap.suggested_query.split())
            if query and query.lower() not in searched:
                return query
        return None

    async def read_best(self, goal: str, urls: list[str] | None = None) -> str:
        """Code reads the best unread of `urls` (the last search's results by default): those
        on the claims, highest tier first, one visit's worth; what it read, for the agent."""
        chosen = self.best_unread(self.fresh if urls is None else urls)
        targets = [VisitTarget(url=url, goal=goal) for url in chosen]
        if not self.b.read_search_results or not targets:
            return ""
        read = await self.visit(targets, by_code=True)
        action = {"kind": "visit", "by": "code", "targets": [t.model_dump() for t in targets]}
        await self.record("visit", action, "Visit: " + "; ".join(read))
        await self.tell("reading", f"{len(self.evidence)} sources read")
        ok = sum(url in self.evidence for url in (t.url for t in targets))
        # what they said is in the log; the observation only counts
        return f" Read by code, the best {len(targets)} of them: {ok} read (see the log)."

    async def run_search(self, query: str, by_code: bool = False) -> tuple[str, str]:
        """Search, log the results; (query, what to tell the agent)."""
        who = {"by": "code"} if by_code else {}
        self.use.searches += 1
        self.queries.append(query)
        self.fresh = []
        started = self.r.clock()
        try:
            timeout = max(0.1, min(self.b.search_timeout_s, self.seconds_left(self.loop_deadline)))
            async with asyncio.timeout(timeout):
                results = await self.r.search.search(
                    query, limit=self.b.results_per_search, published_before=self.date_cap
                )
        except SearchFailed as e:
            self.log({"search": query, **who, "error": str(e)})
            return query, f"Search failed: {e}"
        except TimeoutError:
            self.log({"search": query, **who, "error": "no answer in time"})
            return query, "Search failed: the search backend did not answer in time."
        except Exception as e:
            self.log({"search": query, **who, "error": type(e).__name__})
            return query, f"Search failed: the search backend failed ({type(e).__name__})."
        finally:
            self.timings.search_s += self.r.clock() - started
        fresh = [r for r in results if r.url not in self.results]
        for r in fresh:
            self.results[r.url] = r
        self.fresh = [r.url for r in results]  # this search's results, new or listed before
        self.log(
            {
                "search": query,
                **who,
                # [url, tier, title, snippet]: the keys once, in the system prompt
                "results": [
                    [r.url, source_tier(r.url), r.title[:100], r.snippet[:160]] for r in fresh
                ],
                "already_listed": len(results) - len(fresh),
            }
        )
        if not results:
            return query, f"Search '{query}' returned no results."
        # the results themselves are in the log: the observation only says what happened
        return query, f"Search '{query}' returned {len(results)} results ({len(fresh)} new)."

    def best_unread(self, urls: list[str]) -> list[str]:
        """Up to one visit's worth of the listed pages for code to read: those whose title or
        snippet shares a key term with the claims, the most terms (up to two) and then the
        highest source tier first. It always leaves the agent one visit's worth of its own."""
        left = self.b.max_visits - self.use.visits - self.b.max_urls_per_visit
        room = min(self.b.max_urls_per_visit, left)
        claims = key_stems(" ".join(self.checks.claims()))
        ranked = []
        for url in dict.fromkeys(urls):
            result = self.results.get(url)
            if url in self.evidence or url in self.unreadable or result is None:
                continue
            shared = len(claims & key_stems(f"{result.title} {result.snippet}"))
            if shared:
                ranked.append((-min(shared, 2), -source_tier(url), url))
        return [url for *_, url in sorted(ranked, key=lambda r: r[:2])][: max(0, room)]

    async def do_visit(self, action: Visit, reply: ModelReply[AgentTurn]) -> None:
        notes: list[str] = []
        chosen: list[VisitTarget] = []
        for asked in action.targets:
            # The model's spelling of a known URL (https for http, www. or not, a slash…)
            # means that URL: the allowlist is of pages, not of spellings.
            url = self.known_spelling(asked.url.strip())
            target = asked.model_copy(update={"url": url})
            if url in self.evidence:
                notes.append(f"{url}: already read")
            elif url not in self.results and url not in self.post_links:
                notes.append(
                    f"{url}: refused, only URLs from search results or the post can be visited"
                )
            elif any(t.url.strip() == url for t in chosen):
                continue
            elif len(chosen) >= self.b.max_urls_per_visit:
                notes.append(f"{url}: skipped, at most {self.b.max_urls_per_visit} pages a step")
            elif self.use.visits + len(chosen) >= self.b.max_visits:
                notes.append(f"{url}: skipped, the visit budget ({self.b.max_visits}) is spent")
            else:
                chosen.append(target)
        notes.extend(await self.visit(chosen))
        self.count_refusal(not chosen)
        self.feedback = "Visit: " + "; ".join(notes)
        await self.record("visit", action.model_dump(), self.feedback, reply)
        await self.tell("reading", f"{len(self.evidence)} sources read")

    def count_refusal(self, refused: bool) -> None:
        self.refused_in_a_row = self.refused_in_a_row + 1 if refused else 0

    def known_spelling(self, url: str) -> str:
        """The URL as a page read, a search result or the post wrote it."""
        return same_page(url, [*self.evidence, *self.results, *self.post_links])

    async def visit(self, targets: list[VisitTarget], by_code: bool = False) -> list[str]:
        """Read the pages concurrently; one line about each. Once the first page is in, the
        others get `visit_grace_s` more: a slow site is recorded as unread, not waited for."""
        if not targets:
            return []
        started = self.r.clock()
        self.use.visits += len(targets)
        fetches = [asyncio.create_task(self.fetch(t.url.strip())) for t in targets]
        try:
            _, pending = await asyncio.wait(fetches, return_when=asyncio.FIRST_COMPLETED)
            if pending:
                _, pending = await asyncio.wait(pending, timeout=self.b.visit_grace_s)
        finally:
            for task in fetches:
                task.cancel()  # (a no-op for those done)
        grace = f"still loading {self.b.visit_grace_s:.0f} s after the visit's other pages"
        outcomes = await asyncio.gather(
            *(
                self.take(target, grace if task in pending else task.result(), by_code)
                for target, task in zip(targets, fetches, strict=True)
            )
        )
        self.timings.visit_s += self.r.clock() - started
        return list(outcomes)

    async def fetch(self, url: str) -> Page | str:
        """The page, or why it could not be read."""
        timeout = max(0.1, min(self.b.page_timeout_s, self.seconds_left(self.loop_deadline)))
        try:
            async with asyncio.timeout(timeout):
                return await self.r.reader.read(url)
        except PageUnreadable as e:
            return str(e)
        except TimeoutError:
            return f"no answer within {timeout:.0f} s"
        except Exception as e:
            # whatever a page does to the reader (an IDN redirect that cannot be encoded, a
            # malformed header, a parser's bug), it is that page's "could not be read": anyone
            # who can get a page into the results must not fail every episode on the claim
            return f"the reader failed on it ({type(e).__name__})"

    async def take(self, target: VisitTarget, page: Page | str, by_code: bool = False) -> str:
        """A fetched page into the evidence: its excerpt, and its notes or quotes."""
        url = target.url.strip()
        if isinstance(page, str):
            return self.could_not_read(url, page)
        if not page.text.strip():
            return self.could_not_read(url, "no readable text")
        focus = target.goal + " " + " ".join(self.checks.claims())
        excerpt = await asyncio.to_thread(
            select_excerpt, page.text, focus, self.b.evidence_chars_per_page
        )
        evidence = Evidence(
            url=url,
            title=page.title,
            goal=target.goal,
            tier=source_tier(url),
            excerpt=excerpt,
            published=page.published,
        )
        noted = ""
        if self.b.condense_pages and len(page.text) > self.b.notes_min_chars:
            noted = await self.condense(evidence, page.text, focus)
        else:  # shown whole: notes would only restate it; code picks the quotes
            evidence.quotes = matching_sentences(page.text, focus)
        self.unreadable.pop(url, None)
        self.evidence[url] = evidence
        shown = {k: v for k, v in self.shown(evidence).items() if k != "url"}
        if by_code:  # its goal is the search's query, logged just above
            shown.pop("goal", None)
        self.log({"read": url, **shown})
        return f"{url}: read ({len(page.text)} characters{noted})"

    def could_not_read(self, url: str, why: str) -> str:
        self.unreadable[url] = why
        self.log({"unreadable": url, "why": why})
        return f"{url}: could not be read ({why})"

    async def condense(self, evidence: Evidence, text: str, focus: str) -> str:
        """The model's notes on the page; its quotes are the page's own sentences, by number."""
        passage = await asyncio.to_thread(select_excerpt, text, focus, self.b.page_chars_for_notes)
        sentences = page_sentences(passage)
        messages = page_notes_messages(
            evidence.goal, self.checks.claims(), evidence.title, sentences
        )
        try:
            reply = await self.ask(messages, PageNotes, self.loop_deadline, inference=False)
        except (ModelTimeout, ModelOutputInvalid) as e:
            return f"; no notes: {e}"
        chosen = list(dict.fromkeys(reply.value.quote_sentences))
        quotes = [sentences[n - 1] for n in chosen if 1 <= n <= len(sentences)]
        evidence.relevant = reply.value.relevant
        evidence.quotes = quotes
        dropped = len(chosen) - len(quotes)
        relevance = "relevant" if reply.value.relevant else "not relevant"
        return f"; {relevance}, {len(quotes)} quotes" + (
            f", {dropped} quote number(s) not on the page, dropped" if dropped else ""
        )


def post_query(text: str, words: int = 14) -> str:
    """A web query from the post's own words: links, @handles, #signs, emoji and quotation
    marks dropped (the real model's first search began '🚨🌎 “The studies…')."""
    cores = [
        _noise_stripped(w)
        for w in text.split()
        if not w.startswith(("http://", "https://", "@", "www."))
    ]
    kept = [core for core in cores if any(c.isalnum() for c in core)]
    return " ".join(kept[:words])[:300] or text[:100]


def _noise_stripped(word: str) -> str:
    """The word without emoji and other symbols, quotation marks and a hashtag's sign."""
    plain = "".join(c for c in word if unicodedata.category(c) not in ("So", "Sk", "Cf"))
    return plain.strip('#"“”‘’«»')
