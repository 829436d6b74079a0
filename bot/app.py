"""The only place that builds concrete objects from Settings."""

from __future__ import annotations

import asyncio
import base64
import os
import tempfile
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import httpx
import openai
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.embeddings.minilm import LocalEmbedder, ModelNotInstalled, model_folder
from adapters.local_corpus import LocalCorpus
from adapters.model_pool import ModelPool
from adapters.openai_chat import OpenAIChatModel
from adapters.openai_vision import OpenAICaptioner
from adapters.request_spool import FileSpool
from adapters.search.http_backends import BraveSearch, SearxngSearch, SerperSearch, TavilySearch
from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.memory_store import SqlMemoryStore
from adapters.sqlstore.submissions import SubmissionStore
from adapters.web.cookies import no_cookies
from adapters.x.community_notes import SUBMISSIONS_PER_DAY
from bot.database import open_database
from bot.metrics import Metrics
from bot.process import owner_id
from bot.progress import ProgressBar
from bot.settings import ConfigurationError, Settings
from bot.watch import LastScan
from memory.curation import LessonDesk
from memory.experience import ExperienceMemory
from memory.ports import Embedder, MemoryStore
from pipeline.desk.admission import AdmissionGate, ObservedModel
from pipeline.desk.cards import EpisodeCrowdVerdicts
from pipeline.desk.destination import NotesDestination
from pipeline.desk.moderation import ModeratorDesk
from pipeline.desk.note_desk import NoteDesk
from pipeline.desk.notes import NoteService
from pipeline.desk.posts import PostResolver
from pipeline.desk.send_order import SendPolicy
from pipeline.desk.submission import SubmissionDesk
from pipeline.episode import EpisodeRunner
from pipeline.forecast.aggregate import BridgingRule
from pipeline.forecast.panel import PersonaPanel
from pipeline.forecast.personas import PersonaSet
from pipeline.forecast.stacking import StackedAggregator
from pipeline.ports import ChatModel, MemoryMode, NoMemory, PageReader, PostSource, SearchEngine
from pipeline.post_choice import ScanPolicy
from scheduler.jobs import Job, JobScheduler

if TYPE_CHECKING:
    import discord
    from slack_sdk.web.async_client import AsyncWebClient

    from adapters.x.community_notes import CommunityNotesApi
    from bot.discord.frontend import DiscordFrontend
    from bot.slack.frontend import SlackFrontend
    from bot.watch import WatchScanner
    from memory.evolve import Evolver
    from pipeline.desk.late_revisions import LateRevisions

# Adapters that only some configurations use (X, the web reader, other search backends, the
# evolve job) are imported where they are built, so a command starts without them.


@dataclass
class App:
    settings: Settings
    store: EpisodeStore
    notes: NoteService
    model: OpenAIChatModel
    memory: ExperienceMemory | None
    engine: AsyncEngine
    client: openai.AsyncOpenAI
    desk: ModeratorDesk
    cards: NoteDesk  # request → card → episode → card → forecast, for every caller
    submitter: SubmissionDesk | None = None
    notes_api: CommunityNotesApi | None = None  # the submitter's destination, and its feed
    metrics: Metrics | None = None
    scans: LastScan = field(default_factory=LastScan)  # the App Home shows the last one


def make_embedder(settings: Settings) -> Embedder:
    m = settings.memory
    if m.embedder == "openai":
        if not m.embedding_model:
            raise ConfigurationError(
                "EVONOTE_MEMORY__EMBEDDING_MODEL is not set "
                "(needed by EVONOTE_MEMORY__EMBEDDER=openai)"
            )
        client = openai_client(
            m.embedding_base_url or settings.llm.base_url,
            settings.llm.api_key.get_secret_value(),
            max_retries=settings.llm.max_retries,
            closed_by_caller=False,  # embedders are made in passing and dropped
        )
        from adapters.embeddings.openai_embeddings import OpenAIEmbedder

        return OpenAIEmbedder(client, m.embedding_model, m.embedding_dimension)
    try:
        model_folder()
    except ModelNotInstalled as e:
        raise ConfigurationError(str(e)) from e
    return LocalEmbedder()


async def open_memory(settings: Settings, engine: AsyncEngine) -> ExperienceMemory | None:
    """The experience memory, its indexes derived from the database; None when it is off."""
    m = settings.memory
    if m.mode == MemoryMode.OFF:
        return None
    memory = ExperienceMemory(
        SqlMemoryStore(engine),
        make_embedder(settings),
        m,  # the settings section is the memory's policy
        index_dir=settings.data_dir / "memory-index",
    )
    with ProgressBar("rebuilding the memory index", unit="lessons") as bar:
        await memory.load(bar)
    return memory


