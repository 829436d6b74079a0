"""Judges driven by a scripted model, and metric formulas against hand-computed values."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pipeline.evaluation.judges import HierarchicalJudge, PairwiseJudge
from pipeline.evaluation.metrics import (
    domain_diversity,
    length_compliance,
    percentiles,
    semantic_diversity,
    source_quality,
    url_profile,
)
from tests.fakes.ports import FakeChatModel

NOTE = "Large studies found no link between MMR and autism. https://www.cdc.gov/x"


class Gates:
    """Passes every gate except the one named; records which gates were asked."""

    answers = frozenset({"GateVerdict"})

    def __init__(self, fail: str | None = None) -> None:
        self.fail = fail
        self.asked: list[str] = []

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
        system = messages[0]["content"]
        gate = (
            "relevance"
            if "bear directly" in system
            else "correctness"
            if "what the cited sources say" in system
            else "helpfulness"
        )
        self.asked.append(gate)
        return {"passed": gate != self.fail, "reason": f"{gate} checked"}


async def test_gates_run_in_order_and_stop_at_the_first_failure() -> None:
    gates = Gates()
    verdict = await HierarchicalJudge(FakeChatModel(gates)).judge("post", NOTE, [])
    assert verdict.helpful and verdict.failed_gate is None
    assert gates.asked == ["relevance", "correctness", "helpfulness"]
    failing = Gates(fail="correctness")
    verdict = await HierarchicalJudge(FakeChatModel(failing)).judge("post", NOTE, [])
    assert (verdict.helpful, verdict.failed_gate) == (False, 3)
    assert failing.asked == ["relevance", "correctness"]  # gate 4 never asked


async def test_length_is_gate_one_and_needs_no_model() -> None:
    gates = Gates()
    judge = HierarchicalJudge(FakeChatModel(gates))
    assert (await judge.judge("p", "x" * 300 + " https://a.org", [])).failed_gate == 1
    assert (await judge.judge("p", "no link at all", [])).failed_gate == 1
    assert gates.asked == []


class PrefersA:
    answers = frozenset({"PairwiseVerdict"})

    def __init__(self, overall: str = "A") -> None:
        self.overall = overall

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
        return {
            "overall": self.overall,
            "understandability": "A",
            "meaningfulness": "B",
            "usability": "tie",
            "trustworthiness": "A",
            "reason": "",
        }


async def test_random_order_is_undone() -> None:
    rng = random.Random(1)
    judge = PairwiseJudge(FakeChatModel(PrefersA()), rng=random.Random(1))
    results = [await judge.compare("post", "ours", "human") for _ in range(20)]
    ours_first = [rng.random() < 0.5 for _ in range(20)]
    assert [r.overall for r in results] == ["win" if f else "loss" for f in ours_first]
    assert {True, False} <= set(ours_first)  # both orders were exercised
    first = results[ours_first.index(True)]
    assert first.dimensions == {
        "understandability": "win",
        "meaningfulness": "loss",
        "usability": "tie",
        "trustworthiness": "win",
    }


async def test_ties_count_half() -> None:
    judge = PairwiseJudge(FakeChatModel(PrefersA("tie")))
    scores = [(await judge.compare("p", "a", "b")).score for _ in range(4)]
    assert scores == [0.5] * 4


def test_source_quality_and_diversity_by_hand() -> None:
    urls = ["https://www.cdc.gov/a", "https://www.bmj.com/b", "https://blog.example.com/c"]
    q_bmj = 100 * math.log(3) / math.log(4)
    assert source_quality(urls) == pytest.approx((100 + q_bmj + 0) / 3)
    assert source_quality([]) is None
    assert domain_diversity(urls) == pytest.approx(1.0)
    same = ["https://www.cdc.gov/a", "https://wwwnc.cdc.gov/b"]
    assert domain_diversity(same) == pytest.approx(0.0)
    mixed = ["https://cdc.gov/a", "https://cdc.gov/b", "https://who.int/c"]
    expected = -(2 / 3 * math.log(2 / 3) + 1 / 3 * math.log(1 / 3)) / math.log(3)
    assert domain_diversity(mixed) == pytest.approx(expected)


def test_semantic_diversity_length_and_urls_by_hand() -> None:
    identical = np.array([[1.0, 0.0], [1.0, 0.0]])
    orthogonal = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert semantic_diversity(identical) == pytest.approx(0.0)
    assert semantic_diversity(orthogonal) == pytest.approx(1.0)
    assert length_compliance([NOTE, "y" * 281]) == 0.5
    assert url_profile([["a"], ["a", "b", "c"]]) == (2.0, 0.5)
    assert percentiles([4, 1, 3, 2]) == {"p50": 2, "p95": 4, "mean": 2.5}


def test_a_dataset_post_time_without_a_zone_is_utc(tmp_path: Path) -> None:
    from datetime import UTC

    from pipeline.evaluation.dataset import load_jsonl

    data = tmp_path / "posts.jsonl"
    data.write_text(
        '{"id": "a", "text": "MMR causes autism", "created_at": "2025-02-10T09:30:00"}\n'
        '{"id": "b", "text": "Fluoride is poison", "created_at": "2025-02-10T08:00:00+00:00"}\n',
        encoding="utf-8",
    )
    posts = load_jsonl(data)
    assert [p.id for p in posts] == ["b", "a"]
    assert all(p.created_at.tzinfo is not None for p in posts)
    assert posts[1].created_at.tzinfo == UTC
