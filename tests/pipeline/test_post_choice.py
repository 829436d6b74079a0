"""Which posts a scan drafts: none past the age limit, young fast requested posts first, a few
per author a day, the best few a cycle; every post's fate said with its reason."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

from pipeline.post import NoteRequestSuggestion, Post
from pipeline.post_choice import PostChoice, ScanPolicy, choose, priority

NOW = datetime(2026, 12, 2, 12, tzinfo=UTC)


def post(
    n: int, hours_old: float, engaged: int | None, author: str = "a", asked: bool = False
) -> Post:
    return Post(
        text=f"post {n}",
        post_id=str(n),
        author=author,
        created_at=NOW - timedelta(hours=hours_old),
        engagement=engaged,
        requests=[NoteRequestSuggestion(text="needs context")] if asked else [],
    )


def taken(choices: list[PostChoice]) -> list[str | None]:
    return [c.post.post_id for c in choices if c.taken]


def test_a_post_past_the_age_limit_is_never_drafted() -> None:
    old, young = post(1, 30, 9000), post(2, 2, 10)
    choices = choose([old, young], NOW, ScanPolicy(max_age_h=24))
    assert taken(choices) == ["2"]
    skipped = next(c for c in choices if not c.taken)
    assert skipped.why == "30 h old, past the 24 h limit"


def test_young_fast_and_requested_posts_go_first() -> None:
    slow = post(1, 10, 100, author="s")  # 10 an hour
    fast = post(2, 1, 100, author="f")  # 100 an hour
    asked = post(3, 2, 120, author="q", asked=True)  # 60 an hour, doubled for the request
    choices = choose([slow, fast, asked], NOW, ScanPolicy())
    assert taken(choices) == ["3", "2", "1"]
    assert priority(asked, NOW) == 120.0
    assert (
        next(c for c in choices if c.post is asked).why == "120 engagements an hour, note requested"
    )


def test_the_best_few_a_cycle_and_a_few_per_author_a_day() -> None:
    posts = [post(n, 1, 100 - n, author="busy" if n < 4 else f"u{n}") for n in range(8)]
    policy = ScanPolicy(per_author_daily=3, per_cycle=4)
    choices = choose(posts, NOW, policy, drafted_today=Counter({"busy": 1}))
    assert taken(choices) == ["0", "1", "4", "5"]  # busy: 1 drafted today, 2 more allowed
    why = {c.post.post_id: c.why for c in choices if not c.taken}
    assert why["2"] == "@busy has 3 posts drafted today (the cap)"
    assert why["6"] == "4 better posts taken this cycle"


def test_without_metrics_or_time_posts_keep_the_order_they_came_in() -> None:
    unknown = [Post(text=f"p{n}", post_id=str(n)) for n in range(3)]
    assert taken(choose(unknown, NOW, ScanPolicy())) == ["0", "1", "2"]
    twice = choose([unknown[0], unknown[0]], NOW, ScanPolicy())
    assert len(twice) == 1  # the same post from two watches is chosen once


def test_a_cycle_with_no_room_in_todays_writing_limit_takes_nothing_and_says_so() -> None:
    choices = choose([post(1, 2, 500), post(2, 3, 50)], NOW, ScanPolicy(per_cycle=0))
    assert taken(choices) == []
    assert {c.why for c in choices} == {"today's writing limit has no room left"}