def make_evolver(
    settings: Settings,
    engine: AsyncEngine,
    memory: ExperienceMemory,
    client: openai.AsyncOpenAI,
    judge_after_s: float | None = None,
) -> Evolver:
    """The evolve job; `judge_after_s` overrides the wait for votes (the CLI judges now)."""
    from adapters.sqlstore.episode_feed import SqlEpisodeFeed
    from memory.distil import Distiller
    from memory.echo import PostEcho
    from memory.evolve import Evolver
    from memory.judge import SocialUtilityJudge

    llm = settings.llm
    judge_model = make_judge_model(settings, client)
    return Evolver(
        SqlEpisodeFeed(engine),
        memory,
        SocialUtilityJudge(judge_model, llm.call_timeout_s),
        Distiller(
            judge_model,
            llm.call_timeout_s,
            PostEcho(memory.embedder, settings.memory.post_echo_similarity),
        ),
        mode=settings.memory.mode,
        batch=settings.memory.batch,
        merge=settings.memory.merge,
        judge_after_s=settings.memory.judge_after_s if judge_after_s is None else judge_after_s,
    )


def token_caps(settings: Settings) -> dict[str, int]:
    """Each call type's output cap: the defaults beside the prompts, then the settings'."""
    from memory.prompts import MAX_TOKENS as MEMORY
    from pipeline.evaluation.prompts import MAX_TOKENS as EVALUATION
    from pipeline.forecast.prompts import MAX_TOKENS as FORECAST
    from pipeline.prompts import MAX_TOKENS as EPISODE

    return {**EPISODE, **FORECAST, **MEMORY, **EVALUATION, **settings.llm.max_tokens_by_call}


def make_judge_model(settings: Settings, client: openai.AsyncOpenAI) -> OpenAIChatModel:
    """The model that judges (episodes, benchmark notes): deterministic."""
    llm = settings.llm
    return OpenAIChatModel(
        client,
        model=llm.judge_model or llm.writer_model,
        temperature=0.0,
        max_tokens=llm.max_tokens,
        max_tokens_for=token_caps(settings),
    )


def openai_client(
    base_url: str,
    api_key: str = "",
    *,
    max_retries: int = 0,
    timeout_s: float | None = None,
    closed_by_caller: bool = True,
) -> openai.AsyncOpenAI:
    """An OpenAI-compatible client over the SDK's aiohttp transport, which costs ~0.8 ms less
    CPU per call than its default httpx one (`python -m bench.overhead`: an episode makes 12).
    Credentials in the URL (a proxy's basic auth) become the Authorization header, as httpx
    would send them; aiohttp refuses them beside the SDK's bearer header. A client that will
    be dropped without `close()` keeps the httpx transport, whose pool may be dropped.
    """
    url = httpx.URL(base_url)
    headers = {}
    if url.userinfo:
        basic = base64.b64encode(f"{url.username}:{url.password}".encode()).decode()
        headers["Authorization"] = f"Basic {basic}"
        url = url.copy_with(username=None, password=None)
    return openai.AsyncOpenAI(
        base_url=str(url),
        api_key=api_key or "EMPTY",
        max_retries=max_retries,
        timeout=openai.DEFAULT_TIMEOUT if timeout_s is None else timeout_s,
        default_headers=headers,
        http_client=openai.DefaultAioHttpClient() if closed_by_caller else None,
    )


def make_llm_client(settings: Settings, base_url: str | None = None) -> openai.AsyncOpenAI:
    llm = settings.llm
    return openai_client(
        base_url or llm.base_url,
        llm.api_key.get_secret_value(),
        max_retries=llm.max_retries,
        timeout_s=llm.call_timeout_s,
    )


def make_writer(settings: Settings, first: OpenAIChatModel) -> ChatModel:
    """The writer model: one endpoint, or a pool of replicas serving the same model."""
    replicas = [url.strip() for url in settings.llm.replicas.split(",") if url.strip()]
    if not replicas:
        return first
    others = [make_chat_model(settings, url)[0] for url in replicas]
    return ModelPool([first, *others])


