"""What every backend does to its results: canonical URLs, no duplicates, the date cap."""

from __future__ import annotations

from datetime import UTC, datetime

from pipeline.evidence import SearchResult
from pipeline.urls import canonical_url


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def finish_results(
    results: list[SearchResult], limit: int, published_before: datetime | None
) -> list[SearchResult]:
    """Canonicalise, drop duplicates and results published after the cap, keep `limit`."""
    seen: set[str] = set()
    out: list[SearchResult] = []
    for result in results:
        if not result.url.lower().startswith(("http://", "https://")):
            continue
        try:
            url = canonical_url(result.url)
        except ValueError:  # a port out of range, a broken IPv6 literal: not a result to read
            continue
        if url in seen:
            continue
        if (
            published_before is not None
            and result.published is not None
            and _aware(result.published) > _aware(published_before)
        ):
            continue
        seen.add(url)
        out.append(result.model_copy(update={"url": url}))
        if len(out) >= limit:
            break
    return out


def parse_date(value: object) -> datetime | None:
    if not value or not isinstance(value, str):
        return None
    text = value.strip().replace("Z", "+00:00")
    for parse in (
        datetime.fromisoformat,
        lambda v: datetime.strptime(v, "%b %d, %Y"),
        lambda v: datetime.strptime(v, "%d %b %Y"),
    ):
        try:
            return parse(text)
        except ValueError:
            continue
    return None
