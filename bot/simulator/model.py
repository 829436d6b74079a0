"""A deterministic stand-in for a model: reads the prompt, answers every schema EvoNote asks.

It drives the latency-simulating model server (`evonote bench simulate`), the in-process fake
model of the tests and the scripted server of the end-to-end tests — one behaviour for all.
It researches like a careful model (search the top gap, read the best results, write citing
what was read) but knows nothing: numbers measured with it are about the bot, not a model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

Policy = Callable[[str, list[dict[str, Any]]], Any]

_STATE = re.compile(r"<untrusted_state>\n(.*?)\n</untrusted_state>", re.DOTALL)
_RESEARCH = re.compile(r"<untrusted_research>\n(.*?)\n</untrusted_research>", re.DOTALL)
_LINKS = re.compile(r"<untrusted_links>\n(.*?)\n</untrusted_links>", re.DOTALL)
_PAGE = re.compile(r"<untrusted_page>\nTitle: [^\n]*\n\n(.*)\n</untrusted_page>", re.DOTALL)
# A clause of the support check's request: "[n] text (cites: …)".
_CLAUSE = re.compile(r"^\[(\d+)\] (.*) \(cites: [^\n]*\)$", re.MULTILINE)
_SOURCES = re.compile(r"<untrusted_sources>\n(.*?)\n</untrusted_sources>", re.DOTALL)
_POST = re.compile(r"<untrusted_post>\n(.*?)\n</untrusted_post>", re.DOTALL)
_NOTE = re.compile(r"<untrusted_note>\n(.*?)\n</untrusted_note>", re.DOTALL)


def page_notes(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """Quote the page's first sentence, as a careful reader would quote its key line."""
    match = _PAGE.search(messages[-1]["content"])
    lines = (match.group(1) if match else "").splitlines()
    first = lines[0].split("] ", 1)[-1][:250] if lines else ""
    return {"relevant": bool(first), "quote_sentences": [1] if first else []}


