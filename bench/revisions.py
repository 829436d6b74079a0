"""How many revisions a note needs before X's claim-opinion bar, and how many are held.

The loop measured is the real one: `SubmissionDesk` on SQLite, the reviser through the real
OpenAI-compatible adapter against the simulated model server (`bot.simulator`), every revision
through the draft checks. Two parts are stand-ins, so the numbers are about the loop, not
about X: the evaluator (X's ClaimOpinion model is not a public service) scores how many of the
post's key words the note's prose answers, minus opinion and hedging words; and the pages read
for each real post (`healthnotes_dev`) are its human note's own text, cited at the human note's
URL. The first note is the page's sentence that shares the fewest key words with the post — a
true but off-point note — so the writer has something to revise.

    python -m bench.revisions ../shared/data/healthnotes_dev/posts.jsonl [--bar 0.7]
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import re
import statistics
import tempfile
from collections import Counter
from pathlib import Path

from adapters.openai_chat import OpenAIChatModel
from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.submissions import SubmissionStore
from bot.app import openai_client
from bot.simulator.model import ResearchPolicy
from bot.simulator.server import SimulatedModelServer
from pipeline.desk.destination import WrittenNote
from pipeline.desk.submission import SubmissionDesk
from pipeline.drafting.note import assemble_note, find_urls, split_sentences, strip_urls
from pipeline.evidence import Evidence
from pipeline.ports import MemoryMode
from pipeline.post import Post
from pipeline.request import NoteRequest
from pipeline.revision import EpisodeReviser, NoteDraft, Revision
from pipeline.trajectory import EpisodeOutcome

_WORD = re.compile(r"[a-z]{4,}")
_OPINION = {
    "believe", "think", "probably", "maybe", "might", "clearly", "obviously", "should",
    "misinformation", "misleading", "claims", "allegedly", "arguably", "seems",
}  # fmt: skip


def key_words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


class StandInEvaluator:
    """A `NotesDestination` whose evaluator is a stand-in (see the module's docstring)."""

    key, name = "x", "X (stand-in)"
    daily_cap = 10_000
    evaluates = True
    has_writing_limit = False
    test_mode = True

    def takes(self, post: Post) -> str | None:
        return post.post_id

    def __init__(self, posts: dict[str, str]) -> None:
        self.posts = posts  # post id → text
        self.calls = 0

    async def evaluate(self, post_id: str, text: str) -> float:
        self.calls += 1
        prose = text.split("\n\n")[0]
        claim, said = key_words(self.posts[post_id]), key_words(prose)
        answered = len(claim & said) / max(1, min(len(claim), 8))
        opinion = sum(w in _OPINION for w in _WORD.findall(prose.lower()))
        return round(1.5 * answered - 0.4 * opinion, 3)

    async def submit(self, post_id: str, text: str, **_: object) -> str:
        return f"n{post_id}"

    async def notes_written(self, *, test_mode: bool) -> list[WrittenNote]:
        return []

    async def whoami(self) -> str:
        return "a stand-in"


class CountingReviser:
    """The real reviser, counting the revisions the draft checks dropped."""

    def __init__(self, inner: EpisodeReviser) -> None:
        self.inner = inner
        self.asked = self.dropped = 0

    async def revise(self, draft: NoteDraft, feedback: str) -> Revision:
        revision = await self.inner.revise(draft, feedback)
        self.asked += 1
        self.dropped += revision.note is None
        return revision


class AllOpen:
    async def opens(self, url: str) -> str | None:
        return None


def page_of(human_note: str) -> Evidence | None:
    human_note = html.unescape(human_note)  # the notes' export keeps &quot; and &amp;
    urls = find_urls(human_note)
    prose = " ".join(strip_urls(human_note).split())
    sentences = [s for s in split_sentences(prose) if len(s) >= 25]
    if not urls or not sentences:
        return None
    return Evidence(url=urls[0], title="", excerpt=prose[:2000], quotes=sentences[:6], tier=3)


async def run(path: Path, bar: float, limit: int) -> None:
    lines = (await asyncio.to_thread(path.read_text)).splitlines()
    rows = [json.loads(line) for line in lines if line.strip()][:limit]
    server = SimulatedModelServer(ResearchPolicy()).start()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/bench.db"
        await upgrade(url)
        engine = make_engine(url)
        client = openai_client(server.base_url, "EMPTY")
        model = OpenAIChatModel(client, model="scripted-model")
        posts = {r["id"]: r["text"] for r in rows}
        evaluator = StandInEvaluator(posts)
        store = EpisodeStore(engine)
        reviser = CountingReviser(EpisodeReviser(model, timeout_s=30))
        desk = SubmissionDesk(
            store,
            SubmissionStore(engine),
            [evaluator],
            model,
            reviser,
            AllOpen(),
            min_claim_opinion=bar,
        )
        needed: Counter[str] = Counter()
        revisions: list[int] = []
        for row in rows:
            page = page_of(row["human_note"])
            if page is None:
                needed["no page"] += 1
                continue
            claim = key_words(row["text"])
            off_point = min(page.quotes, key=lambda s: len(claim & key_words(s)))
            note = assemble_note(off_point, [page.url])
            post = Post(text=row["text"], post_id=row["id"])
            episode = await store.create(NoteRequest(post_ref=row["id"]), post, MemoryMode.OFF)
            assert episode.id is not None
            await store.claim(episode.id, "bench", 60)
            await store.finish(
                episode.id,
                EpisodeOutcome(
                    status="noted",
                    note=note.text,
                    urls=note.urls,
                    char_count=note.length,
                    evidence=[page],
                ),
            )
            await store.approve(episode.id, "bench")
            outcome = await desk.submit(episode.id, "bench")
            if outcome.kind == "revised":  # approve the revision, then it is sent
                await store.approve(episode.id, "bench")
                outcome = await desk.submit(episode.id, "bench")
            scored = [e for e in await desk.evaluations(episode.id) if e.verdict != "held"]
            tried = max((e.revision for e in scored), default=0)
            needed[outcome.kind] += 1
            if outcome.kind == "submitted":
                revisions.append(tried)
        await engine.dispose()
        await client.close()
    server.stop()
    sent = len(revisions)
    print(f"{len(rows)} real posts (healthnotes_dev), bar {bar}, stand-in evaluator")
    print(f"outcomes: {dict(needed)}")
    if sent:
        spread = Counter(revisions)
        print(
            f"sent {sent}: revisions needed mean {statistics.mean(revisions):.2f}, "
            + ", ".join(f"{n} revision(s): {spread[n]}" for n in sorted(spread))
        )
    print(
        f"revisions asked: {reviser.asked}, dropped by the draft checks: {reviser.dropped}; "
        f"evaluator calls: {evaluator.calls} ({evaluator.calls / max(1, len(rows)):.2f} a post)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("posts", type=Path)
    parser.add_argument("--bar", type=float, default=0.7)
    parser.add_argument("--limit", type=int, default=40)
    args = parser.parse_args()
    asyncio.run(run(args.posts, args.bar, args.limit))


if __name__ == "__main__":
    main()