def make_chat_model(
    settings: Settings, base_url: str | None = None
) -> tuple[OpenAIChatModel, openai.AsyncOpenAI]:
    llm = settings.llm
    client = make_llm_client(settings, base_url)
    extra = {"chat_template_kwargs": {"enable_thinking": False}} if llm.disable_thinking else None
    model = OpenAIChatModel(
        client,
        model=llm.writer_model,
        temperature=llm.temperature,
        max_tokens=llm.max_tokens,
        extra_body=extra,
        max_tokens_for=token_caps(settings),
    )
    return model, client


def spool_of(settings: Settings) -> FileSpool:
    """Where `serve` keeps requests the database cannot take (the data folder: local disk)."""
    return FileSpool(settings.data_dir.expanduser() / "spool")


def prepare_data_dir(settings: Settings) -> None:
    """The data folder exists and can be written, or one line says so (every cache, index and
    the SQLite database live there: a failure later would blame whichever came first)."""
    folder = settings.data_dir.expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(13, "not writable")
        # a file written and removed: os.access says yes to root on /sys/kernel and to a
        # read-only mount
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".evonote-probe-"):
            pass
    except OSError as e:
        raise ConfigurationError(
            f"EVONOTE_DATA_DIR: {folder} cannot be used ({e.strerror or e}): set it to a "
            "folder this user can create and write"
        ) from e


async def open_corpus(settings: Settings) -> LocalCorpus:
    path = settings.search.corpus
    if path is None:
        raise ConfigurationError(
            "no evidence corpus is configured: set EVONOTE_SEARCH__CORPUS to a JSONL file of "
            "{url, title, text} documents (e.g. ../shared/data/medquad/medquad_docs.jsonl) or "
            "an index folder, or choose a web backend with EVONOTE_SEARCH__BACKEND"
        )
    try:
        return await LocalCorpus.open(path.expanduser(), settings.data_dir / "corpus-cache")
    except (OSError, ValueError) as e:
        raise ConfigurationError(f"EVONOTE_SEARCH__CORPUS: {e}") from e


def _key(settings: Settings, name: str) -> str:
    secret = getattr(settings.search, f"{name}_api_key")
    if secret is None or not secret.get_secret_value():
        raise ConfigurationError(
            f"EVONOTE_SEARCH__{name.upper()}_API_KEY is not set "
            f"(needed by EVONOTE_SEARCH__BACKEND={name})"
        )
    return str(secret.get_secret_value())


def make_web_search(settings: Settings, client: httpx.AsyncClient) -> SearchEngine:
    s = settings.search
    common = {"retries": s.retries}
    if s.backend == "searxng":
        if not s.searxng_url:
            raise ConfigurationError(
                "EVONOTE_SEARCH__SEARXNG_URL is not set (needed by EVONOTE_SEARCH__BACKEND=searxng)"
            )
        return SearxngSearch(client, s.searxng_url, **common)
    if s.backend == "serper":
        return SerperSearch(client, _key(settings, "serper"), **common)
    if s.backend == "brave":
        return BraveSearch(client, _key(settings, "brave"), **common)
    if s.backend == "tavily":
        return TavilySearch(client, _key(settings, "tavily"), **common)
    from adapters.search.ddgs_search import DdgsSearch

    return DdgsSearch(timeout_s=s.timeout_s)


async def make_evidence(
    settings: Settings, client: httpx.AsyncClient, stack: AsyncExitStack | None = None
) -> tuple[SearchEngine, PageReader]:
    """The search engine and the page reader the settings ask for (a web reader's extraction
    children are stopped with `stack`)."""
    local = settings.search.backend == "local"
    use_corpus_reader = settings.reader.source == "corpus" or (
        settings.reader.source == "auto" and local
    )
    corpus = await open_corpus(settings) if local or use_corpus_reader else None
    if corpus is not None and settings.search.dense:
        with ProgressBar("embedding the corpus (once)", unit="documents") as bar:
            await corpus.add_dense(make_embedder(settings), on_progress=bar)
    search: SearchEngine = corpus if local and corpus else make_web_search(settings, client)
    if use_corpus_reader and corpus is not None:
        return search, corpus
    from adapters.web.address_guard import SystemResolver
    from adapters.web.extraction import ExtractionLimits, IsolatedExtractor
    from adapters.web.page_cache import PageCache
    from adapters.web.reader import GuardedPageReader

    r = settings.reader
    cache = PageCache(settings.data_dir / "pages", r.cache_ttl_s) if r.cache_ttl_s else None
    reader = GuardedPageReader(
        client,
        SystemResolver(),
        cache=cache,
        max_bytes=r.max_bytes,
        max_redirects=r.max_redirects,
        timeout_s=settings.budget.page_timeout_s,
        user_agent=r.user_agent,
        extractor=IsolatedExtractor(
            ExtractionLimits(r.extract_timeout_s, r.extract_memory_mb << 20, r.extract_processes)
        ),
    )
    if stack is not None:
        stack.push_async_callback(reader.aclose)
    from adapters.web.wiki_revisions import SettledWikiReader

    return search, SettledWikiReader(reader, r.wiki_settled_hours)