def all_supported(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """Every clause supported, each with the source sentence sharing the most words with it
    as its quote: a checker that judges nothing, whose quotes code verifies."""
    content = messages[-1]["content"]
    sources_block = _SOURCES.search(content)
    sources = json.loads(sources_block.group(1)) if sources_block else []
    sentences = [
        s.strip()
        for source in sources
        for text in [*(source.get("quotes") or []), source.get("excerpt") or ""]
        for s in re.split(r"(?<=[.!?])\s+|\n+", text)
        if s.strip()
    ]
    verdicts = []
    for n, clause in _CLAUSE.findall(content):
        words = set(re.findall(r"\w{3,}", clause.lower()))
        best = max(
            sentences,
            key=lambda s: len(words & set(re.findall(r"\w{3,}", s.lower()))),
            default="",
        )
        verdicts.append({"index": int(n), "supported": True, "quote": best, "problem": ""})
    return {"verdicts": verdicts}


def revised_note(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """A revision as a careful writer makes one: the source sentences closest to the post's
    claim, quoted, one more than the note it revises has (each revision answers more of the
    claim), within the note's length; each cited to its page."""
    content = messages[-1]["content"]
    sources_block, post_block = _SOURCES.search(content), _POST.search(content)
    note_block = _NOTE.search(content)
    sources = json.loads(sources_block.group(1)) if sources_block else []
    post = post_block.group(1) if post_block else ""
    note = note_block.group(1) if note_block else ""
    words = set(re.findall(r"\w{4,}", post.lower()))
    ranked = sorted(
        (
            (len(words & set(re.findall(r"\w{4,}", q.lower()))), q, s["url"])
            for s in sources
            for q in s.get("quotes") or []
            if q
        ),
        key=lambda r: -r[0],
    )
    wanted = len(re.findall(r"[.!?](?:\s|$)", note)) + 1
    chosen: list[tuple[str, str]] = []
    for _, quote, url in ranked:
        if len(chosen) == wanted or sum(len(q) + 1 for q, _ in chosen) + len(quote) > 250:
            continue
        chosen.append((quote, url))
    chosen = chosen or [(q, u) for _, q, u in ranked[:1]]
    text = " ".join(q for q, _ in chosen) or post
    support = [{"claim": q[:200], "url": u, "quote": q} for q, u in chosen]
    return {"thought": "", "action": {"kind": "write", "text": text, "support": support}}


def satisfactory(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "understandability": 4,
        "meaningfulness": 4,
        "usability": 3,
        "trustworthiness": 4,
        "helped": [{"phase": "evidence_acquisition", "what": "read an official page"}],
        "hurt": [],
        "utility_mode": "Satisfactory",
        "feedback": "Accurate and sourced; could name the agency.",
    }


def one_lesson(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "lessons": [
            {
                "phase": "evidence_acquisition",
                "trigger": "posts claiming a vaccine causes a chronic condition",
                "strategy": "search the health agency's vaccine safety pages before news coverage",
                "rationale": "agency pages summarise the large studies",
            }
        ]
    }


def helpful_rating(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "helpfulness": "helpful",
        "agree": True,
        "confidence": 4,
        "helpful_reasons": ["GoodSources", "Clear"],
        "not_helpful_reasons": [],
        "rationale": "The note answers the claim with a named health body's finding.",
        "understanding": 4,
    }


def passed_gate(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {"passed": True, "reason": "looks right"}


def prefer_first(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "overall": "A",
        "understandability": "A",
        "meaningfulness": "tie",
        "usability": "A",
        "trustworthiness": "tie",
        "reason": "",
    }


DEFAULTS: dict[str, Callable[[list[dict[str, Any]]], Any]] = {
    "GateVerdict": passed_gate,
    "PairwiseVerdict": prefer_first,
    "RatingForm": helpful_rating,
    "DoctorProbe": lambda messages: {"ok": True},
    "SpeedProbe": lambda messages: {"text": DEFAULT_PROSE},
    "NoteClassification": lambda messages: {
        "classification": "misinformed_or_potentially_misleading",
        "misleading_tags": ["factual_error", "missing_important_context"],
    },
    "PageNotes": page_notes,
    "SupportVerdicts": all_supported,
    "ClaimAnswered": lambda messages: {"answers_the_claim": True, "why": ""},
    "NoteRevision": revised_note,
    # the careful writer's drafts pass; when a test's do not, it words nothing from sentences
    "FocusedNote": lambda messages: {"text": "", "used": []},
    "JudgeVerdict": satisfactory,
    "DistilledLessons": one_lesson,
}


def answer(policy: Policy, schema: str, messages: list[dict[str, Any]]) -> Any:
    """Page notes, support checks, judging and distilling follow the defaults above unless
    the policy names the schema in its `answers` attribute."""
    if schema in DEFAULTS and schema not in getattr(policy, "answers", ()):
        return DEFAULTS[schema](messages)
    return policy(schema, messages)


DEFAULT_BRIEF: dict[str, Any] = {
    "claim_pattern": "vaccine_risk",
    "checkworthy_claims": ["The measles vaccine causes autism."],
    "gaps": [
        {
            "type": "unsubstantiated_claim",
            "description": "No evidence is given that the vaccine causes autism.",
            "priority": 5,
            "suggested_query": "measles vaccine autism",
        }
    ],
    "evidence_needs": ["health agency guidance on vaccine safety"],
    "note_intent": "correction",
    "language": "en",
    "applicable_memories": [],
}

# What the pages on measles say, in MedQuAD and in the tests' own pages alike: the stand-in's
# note must be one its evidence bears out, or the checks rightly refuse it (MedQuAD has no page
# on the MMR vaccine and autism).
DEFAULT_PROSE = "Measles is caused by a virus, and the MMR vaccine protects against it."


def state_of(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """What an agent turn's prompt says, read back from its research log: the searches done,
    every search result with its status (read, unreadable, not visited), the pages read, the
    post's links and the budget left."""
    # the agent's prompt, also when a repair request follows it
    prompts = [m["content"] for m in reversed(messages) if _STATE.search(m["content"])]
    if not prompts:
        raise AssertionError("the prompt carries no <untrusted_state> block")
    prompt = prompts[0]
    match = _STATE.search(prompt)
    assert match is not None
    research = _RESEARCH.search(prompt)
    lines = research.group(1).splitlines() if research else []
    entries = [json.loads(line) for line in lines if line.startswith("{")]
    read = {e["read"]: e for e in entries if "read" in e}
    unreadable = {e["unreadable"]: e["why"] for e in entries if "unreadable" in e}

    def status(url: str) -> str:
        if url in read:
            return "read"
        return f"unreadable: {unreadable[url]}" if url in unreadable else "not visited"

    links = _LINKS.search(prompt)
    return {
        "budget": json.loads(match.group(1)),
        "searches_done": [e["search"] for e in entries if "search" in e],
        "searches_by_agent": [e["search"] for e in entries if "search" in e and "by" not in e],
        "search_results": [
            {"url": url, "tier": tier, "title": title, "snippet": snippet, "status": status(url)}
            for e in entries
            for url, tier, title, snippet in e.get("results", [])
        ],
        "evidence": [
            {"url": url, **{k: v for k, v in e.items() if k != "read"}} for url, e in read.items()
        ],
        "post_links": json.loads(links.group(1)) if links else [],
    }


def search(query: str) -> dict[str, Any]:
    return {"thought": "", "action": {"kind": "search", "query": query}}


def visit(*urls: str, goal: str = "what the page says about the claim") -> dict[str, Any]:
    targets = [{"url": u, "goal": goal} for u in urls]
    return {"thought": "", "action": {"kind": "visit", "targets": targets}}


def write(text: str, urls: list[str], quotes: dict[str, str] | None = None) -> dict[str, Any]:
    quotes = quotes or {}
    support = [{"claim": text[:200], "url": u, "quote": quotes.get(u, "")} for u in urls]
    return {"thought": "", "action": {"kind": "write", "text": text, "support": support}}


def best_quote(text: str, evidence: dict[str, Any]) -> str:
    """The sentence of a read page (its quotes, else its excerpt) sharing most words with
    `text`, copied exactly — as a careful writer cites."""
    candidates = list(evidence.get("quotes") or [])
    candidates += re.split(r"(?<=[.!?])\s+", evidence.get("excerpt", ""))
    words = set(re.findall(r"\w{4,}", text.lower()))
    scored = [
        (len(words & set(re.findall(r"\w{4,}", c.lower()))), c)
        for c in candidates
        if c and len(c) <= 500  # the schema's limit for a quote
    ]
    return max(scored, default=(0, ""))[1]


def abstain(reason: str) -> dict[str, Any]:
    return {"thought": "", "action": {"kind": "abstain", "reason": reason}}


State = dict[str, Any]


class ScriptedSteps:
    """Brief, one search, one visit, then writes — the URLs chosen by the test."""

    def __init__(
        self,
        *,
        visit_urls: Callable[[State], list[str]],
        write_urls: Callable[[State], list[str]],
        text: str = "Studies find no link between the MMR vaccine and autism.",
    ) -> None:
        self.visit_urls = visit_urls
        self.write_urls = write_urls
        self.text = text

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
        if schema == "VerificationBrief":
            return DEFAULT_BRIEF
        state = state_of(messages)
        if schema == "AgentTurn" and not state["searches_done"]:
            return search("measles")
        if schema == "AgentTurn" and not state["evidence"]:
            return visit(*self.visit_urls(state))
        return write(self.text, self.write_urls(state))


class ResearchPolicy:
    """Search the top gap, read the best results, write citing what was read. `rounds`: how
    many searches (each followed by a visit of its unread results) come before the write — 1
    gives the 3-turn episode, 6 a paper-like 12-13 turns."""

    def __init__(
        self,
        *,
        brief: dict[str, Any] | None = None,
        prose: str = DEFAULT_PROSE,
        pages_per_visit: int = 2,
        cite: int = 2,
        rounds: int = 1,
    ) -> None:
        self.brief = brief or DEFAULT_BRIEF
        self.prose = prose
        self.pages_per_visit = pages_per_visit
        self.cite = cite
        self.rounds = rounds
        self.calls: list[str] = []

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
        self.calls.append(schema)
        if schema == "VerificationBrief":
            return self.brief
        state = state_of(messages)
        if schema == "FinalTurn":
            return self.write_or_abstain(state)
        done = state["searches_by_agent"]
        unread = [r["url"] for r in state["search_results"] if r["status"] == "not visited"]
        budget = state["budget"]
        # after each search, read its results (once), then search the next gap
        if done and unread and self.last_turn_searched(messages) and budget["visits_left"]:
            return visit(*unread[: self.pages_per_visit])
        if len(done) < self.rounds and budget["searches_left"]:
            return search(self.query(len(done), state["searches_done"]))
        if not state["evidence"] and unread and budget["visits_left"]:
            return visit(*unread[: self.pages_per_visit])
        return self.write_or_abstain(state)

    @staticmethod
    def last_turn_searched(messages: list[dict[str, Any]]) -> bool:
        """The last turn searched, and code did not read its best results already."""
        prompt = next(
            (m["content"] for m in reversed(messages) if "## Last observation\n" in m["content"]),
            "",
        )
        observation = prompt.split("## Last observation\n", 1)[-1]
        return observation.startswith("Search '") and "Read by code" not in observation

    def query(self, n: int, done: list[str]) -> str:
        gaps = self.brief["gaps"]
        base = gaps[n % len(gaps)]["suggested_query"]
        return base if base not in done else f"{base} evidence {n}"

    def write_or_abstain(self, state: State) -> dict[str, Any]:
        read = [e["url"] for e in state["evidence"]]
        if not read:
            return abstain("no source could be read")
        quotes = {e["url"]: best_quote(self.prose, e) for e in state["evidence"]}
        return write(self.prose, read[: self.cite], quotes)
