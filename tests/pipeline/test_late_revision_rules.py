"""When a note sent is looked at again (X's writer's 1 h and 3 h), and when the new draft is
kept: only a checked note that cites a new source of standing (`late_revision_rules`)."""

from __future__ import annotations

from datetime import timedelta

from pipeline.desk.late_revision_rules import adds_evidence, due_window, revisable, windows_of
from pipeline.evidence import Evidence
from pipeline.post import Post
from pipeline.trajectory import EpisodeOutcome, EpisodeStatus
from tests.fakes.submissions import NOW, live

CDC = "https://www.cdc.gov/vaccines/mmr-safety"
WHO = "https://www.who.int/news-room/measles"
BLOG = "https://vaccine-truth.example.com/autism"
POST = Post(text="Vaccines cause autism, the studies are hidden")


def page(url: str) -> Evidence:
    return Evidence(url=url, title="Measles", excerpt="The MMR vaccine is safe.", tier=4)


def draft(*urls: str, checked: bool | None = True) -> EpisodeOutcome:
    return EpisodeOutcome(
        status=EpisodeStatus.NOTED,
        note="Many studies found no link between the MMR vaccine and autism.",
        urls=list(urls),
        evidence=[page(u) for u in urls],
        support_checked=checked,
    )


def test_a_note_is_looked_at_again_in_the_1_h_and_the_3_h_windows_only() -> None:
    windows = windows_of([3, 1], open_h=1)
    note = live(1, days_ago=0)  # sent at NOW

    def window_at(hours: float) -> str | None:
        found = due_window(note, windows, NOW + timedelta(hours=hours))
        return found.name if found is not None else None

    assert [window_at(h) for h in (0.99, 1, 1.99, 2, 2.99, 3, 3.99, 4)] == [
        None,
        "1 h",
        "1 h",
        None,
        None,
        "3 h",
        "3 h",
        None,
    ]


def test_only_our_notes_on_x_still_there_and_not_rated_helpful_are_revised() -> None:
    assert revisable(live(1, 0, ("needs_more_ratings", 0)))
    assert revisable(live(1, 0, test_mode=True))
    assert not revisable(live(1, 0, ("currently_rated_helpful", 0)))
    withdrawn = live(1, 0)
    withdrawn.withdrawn_at = NOW
    assert not revisable(withdrawn)
    elsewhere = live(1, 0)
    elsewhere.destination = "bluesky"
    assert not revisable(elsewhere)


def test_a_new_draft_is_kept_only_with_a_new_source_of_standing_checked() -> None:
    kept = adds_evidence(draft(CDC, WHO), POST, cited_before=[CDC])
    assert kept.kept and kept.added == [WHO]
    # another spelling of a page cited is no new page
    same = adds_evidence(
        draft(CDC, WHO), POST, cited_before=[CDC, "http://who.int/news-room/measles/"]
    )
    assert not same.kept and same.why.startswith("adds no evidence")
    # a page without standing vouches for nothing, however new
    blog = adds_evidence(draft(CDC, BLOG), POST, cited_before=[CDC])
    assert not blog.kept
    unchecked = adds_evidence(draft(CDC, WHO, checked=False), POST, cited_before=[CDC])
    assert not unchecked.kept and "support check did not run" in unchecked.why
    declined = EpisodeOutcome(status=EpisodeStatus.ABSTAINED, abstain_reason="no evidence")
    assert adds_evidence(declined, POST, [CDC]).why == (
        "the new research wrote no note (no evidence)"
    )