# X's cap per account, for the CLI's quota line (front ends do not import the adapters)
X_SUBMISSIONS_PER_DAY = SUBMISSIONS_PER_DAY


def make_notes_api(settings: Settings, http: httpx.AsyncClient) -> CommunityNotesApi | None:
    """X's Community Notes API, when its OAuth 1.0a credentials are set."""
    parts = settings.x.credentials()
    if parts is None:
        return None
    from adapters.x.community_notes import CommunityNotesApi
    from adapters.x.oauth import OAuth1Credentials

    x = settings.x
    return CommunityNotesApi(
        http,
        OAuth1Credentials(*parts),
        base_url=x.notes_api_url,
        evaluate_path=x.evaluate_path,
        timeout_s=x.timeout_s,
        feed_size=x.feed_size,
        feed_lang=x.feed_lang,
        test_mode=x.test_mode,
    )


def make_notes_destinations(
    settings: Settings, http: httpx.AsyncClient, x_api: CommunityNotesApi | None
) -> list[NotesDestination]:
    """Where approved notes may go: X (with its OAuth credentials), Open Community Notes on
    Bluesky (with an account's app password)."""
    destinations: list[NotesDestination] = [x_api] if x_api is not None else []
    b = settings.bluesky
    if (account := b.credentials()) is not None:
        from adapters.bluesky_notes import OpenCommunityNotes

        destinations.append(
            OpenCommunityNotes(
                http,
                *account,
                pds_url=b.pds_url,
                daily_cap=b.proposals_per_day,
                timeout_s=b.timeout_s,
                test_mode=b.test_mode,
            )
        )
    return destinations


def make_submitter(
    settings: Settings,
    engine: AsyncEngine,
    http: httpx.AsyncClient,
    model: OpenAIChatModel,
    api: CommunityNotesApi | None = None,
) -> SubmissionDesk | None:
    """Submission to the notes destinations configured (X, Bluesky), when any is (`api`: the
    X API the watch feed shares, for one request quota)."""
    from adapters.web.address_guard import SystemResolver
    from adapters.web.reader import GuardedPageReader
    from pipeline.revision import EpisodeReviser

    destinations = make_notes_destinations(settings, http, api or make_notes_api(settings, http))
    if not destinations:
        return None
    # links are checked as X checks them, through the same guards as any page read
    r = settings.reader
    links = GuardedPageReader(
        http,
        SystemResolver(),
        max_redirects=r.max_redirects,
        timeout_s=settings.budget.page_timeout_s,
        user_agent=r.user_agent,
    )
    return SubmissionDesk(
        EpisodeStore(engine),
        SubmissionStore(engine),
        destinations,
        model,
        EpisodeReviser(model, timeout_s=settings.llm.call_timeout_s),
        links,
        min_claim_opinion=settings.x.min_claim_opinion,
        max_revisions=settings.x.max_revisions,
        send_policy=SendPolicy(settings.x.min_net_helpful, settings.x.explore_share),
    )


def make_post_sources(settings: Settings, http: httpx.AsyncClient) -> list[PostSource]:
    """Where posts come from by URL, in order: X's API when a bearer token is set, X's embed
    (no key; also when the API refuses for tier or quota), Bluesky, Mastodon servers."""
    from adapters.bluesky import BlueskyPostSource
    from adapters.mastodon import MastodonPostSource
    from adapters.web.address_guard import SystemResolver
    from adapters.x.oembed import XOEmbedSource

    timeout = settings.x.timeout_s
    sources: list[PostSource] = []
    token = settings.x.bearer_token
    if token is not None:
        from tweepy.asynchronous import AsyncClient

        from adapters.x.posts import XPostSource

        client = AsyncClient(bearer_token=token.get_secret_value(), wait_on_rate_limit=False)
        sources.append(XPostSource(client, timeout))
    sources += [
        XOEmbedSource(http, timeout),
        BlueskyPostSource(http, timeout),
        MastodonPostSource(http, SystemResolver(), timeout),
    ]
    return sources


