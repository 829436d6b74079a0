"""The memory study's pure parts: the split by post time and each post's prior experience."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from pipeline.evaluation.dataset import BenchPost
from pipeline.evaluation.report import render_markdown, summarise
from pipeline.evaluation.study import Prior, parse_split, prior_similarity, split_by_time

T0 = datetime(2021, 1, 1, tzinfo=UTC)


def post(n: int, days: int) -> BenchPost:
    return BenchPost(id=f"p{n}", text=f"post {n}", created_at=T0 + timedelta(days=days))


@pytest.mark.parametrize(("text", "share"), [("70:30", 0.7), ("2:1", 2 / 3), ("1:1", 0.5)])
def test_split_shares(text: str, share: float) -> None:
    assert parse_split(text) == pytest.approx(share)


@pytest.mark.parametrize("text", ["70", "0:1", "a:b", "1:2:3", "-1:2"])
def test_a_bad_split_says_what_it_takes(text: str) -> None:
    with pytest.raises(ValueError, match="TRAIN:TEST"):
        parse_split(text)


def test_the_earlier_part_trains_and_each_part_keeps_a_post() -> None:
    posts = [post(3, 30), post(1, 10), post(2, 20), post(4, 40)]
    train, test = split_by_time(posts, 0.5)
    assert [p.id for p in train] == ["p1", "p2"] and [p.id for p in test] == ["p3", "p4"]
    assert len(split_by_time(posts, 0.01)[0]) == 1
    assert len(split_by_time(posts, 0.99)[1]) == 1


def test_prior_experience_by_similarity_and_age() -> None:
    a, b = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    near_a = np.array([0.9, 0.1, 0.0])  # cosine 0.99 with a
    times = [T0, T0 + timedelta(days=10), T0 + timedelta(days=400), T0 + timedelta(days=401)]
    vectors = np.stack([a, b, near_a, b * 2])  # need not be unit length
    placed = prior_similarity(times, vectors)
    # a: nothing before; b: nothing similar; near_a: a, 400 days before; the last b: 391 days
    assert placed == [Prior.NONE, Prior.NONE, Prior.OLDER, Prior.OLDER]
    recent = prior_similarity([T0, T0 + timedelta(days=30)], np.stack([a, near_a]))
    assert recent == [Prior.NONE, Prior.RECENT]
    # a post at the same moment is not "earlier"
    assert prior_similarity([T0, T0], np.stack([a, a])) == [Prior.NONE, Prior.NONE]
    # the threshold decides what counts as similar
    assert prior_similarity([T0, T0 + timedelta(days=1)], np.stack([a, near_a]), 0.999) == [
        Prior.NONE,
        Prior.NONE,
    ]


def test_the_report_breaks_quality_down_by_prior_and_shows_growth_and_retrieval() -> None:
    base = {"note": "n", "failed_gate": None, "has_human_note": False, "times": {}}
    rows = [
        {**base, "id": "t", "split": "train", "helpful": True, "lessons_so_far": 2},
        {
            **base,
            "id": "x",
            "split": "test",
            "helpful": True,
            "prior": Prior.RECENT.value,
            "retrieval": {"retrieved": 2, "same_pattern": 1, "from_earlier_stream": 0},
            "lessons_so_far": 3,
            "reinforced_so_far": 1,
            "memory_size": 3,
        },
        {
            **base,
            "id": "y",
            "split": "test",
            "helpful": False,
            "prior": Prior.NONE.value,
            "retrieval": {"retrieved": 2, "same_pattern": 0, "from_earlier_stream": 2},
            "lessons_so_far": 4,
            "reinforced_so_far": 1,
            "retired_so_far": 1,
            "memory_size": 3,
        },
    ]
    summary = summarise(rows)
    assert summary["posts"] == 2  # the training part is not reported
    assert summary["by_prior"][Prior.RECENT.value]["helpful_rate"] == 1.0
    assert summary["by_prior"][Prior.NONE.value]["helpful_rate"] == 0.0
    assert Prior.OLDER.value not in summary["by_prior"]
    assert summary["memory"] == {
        "episodes": 3,
        "lessons_added": 4,
        "reinforced": 1,
        "retired": 1,
        "memory_size": 3,
        "items_per_episode": 1.0,
    }
    retrieval = summary["retrieval"]
    assert retrieval["lessons_per_episode"] == 2.0
    assert retrieval["same_pattern_share"] == 0.5  # 1 of the 2 lessons traced to an episode
    assert retrieval["from_earlier_stream_share"] == 0.5
    text = render_markdown({"full": summary}, "fixture")
    assert f"| full | {Prior.RECENT.value} | 1 | 100.0 | – |" in text
    assert "| full | 3 | 4 | 1 | 1 | 3 | 1.00 | 100.0 | 2.00 | 50.0 | 50.0 |" in text
