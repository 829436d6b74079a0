"""How an episode researches: searches, visits and the reading of pages, on the episode's
state (`pipeline.episode_state`); the run of `pipeline.episode` composes it with drafting.
"""

from __future__ import annotations

import asyncio
import unicodedata
from typing import Any, TypeVar

from pydantic import BaseModel

from pipeline.actions import AgentTurn, Search, Visit, VisitTarget
from pipeline.drafting.context import same_page
from pipeline.drafting.words import key_stems, page_sentences
from pipeline.episode_state import EpisodeState
from pipeline.errors import (
    ModelOutputInvalid,
    ModelTimeout,
    PageUnreadable,
    SearchFailed,
)
from pipeline.evidence import Evidence, NotesTaken, Page, PageNotes, SearchResult
from pipeline.excerpt import matching_sentences, select_excerpt
from pipeline.ports import (
    ModelReply,
)
from pipeline.prompts import page_notes_messages
from pipeline.source_quality import source_tier
from pipeline.step_log import HeldStep, hold_steps

T = TypeVar("T", bound=BaseModel)


class Research:
    """Searching and reading for one episode, on its state."""

    def __init__(self, state: EpisodeState) -> None:
        self.s = state
        self.found = state.found

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
        self.found.fresh = []
        searched = len(self.found.queries)
        # a search begun ahead for this query was counted when it began
        ahead = query.lower() in self.found.searches_ahead
        if self.s.use.searches >= self.s.b.max_searches and not ahead:
            self.s.feedback = (
                f"Search refused: the search budget ({self.s.b.max_searches}) is "
                "spent. Visit, write or abstain."
            )
        elif self.s.use.visits_left(self.s.b) == 0:
            self.s.feedback = (
                f"Search refused: every page read of the budget ({self.s.b.max_visits}) is "
                "spent, so none of its results could be read. Write from the pages read, or "
                "abstain."
            )
        elif query.lower() in (q.lower() for q in self.found.queries):
            gap = self.next_gap_query()
            if gap is None:
                self.s.feedback = (
                    f"Search '{query}' refused: it was already searched (see the log)."
                )
            else:  # a weak model repeats its search: the brief's next gap is searched instead
                _, found = await self.run_search(gap)
                self.s.feedback = f"'{query}' was already searched; searched the next gap: {found}"
        else:
            _, self.s.feedback = await self.run_search(query)
        self.count_refusal(len(self.found.queries) == searched)
        await self.s.record("search", action.model_dump(), self.s.feedback, reply)
        await self.s.tell("searching", query)
        if self.found.fresh:
            # A search the agent aims at a gap: code reads its best unread results at once,
            # sparing the agent a turn to ask.
            self.s.feedback += await self.read_best(query)

    async def search_the_post(self) -> list[HeldStep]:
        """While the claim is analysed: search the post's own words. Its steps are held and
        returned, to be recorded after the analysis (a trajectory in a stable order); its
        results are read once the claims are known (`read_before_the_first_turn`)."""
        held = hold_steps()
        query, observation = await self.run_search(post_query(self.s.post.text), by_code=True)
        await self.s.record("search", {"kind": "search", "query": query, "by": "code"}, observation)
        await self.s.tell("searching", query)
        self.prefetch(self.best_unread(list(self.found.fresh)))
        return held

    def prefetch(self, urls: list[str], notes: bool = True) -> None:
        """Begin reading pages code is likely to read once the claims are known (the post's
        results on the post's own words, best first): the analysis takes longer than a page
        read, so a page chosen then is in already. Nothing is taken in, shown or counted
        until a visit chooses it (`fetch`); the rest are cancelled when the episode ends.
        With each page noted as it arrives (`visit`), measured on the stand-in (#47,
        2026-12-02): one episode at a time, p50 30.7 → 28.2 s."""
        if not self.s.b.read_search_results:
            return  # code reads no results: nothing would choose them
        # code's first visit reads these with the post's words as its goal, unless it searches
        # a gap first (then its goal is the gap's query, and notes taken now would not be its)
        early_notes = notes and self.s.b.condense_pages and not self.s.b.search_gap_first
        for url in urls:
            if url in self.found.prefetched:
                continue
            read = asyncio.create_task(self.read_page(url))
            self.found.prefetched[url] = read
            if early_notes:
                noting = asyncio.create_task(self.notes_when_read(read))
                noting.add_done_callback(_retrieved)  # a page no visit chose: its error is moot
                self.found.early_notes[url] = noting

    async def notes_when_read(self, read: asyncio.Task[Page | str]) -> NotesTaken | None:
        """The notes of a page begun during the analysis, on the post's own words (the claims
        are not known yet), taken as soon as it is read: the notes then wait for neither the
        brief nor the visit. None when the page gets no notes (unread, or short enough to be
        shown whole). Measured on the stand-in (#47, 2026-12-02, docs/benchmarks.md): one
        episode at a time, p50 24.0 → 23.0 s (the old build's 22.8), 30 at once 62.6 → 61.5 s,
        the same calls and tokens."""
        page = await asyncio.shield(read)
        if isinstance(page, str) or len(page.text) <= self.s.b.notes_min_chars:
            return None
        goal = post_query(self.s.post.text)
        focus = goal + " " + " ".join(self.s.context().claims())
        return await self.condense(goal, page.title, page.text, focus)

    async def read_before_the_first_turn(self) -> None:
        """Code reads the best results on the claims (the brief's, now known) before the first
        agent turn, which starts with pages read; the post's words' results were begun during
        the analysis (`prefetch`). With `search_gap_first` (GitSearch, for a weak agent) code
        first searches the brief's most pressing gap, whose results come first: a weak model
        writes at once from whatever is read (seen: the first action in 9 of 12 real
        episodes), and the post's raw words alone found pages on other diseases (Adams–Oliver
        syndrome for "Mayor Eric Adams"). A capable agent searches its gaps itself, and the
        gap search costs the first turn 3.6 s on the stand-in (#47: a search, a read and a
        page's notes after the analysis)."""
        post_results = list(self.found.fresh)
        query = self.next_gap_query() if self.s.b.search_gap_first else None
        found: list[str] = []
        if query is not None and self.s.use.searches_left(self.s.b) > 1:
            query, observation = await self.run_search(query, by_code=True)
            await self.s.record(
                "search", {"kind": "search", "query": query, "by": "code"}, observation
            )
            await self.s.tell("searching", query)
            found = list(self.found.fresh)
        await self.read_best(query or post_query(self.s.post.text), [*found, *post_results])

    def search_ahead(self) -> None:
        """Begin searching the brief's top gap, and reading its best results, while the
        agent's first turn is asked: an agent that searches it takes the results at once and
        finds the pages begun (`run_search`, `fetch`). The real model's first search was that
        gap's query, word for word, in each of the 4 recorded episodes that began with a
        search (tests/fixtures/real_model); the search and the reads are then off the critical
        path. Measured on the stand-in (#47, docs/benchmarks.md): one episode at a time,
        p50 22.9 → 20.5 s (the old build's 22.7), the same calls and tokens. No model call is
        made ahead: page notes wait for the visit. An agent that writes first or searches
        otherwise leaves a search (of the budget) and a few reads unused, dropped with the
        episode."""
        b = self.s.b
        if not (b.search_ahead and b.read_search_results) or b.search_gap_first:
            return
        query = self.next_gap_query()
        # it is a search of the budget (a backend call), and the agent keeps one of its own
        if query is None or self.s.use.searches_left(b) < 2:
            return
        self.s.use.searches += 1
        ahead = asyncio.create_task(self.results_ahead(query))
        ahead.add_done_callback(_retrieved)  # a search no turn asked for: its error is moot
        self.found.searches_ahead[query.lower()] = ahead

    async def results_ahead(self, query: str) -> list[SearchResult]:
        """The results of a search begun ahead, the best of them begun reading (no notes).
        Nothing is logged until the agent takes it: an unused one is in no prompt."""
        async with asyncio.timeout(self.s.b.search_timeout_s):
            results = await self.s.r.search.search(
                query, limit=self.s.b.results_per_search, published_before=self.s.date_cap
            )
        listed = {r.url: r for r in results}
        self.prefetch(self.best_unread(list(listed), {**listed, **self.found.results}), notes=False)
        return results

    def next_gap_query(self) -> str | None:
        """The brief's highest-priority gap query not searched yet."""
        if self.s.brief is None:
            return None
        searched = {q.lower() for q in self.found.queries}
        for gap in self.s.brief.top_gaps(len(self.s.brief.gaps)):
            query = " ".join(gap.suggested_query.split())
            if query and query.lower() not in searched:
                return query
        return None

    async def read_best(self, goal: str, urls: list[str] | None = None) -> str:
        """Code reads the best unread of `urls` (the last search's results by default): those
        on the claims, highest tier first, one visit's worth; what it read, for the agent."""
        chosen = self.best_unread(self.found.fresh if urls is None else urls)
        targets = [VisitTarget(url=url, goal=goal) for url in chosen]
        if not self.s.b.read_search_results or not targets:
            return ""
        read = await self.visit(targets, by_code=True)
        action = {"kind": "visit", "by": "code", "targets": [t.model_dump() for t in targets]}
        await self.s.record("visit", action, "Visit: " + "; ".join(read))
        await self.s.tell("reading", f"{len(self.s.evidence)} sources read")
        ok = sum(url in self.s.evidence for url in (t.url for t in targets))
        # what they said is in the log; the observation only counts
        return f" Read by code, the best {len(targets)} of them: {ok} read (see the log)."

    async def run_search(self, query: str, by_code: bool = False) -> tuple[str, str]:
        """Search, log the results; (query, what to tell the agent)."""
        who = {"by": "code"} if by_code else {}
        if query.lower() not in self.found.searches_ahead:  # else counted when it began
            self.s.use.searches += 1
        self.found.queries.append(query)
        self.found.fresh = []
        started = self.s.r.clock()
        try:
            timeout = max(
                0.1, min(self.s.b.search_timeout_s, self.s.seconds_left(self.s.loop_deadline))
            )
            async with asyncio.timeout(timeout):
                results = await self.searched(query)
        except SearchFailed as e:
            self.s.log({"search": query, **who, "error": str(e)})
            return query, f"Search failed: {e}"
        except TimeoutError:
            self.s.log({"search": query, **who, "error": "no answer in time"})
            return query, "Search failed: the search backend did not answer in time."
        except Exception as e:
            self.s.log({"search": query, **who, "error": type(e).__name__})
            return query, f"Search failed: the search backend failed ({type(e).__name__})."
        finally:
            self.s.timings.search_s += self.s.r.clock() - started
        fresh = [r for r in results if r.url not in self.found.results]
        for r in fresh:
            self.found.results[r.url] = r
        self.found.fresh = [r.url for r in results]  # this search's results, new or listed before
        self.s.log(
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

    async def searched(self, query: str) -> list[SearchResult]:
        """The search's results: those of the search begun ahead for it, else the backend's
        now (also when the one ahead failed: a blip then need not fail the agent's search)."""
        ahead = self.found.searches_ahead.pop(query.lower(), None)
        if ahead is not None:
            try:
                return await ahead
            except Exception:  # searched again below, where errors are reported
                pass
        return await self.s.r.search.search(
            query, limit=self.s.b.results_per_search, published_before=self.s.date_cap
        )

    def best_unread(
        self, urls: list[str], listed: dict[str, SearchResult] | None = None
    ) -> list[str]:
        """Up to one visit's worth of the listed pages for code to read: those whose title or
        snippet shares a key term with the claims, the most terms (up to two) and then the
        highest source tier first. It always leaves the agent one visit's worth of its own.
        `listed`: the search results to judge them by (the episode's, by default)."""
        listed = self.found.results if listed is None else listed
        left = self.s.b.max_visits - self.s.use.visits - self.s.b.max_urls_per_visit
        room = min(self.s.b.max_urls_per_visit, left)
        claims = key_stems(" ".join(self.s.context().claims()))
        ranked = []
        for url in dict.fromkeys(urls):
            result = listed.get(url)
            if url in self.s.evidence or url in self.found.unreadable or result is None:
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
            if url in self.s.evidence:
                notes.append(f"{url}: already read")
            elif url not in self.found.results and url not in self.s.post_links:
                notes.append(
                    f"{url}: refused, only URLs from search results or the post can be visited"
                )
            elif any(t.url.strip() == url for t in chosen):
                continue
            elif len(chosen) >= self.s.b.max_urls_per_visit:
                notes.append(f"{url}: skipped, at most {self.s.b.max_urls_per_visit} pages a step")
            elif self.s.use.visits + len(chosen) >= self.s.b.max_visits:
                notes.append(f"{url}: skipped, the visit budget ({self.s.b.max_visits}) is spent")
            else:
                chosen.append(target)
        notes.extend(await self.visit(chosen))
        self.count_refusal(not chosen)
        self.s.feedback = "Visit: " + "; ".join(notes)
        await self.s.record("visit", action.model_dump(), self.s.feedback, reply)
        await self.s.tell("reading", f"{len(self.s.evidence)} sources read")

    def count_refusal(self, refused: bool) -> None:
        self.s.refused_in_a_row = self.s.refused_in_a_row + 1 if refused else 0

    def known_spelling(self, url: str) -> str:
        """The URL as a page read, a search result or the post wrote it."""
        return same_page(url, [*self.s.evidence, *self.found.results, *self.s.post_links])

    async def visit(self, targets: list[VisitTarget], by_code: bool = False) -> list[str]:
        """Read the pages concurrently; one line about each. Each page is taken in (its notes
        asked for) as soon as it is read, not after the visit's slowest: the notes of one
        page overlap the reading of the others. Once the first page is in, the others get
        `visit_grace_s` more: a slow site is recorded as unread, not waited for."""
        if not targets:
            return []
        started = self.s.r.clock()
        self.s.use.visits += len(targets)
        fetches = [asyncio.create_task(self.fetch(t.url.strip())) for t in targets]
        takes = [
            asyncio.create_task(self.take_when_read(target, fetch, by_code))
            for target, fetch in zip(targets, fetches, strict=True)
        ]
        try:
            _, pending = await asyncio.wait(fetches, return_when=asyncio.FIRST_COMPLETED)
            if pending:
                _, pending = await asyncio.wait(pending, timeout=self.s.b.visit_grace_s)
            for fetch in pending:
                fetch.cancel()  # its take ends with it
            await asyncio.wait(takes)
        finally:
            for task in [*fetches, *takes]:
                task.cancel()  # (a no-op for those done)
        grace = f"still loading {self.s.b.visit_grace_s:.0f} s after the visit's other pages"
        outcomes = [
            self.could_not_read(target.url.strip(), grace) if fetch in pending else take.result()
            for target, fetch, take in zip(targets, fetches, takes, strict=True)
        ]
        self.s.timings.visit_s += self.s.r.clock() - started
        return outcomes

    async def take_when_read(
        self, target: VisitTarget, fetch: asyncio.Task[Page | str], by_code: bool
    ) -> str:
        return await self.take(target, await fetch, by_code)

    async def fetch(self, url: str) -> Page | str:
        """The page, or why it could not be read: begun during the analysis, or now."""
        if (early := self.found.prefetched.pop(url, None)) is not None:
            return await early
        return await self.read_page(url)

    async def read_page(self, url: str) -> Page | str:
        """The page, or why it could not be read (within the page timeout)."""
        timeout = max(0.1, min(self.s.b.page_timeout_s, self.s.seconds_left(self.s.loop_deadline)))
        try:
            async with asyncio.timeout(timeout):
                return await self.s.r.reader.read(url)
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
        focus = target.goal + " " + " ".join(self.s.context().claims())
        excerpt = await asyncio.to_thread(
            select_excerpt, page.text, focus, self.s.b.evidence_chars_per_page
        )
        # the page is where it answered from, after redirects: its standing is that address's
        # (a university's open redirect to the attacker's page was ranked by the university)
        answered = page.url.strip() if page.url.strip() not in ("", url) else ""
        evidence = Evidence(
            url=url,
            final_url=answered,
            title=page.title,
            goal=target.goal,
            tier=source_tier(answered or url),
            excerpt=excerpt,
            published=page.published,
            settled_revision=page.settled_revision,
        )
        noted = ""
        if self.s.b.condense_pages and len(page.text) > self.s.b.notes_min_chars:
            taken = await self.notes_of(url, target.goal, page, focus)
            if taken.relevant is not None:
                evidence.relevant = taken.relevant
                evidence.quotes = taken.quotes
            noted = taken.said
        else:  # shown whole: notes would only restate it; code picks the quotes
            evidence.quotes = matching_sentences(page.text, focus)
        self.found.unreadable.pop(url, None)
        self.s.evidence[url] = evidence
        shown = {k: v for k, v in self.shown(evidence).items() if k != "url"}
        if by_code:  # its goal is the search's query, logged just above
            shown.pop("goal", None)
        self.s.log({"read": url, **shown})
        return f"{url}: read ({len(page.text)} characters{noted})"

    def could_not_read(self, url: str, why: str) -> str:
        self.found.unreadable[url] = why
        self.s.log({"unreadable": url, "why": why})
        return f"{url}: could not be read ({why})"

    async def notes_of(self, url: str, goal: str, page: Page, focus: str) -> NotesTaken:
        """The page's notes: those begun during the analysis when this visit's goal is theirs
        (the post's words), else asked for now."""
        early = self.found.early_notes.pop(url, None)
        if early is not None:
            if goal == post_query(self.s.post.text) and (taken := await early) is not None:
                return taken
            early.cancel()
        return await self.condense(goal, page.title, page.text, focus)

    async def condense(self, goal: str, title: str, text: str, focus: str) -> NotesTaken:
        """The model's notes on the page; its quotes are the page's own sentences, by number."""
        passage = await asyncio.to_thread(
            select_excerpt, text, focus, self.s.b.page_chars_for_notes
        )
        sentences = page_sentences(passage)
        messages = page_notes_messages(goal, self.s.context().claims(), title, sentences)
        try:
            reply = await self.s.ask(messages, PageNotes, self.s.loop_deadline, inference=False)
        except (ModelTimeout, ModelOutputInvalid) as e:
            return NotesTaken(None, [], f"; no notes: {e}")
        chosen = list(dict.fromkeys(reply.value.quote_sentences))
        quotes = [sentences[n - 1] for n in chosen if 1 <= n <= len(sentences)]
        dropped = len(chosen) - len(quotes)
        relevance = "relevant" if reply.value.relevant else "not relevant"
        said = f"; {relevance}, {len(quotes)} quotes" + (
            f", {dropped} quote number(s) not on the page, dropped" if dropped else ""
        )
        return NotesTaken(reply.value.relevant, quotes, said)


def _retrieved(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()


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