def make_panel(settings: Settings, client: openai.AsyncOpenAI) -> PersonaPanel | None:
    f = settings.forecast
    if not f.enabled:
        return None
    try:
        personas = PersonaSet.load(f.personas) if f.personas else PersonaSet.load()
        calibrated = StackedAggregator.load(f.calibration) if f.calibration else None
    except (OSError, ValueError) as e:
        raise ConfigurationError(f"EVONOTE_FORECAST__PERSONAS / __CALIBRATION: {e}") from e
    llm = settings.llm
    rater = OpenAIChatModel(
        client,
        model=llm.judge_model or llm.writer_model,
        temperature=0.7,
        max_tokens=400,
        max_tokens_for=token_caps(settings),
    )
    return PersonaPanel(
        rater,
        personas,
        calibrated=calibrated,
        timeout_s=llm.call_timeout_s,
        concurrency=f.concurrency,
        per_note=f.per_note,
        personas_per_note=f.personas_per_note,
        rule=BridgingRule(f.helpful_threshold, f.not_helpful_threshold),
    )


def make_memory_store(app: App) -> MemoryStore:
    return app.memory.store if app.memory is not None else SqlMemoryStore(app.engine)


def make_scheduler(app: App, jobs: list[Job]) -> JobScheduler:
    """The periodic jobs behind the database lease: one active scheduler across processes,
    held by this process (its owner id, as its episodes' leases name it)."""
    from adapters.sqlstore.lease import SqlLeaseStore

    return JobScheduler(SqlLeaseStore(app.engine), app.notes.worker_id, jobs)


def make_late_revisions(app: App) -> LateRevisions | None:
    """The looks again at our notes on X 1 h and 3 h after they went out, researched by the
    episodes' own runner (its budget and deadline); None without a submitter or windows."""
    submitter, x = app.submitter, app.settings.x
    if submitter is None or not x.revise_after_h:
        return None
    from pipeline.desk.late_revision_rules import windows_of
    from pipeline.desk.late_revisions import LateRevisions

    store = SubmissionStore(app.engine)
    return LateRevisions(
        submitter.episodes,
        store,
        store,
        submitter.rules,
        submitter.links,
        app.notes.runner,
        windows_of(x.revise_after_h, x.revise_open_h),
        # as long as an episode's lease: a run still going then has hung
        research_timeout_s=app.notes.lease_s,
    )


def make_scanner(app: App) -> WatchScanner | None:
    """The watchlist scanner, when X watches (or the eligible-posts feed) are configured."""
    x = app.settings.x
    eligible = app.notes_api if x.watch_eligible else None
    watches = x.watches if x.bearer_token is not None else []
    if not watches and eligible is None:
        return None
    from tweepy.asynchronous import AsyncClient

    from adapters.sqlstore.watch import WatchStore
    from adapters.x.watch import XWatchFeed
    from bot.watch import WatchScanner

    token = x.bearer_token.get_secret_value() if x.bearer_token is not None else None
    client = AsyncClient(bearer_token=token, wait_on_rate_limit=False)
    return WatchScanner(
        XWatchFeed(client, x.timeout_s),
        WatchStore(app.engine),
        app.notes,
        watches,
        health_filter=app.model if x.watch_health_filter else None,
        limit=x.watch_max_per_scan,
        eligible=eligible,
        test_mode=x.test_mode,
        noted=SubmissionStore(app.engine),
        policy=ScanPolicy(x.max_post_age_h, x.watch_per_author_daily, x.watch_per_cycle),
        drafted=app.store,
        last=app.scans,
        writing_limit=app.submitter,
    )


def lesson_desk(app: App) -> LessonDesk | None:
    """The moderators' lesson board, with what X's raters found of each lesson's notes; None
    when the memory is off."""
    if app.memory is None:
        return None
    return LessonDesk(app.memory, EpisodeCrowdVerdicts(app.store))


def make_slack_frontend(app: App, run_episodes: bool) -> SlackFrontend | None:
    """The Slack app, when its bot token is set. `run_episodes`: False where workers run them."""
    s = app.settings.slack
    client = make_slack_client(app.settings)
    if client is None:
        return None
    from bot.slack.frontend import SlackFrontend

    return SlackFrontend(
        app.cards,
        s,
        client,
        run_episodes=run_episodes,
        lessons=lesson_desk(app),
        last_scan=app.scans.latest,
    )


