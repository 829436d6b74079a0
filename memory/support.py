"""Who supports a lesson, by what was said of its episode rather than by who asked (#57).

An episode supports a lesson it taught only when its outcome agrees with the lesson's
direction: a Helpful verdict on X or a moderator's 👍 supports what the episode did (improve,
reuse); a Not Helpful verdict or a 👎 supports only the avoid lessons that name what went
wrong, never an improve lesson of the same episode. A watch or a scan is not a requester:
the operator configured what it searches, not what the posts it finds say, so a scanned post
carries no vouch (two watches that each found an attacker's post activated the attacker's
lesson with no moderator).
"""

from __future__ import annotations

import re

from memory.models import LessonStatus, MemoryItem
from memory.policy import MemoryPolicy
from memory.ports import FinishedEpisode
from memory.prompts import DistilledLesson, JudgeVerdict
from memory.standing import LessonKind
from pipeline.desk.outcomes import HELPFUL, NOT_HELPFUL
from pipeline.request import WATCH_SOURCE

# Requesters that never vouch, whatever the row says: an episode a watch or a scan queued
# ("x_watch:query:measles", "x_watch:eligible"); rows written before #57 said vouched.
_UNVOUCHED_PREFIXES = (f"{WATCH_SOURCE}:",)
CROWD_PREFIX = "x:raters:"


def vouches(requester: str) -> bool:
    """Whether a stored supporter counts toward activation: not a watch or a scan."""
    return bool(requester) and not requester.startswith(_UNVOUCHED_PREFIXES)


def vouched_support(item: MemoryItem) -> int:
    """The different supporters of a lesson that count toward its activation."""
    return len({r for r in item.requesters if vouches(r)})


def judged_badly(item: MemoryItem) -> bool:
    """Whether the episodes behind or using a lesson were voted down more than up (the
    moderators' 👎 and X's Not Helpful verdicts, applied by the evolver): such a lesson is
    vetoed from every prompt well before `retire_net_down` retires it."""
    return item.votes_down > item.votes_up


def direction(kind: LessonKind) -> int:
    """+1: a lesson of what to do; -1: of what to avoid."""
    return -1 if kind == LessonKind.AVOID else 1


def crowd_outcome(episode: FinishedEpisode) -> int:
    if episode.crowd_verdict == HELPFUL:
        return 1
    return -1 if episode.crowd_verdict in NOT_HELPFUL else 0


def moderators_outcome(episode: FinishedEpisode) -> int:
    net = sum(v.vote for v in episode.votes if not v.crowd)
    return (net > 0) - (net < 0)


# Words too common in lessons and reasons to say what went wrong by themselves.
_COMMON = frozenset(
    """about after also been before being from have into more most note notes only other over
    post posts same should than that their them then there these they this those very were
    what when where which while with would your raters across perspectives found helpful
    claim claims""".split()
)
_WORD = re.compile(r"[a-z]{4,}")


def _stems(text: str) -> set[str]:
    return {w[:5] for w in _WORD.findall(text.lower().replace("_", " ")) if w not in _COMMON}


def what_went_wrong(episode: FinishedEpisode, verdict: JudgeVerdict) -> str:
    """What people and the judge said went wrong: the 👎 reasons (X's raters' tags among
    them) and the judge's attributions of harm."""
    said = [v.reason or "" for v in episode.votes if v.vote < 0]
    said += [f"{h.phase.value} {h.what}" for h in verdict.hurt]
    return " ".join(said)


def names_what_went_wrong(lesson: DistilledLesson, wrong: str) -> bool:
    """An avoid lesson names what went wrong when it shares a word (by its first five
    letters, so "sources" meets X's tag "sources_missing") with what was said went wrong."""
    text = f"{lesson.trigger} {lesson.strategy} {lesson.rationale}"
    return bool(_stems(text) & _stems(wrong))


def supporters(
    episode: FinishedEpisode, kind: LessonKind, lesson: DistilledLesson, verdict: JudgeVerdict
) -> list[str]:
    """Who stands behind a lesson of `kind` the episode taught. Its requester, when a
    moderator vouches for them and it is not a watch; X's raters, when their verdict agrees
    with the lesson's direction — and for a lesson of what to avoid, only when it names what
    was said went wrong. An outcome against the lesson's direction (X's verdict, or the
    moderators' net vote) takes all support away: a note rated Not Helpful or voted down
    teaches no "do", one rated Helpful or voted up no "avoid". A moderator's vote adds no
    supporter of its own (the moderator who asked would count twice): a moderator activates
    a lesson by approving it."""
    way = direction(kind)
    crowd, moderators = crowd_outcome(episode), moderators_outcome(episode)
    if way in (-crowd, -moderators):
        return []
    found = []
    if episode.requester_vouched and vouches(episode.requester):
        found.append(episode.requester)
    agrees = way > 0 or names_what_went_wrong(lesson, what_went_wrong(episode, verdict))
    if agrees and crowd == way:
        found.append(f"{CROWD_PREFIX}{episode.id}")
    return found


def standing_reason(item: MemoryItem, policy: MemoryPolicy, contested: bool = False) -> str:
    """Why a lesson stands where it does, in a line: who supports it and, for a provisional
    one, what it lacks ("support 3" once read as above a bar of 2 while one requester stood
    behind it)."""
    counted = sorted({r for r in item.requesters if vouches(r)})
    ignored = sorted({r for r in item.requesters if not vouches(r)})
    who = ", ".join(counted) or "no one vouched for"
    if ignored:
        who += f" (not counted: {', '.join(ignored)})"
    if item.status == LessonStatus.RETIRED:
        return f"supported by {who}; retired: {item.why_retired or 'by a moderator'}"
    if item.status == LessonStatus.ACTIVE:
        how = (
            "by support"
            if len(counted) >= policy.activation_support and not policy.require_approval
            else "approved by a moderator"
        )
        vetoed = "; vetoed: voted down more than up" if judged_badly(item) else ""
        return f"supported by {who}; active {how}{vetoed}"
    if contested:
        why = "learned again as the opposite kind; a moderator must approve it again"
    elif policy.require_approval:
        why = "every lesson waits for a moderator's approval (require_approval)"
    elif len(counted) < policy.activation_support:
        why = f"{len(counted)} of {policy.activation_support} vouched supporters"
    else:
        why = "restored by a moderator; a moderator must approve it again"
    return f"supported by {who}; provisional: {why}"