def make_slack_client(settings: Settings) -> AsyncWebClient | None:
    """A Slack Web API client, when the bot token is set."""
    s = settings.slack
    if s.bot_token is None:
        return None
    from slack_sdk.web.async_client import AsyncWebClient

    return AsyncWebClient(token=s.bot_token.get_secret_value(), base_url=s.api_url)


def make_discord_frontend(app: App, run_episodes: bool) -> DiscordFrontend | None:
    """The Discord bot, when its token is set."""
    if app.settings.discord.bot_token is None:
        return None

    from bot.discord.frontend import DiscordFrontend

    use_discord_api(app.settings.discord.api_url)
    return DiscordFrontend(
        app.cards,
        app.settings.discord,
        run_episodes=run_episodes,
        lessons=lesson_desk(app),
    )


def use_discord_api(api_url: str) -> None:
    """discord.py's REST base is process-wide, as is its warning about voice libraries (EvoNote
    never joins a voice channel)."""
    import discord

    discord.http.Route.BASE = api_url.rstrip("/")
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False


def make_discord_rest_client(settings: Settings) -> discord.Client | None:
    """A Discord client for editing cards over REST (a worker listens to no gateway)."""
    if settings.discord.bot_token is None:
        return None
    import discord

    use_discord_api(settings.discord.api_url)

    return discord.Client(intents=discord.Intents.none())


def make_desk(
    settings: Settings, store: EpisodeStore, submitter: SubmissionDesk | None = None
) -> ModeratorDesk:
    return ModeratorDesk(store, submitter, vote_window_s=settings.memory.vote_window_days * 86_400)


@asynccontextmanager
async def build(settings: Settings, role: str = "cli") -> AsyncIterator[App]:
    """Every object of the application. `role`: `serve` for long-running processes, whose
    episodes another process picks up if this one dies; `cli` for one-off commands."""
    await asyncio.to_thread(prepare_data_dir, settings)  # file system work: off the loop
    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(
            httpx.AsyncClient(
                timeout=settings.search.timeout_s, cookies=no_cookies(), follow_redirects=False
            )
        )
        search, reader = await make_evidence(settings, http, stack)
        model, client = make_chat_model(settings)
        stack.push_async_callback(client.close)
        engine = await stack.enter_async_context(open_database(settings))
        memory = await open_memory(settings, engine)
        writer = make_writer(settings, model)
        if isinstance(writer, ModelPool):
            stack.push_async_callback(writer.close)
        gate = AdmissionGate(settings.ops.workers, slow_call_s=settings.ops.slow_call_s)
        runner = EpisodeRunner(
            model=ObservedModel(writer, gate),
            search=search,
            reader=reader,
            memory=memory or NoMemory(),
            budget=settings.budget,
            call_timeout_s=settings.llm.call_timeout_s,
            lessons_per_phase=settings.memory.top_k,
            captioner=(
                OpenAICaptioner(client, settings.llm.captioner_model)
                if settings.llm.captioner_model
                else None
            ),
        )
        store = EpisodeStore(engine)
        panel = await asyncio.to_thread(make_panel, settings, client)  # reads its files
        metrics = Metrics()
        notes = NoteService(
            store=store,
            posts=PostResolver(make_post_sources(settings, http)),
            runner=runner,
            worker_id=await asyncio.to_thread(owner_id, role),  # reads /proc: off the loop
            memory_mode=settings.memory.mode,
            panel=panel,
            on_finished=metrics.observe,
            lease_s=settings.ops.lease_s,
            gate=gate,
            past_notes=store,
        )
        notes_api = make_notes_api(settings, http)
        submitter = make_submitter(settings, engine, http, model, notes_api)
        desk = make_desk(settings, store, submitter)
        yield App(
            settings=settings,
            store=store,
            notes=notes,
            model=model,
            memory=memory,
            engine=engine,
            client=client,
            desk=desk,
            # one for the process: the chat front ends, the workers, recovery, the watchlist
            # and the CLI share it (and its bound on requests held while the database is down)
            cards=NoteDesk(notes, desk, spool=spool_of(settings) if role == "serve" else None),
            submitter=submitter,
            notes_api=notes_api,
            metrics=metrics,
        )
        if memory is not None:
            await memory.persist()
