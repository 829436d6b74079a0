"""The import contract: dependencies point inwards, and the outer ring only translates.

Checked on the source (every `import` and `from … import`, including those inside functions),
so a forbidden import anywhere fails here, not in production.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ("bot", "adapters", "pipeline", "memory", "scheduler")
ROW_TYPES = {
    "EpisodeRow",
    "FeedbackRow",
    "StepRow",
    "SubmissionRow",
    "WatchStateRow",
    "NoteEvaluationRow",
    "SubmissionQueueRow",
}


def imports(path: Path) -> list[tuple[str, set[str]]]:
    """(module, names imported from it) for every import statement in the file."""
    found: list[tuple[str, set[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, set()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, {alias.name for alias in node.names}))
    return found


def files(*packages: str) -> list[Path]:
    return [p for package in packages for p in sorted((ROOT / package).rglob("*.py"))]


def offenders(paths: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{p.relative_to(ROOT)} imports {module}"
        for p in paths
        for module, _ in imports(p)
        if module.split(".")[0] in forbidden or module.startswith(forbidden)
    ]


def test_shipped_code_never_imports_the_tests() -> None:
    assert offenders(files(*SHIPPED), ("tests",)) == []


def test_pipeline_and_memory_import_no_adapter_bot_or_platform_library() -> None:
    forbidden = ("adapters", "bot", "slack_sdk", "slack_bolt", "discord", "tweepy", "httpx")
    assert offenders(files("pipeline", "memory"), forbidden) == []


@pytest.mark.parametrize(
    "path",
    [
        "bot/slack",
        "bot/discord",
        "bot/commands",
        "bot/worker.py",
        "bot/watch.py",
        "pipeline/desk/note_desk.py",
        "pipeline/desk/notes.py",
    ],
)
def test_front_ends_worker_and_scanner_never_reach_the_database(path: str) -> None:
    target = ROOT / path
    paths = sorted(target.rglob("*.py")) if target.is_dir() else [target]
    assert offenders(paths, ("adapters.sqlstore",)) == []


def test_only_the_composition_root_sees_the_x_adapters_and_the_database() -> None:
    """Submitting is the desk's (`NotesDestination`); X is one adapter behind it. The
    database is opened in `bot/database.py`, beside the composition root."""
    root = {"bot/app.py", "bot/database.py"}
    paths = [p for p in files("bot") if p.relative_to(ROOT).as_posix() not in root]
    assert offenders(paths, ("adapters.x", "adapters.sqlstore")) == []


def test_only_the_store_and_the_composition_root_see_sql_rows() -> None:
    allowed = {"bot/app.py", "bot/database.py"}
    seen = [
        f"{p.relative_to(ROOT)}: {sorted(names & ROW_TYPES)}"
        for p in files(*SHIPPED, "bench")
        if not p.relative_to(ROOT).as_posix().startswith("adapters/sqlstore/")
        and p.relative_to(ROOT).as_posix() not in allowed
        for _, names in imports(p)
        if names & ROW_TYPES
    ]
    assert seen == []


def test_only_the_composition_root_builds_adapters() -> None:
    """`bot/app.py` (and the database opener) build every adapter; serving, the front ends,
    the worker and the scanner receive them."""
    outer = (
        [
            ROOT / p
            for p in ("bot/serve.py", "bot/worker.py", "bot/watch.py", "pipeline/desk/notes.py")
        ]
        + sorted((ROOT / "bot/slack").rglob("*.py"))
        + sorted((ROOT / "bot/discord").rglob("*.py"))
    )
    assert offenders(outer, ("adapters",)) == []


def test_every_command_module_is_in_the_command_table() -> None:
    """One module per command, each reachable: a module left out of `COMMANDS` is dead code."""
    from bot.cli import COMMANDS

    modules = {
        p.stem
        for p in (ROOT / "bot/commands").glob("*.py")
        if p.stem not in {"__init__", "arguments", "exits"}
    }
    assert modules == {c.__name__.rsplit(".", 1)[1] for c in COMMANDS.values()}  # type: ignore[attr-defined]


def test_one_file_owns_the_run_then_card_then_forecast_sequence() -> None:
    """Only the note desk asks the note service for a forecast: every card's sequence (run,
    show, forecast, show again) is written there once."""
    callers = [
        p.relative_to(ROOT).as_posix()
        for p in files(*SHIPPED, "bench")
        if "notes.forecast(" in p.read_text(encoding="utf-8")
    ]
    assert callers == ["pipeline/desk/note_desk.py"]


# What a word or sentence regex looks like: a pattern that is only a run of word characters
# ("[^\W_]+", "[^\W\d_]{4,}", "\w+"), or one that splits after a sentence's end ("(?<=[.!?").
_WORD_PATTERN = re.compile(r"^(?:\[\^\\W(?:\\d)?_\]|\\w)(?:\+|\{\d+,\d*\})$")
_REGEX_CALLS = {"compile", "findall", "finditer", "split", "search", "match", "fullmatch", "sub"}


def word_or_sentence_regexes(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _REGEX_CALLS
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in {"re", "regex"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            pattern = node.args[0].value
            if _WORD_PATTERN.match(pattern) or "(?<=[.!?" in pattern:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {pattern!r}")
    return found


def test_only_the_lexicon_says_what_a_word_or_a_sentence_is() -> None:
    """One splitter for a note's prose, one for a page's text, one for clauses, and the word
    patterns, all in `pipeline/drafting/words.py`: five splitters and six tokenisers had
    drifted apart (the draft-rules issue)."""
    lexicon = ROOT / "pipeline" / "drafting" / "words.py"
    assert word_or_sentence_regexes(lexicon)  # the test sees the lexicon's own
    others = [p for p in files("pipeline", "memory") if p != lexicon]
    assert [r for p in others for r in word_or_sentence_regexes(p)] == []


def test_no_test_module_imports_another() -> None:
    """Shared doubles and helpers live in tests/fakes (and fixtures in a conftest): a test
    module another one imports runs its tests twice and couples them."""

    def modules(node: ast.AST) -> list[str]:
        if isinstance(node, ast.ImportFrom):
            return [node.module or ""]
        return [a.name for a in node.names] if isinstance(node, ast.Import) else []

    offenders = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        for module in modules(node)
        if module.startswith("tests.") and module.rsplit(".", 1)[-1].startswith("test_")
    ]
    assert offenders == []


# Fields that hold a closed set: an episode's status, a draft's or an evaluation's verdict, a
# submission outcome's kind, a failure's kind. Each is an enum; a string compared with one
# would go stale silently when the set changes.
_CLOSED_SETS = {"status", "verdict", "kind", "failure_kind"}


def _string_comparisons(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = [s.attr for s in sides if isinstance(s, ast.Attribute) and s.attr in _CLOSED_SETS]
        strings = [s for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
        literals = [
            e
            for s in sides
            if isinstance(s, ast.Tuple | ast.Set | ast.List)
            for e in s.elts
            if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
        if named and (strings or literals):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} compares .{named[0]}")
    return found


def test_no_shipped_module_compares_a_closed_set_as_a_string() -> None:
    """Episode statuses, verdicts, outcome kinds and failure kinds are enums
    (`EpisodeStatus`, `Verdict`, `EvaluationVerdict`, `OutcomeKind`, `FailureKind`)."""
    assert [hit for p in files(*SHIPPED) for hit in _string_comparisons(p)] == []


def test_the_app_builds_the_one_note_desk() -> None:
    """Every caller — the chat front ends, the workers, recovery, the watchlist, the CLI —
    gets the `NoteDesk` `bot/app.py` built (it bounds the requests held while the database is
    down, for the whole process)."""
    builders = [
        f"{p.relative_to(ROOT)}:{node.lineno}"
        for p in files(*SHIPPED)
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in {"NoteDesk", "ModeratorDesk"}
    ]
    assert [b.split(":")[0] for b in builders] == ["bot/app.py"] * len(builders), builders


def test_untrusted_text_enters_a_prompt_one_way() -> None:
    """Every prompt is `Section`s (`sectioned_messages`): only `pipeline/prompt_sections.py` quotes
    untrusted text itself."""
    quoting = [
        str(p.relative_to(ROOT))
        for p in files(*SHIPPED)
        if "quote_untrusted(" in p.read_text(encoding="utf-8")
    ]
    assert quoting == ["pipeline/prompt_sections.py"]
    # and no message is an f-string of its own: the vision captioner put the post into its
    # prompt as f"The post says (untrusted): {post_text}", which no test looked at
    formatted = [
        f"{p.relative_to(ROOT)}:{node.lineno}"
        for p in files(*SHIPPED)
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.Dict)
        for key, value in zip(node.keys, node.values, strict=True)
        if isinstance(key, ast.Constant)
        and key.value in {"content", "text"}
        and isinstance(value, ast.JoinedStr)
        and any(isinstance(v, ast.FormattedValue) for v in value.values)
    ]
    assert formatted == []


def _imports(path: Path) -> set[str]:
    """The project modules a file imports: anywhere in it, those imported only for type
    checking too (a name's type is a dependency as much as a call)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {m for m in found if m.split(".")[0] in SHIPPED}


def test_no_import_circles() -> None:
    """Dependencies form no loop: a module imports nothing that imports it back, however far
    round, not even for type checking (a part that needs its holder's type names a Protocol of
    what it uses, as `pipeline.episode_state.EpisodeTools`)."""
    modules = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
        for p in files(*SHIPPED)
    }
    graph = {m: {i for i in _imports(p) if i in modules and i != m} for m, p in modules.items()}
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []
    circles: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for nxt in sorted(graph[module]):
            if state.get(nxt) == 1:
                circles.append(" -> ".join([*path[path.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert circles == []


def test_the_scheduler_imports_no_bot_adapter_or_platform_library() -> None:
    """The scheduled jobs take what they use as Protocols (`scheduler/`); `bot/serve.py`
    wires them."""
    forbidden = ("bot", "adapters", "slack_sdk", "slack_bolt", "discord", "tweepy", "httpx")
    assert offenders(files("scheduler"), forbidden) == []


def test_serve_and_the_worker_name_no_front_end() -> None:
    """They go through `bot.front_ends.registry.PLATFORMS`: a front end is added there, not
    as another branch in each."""
    paths = [ROOT / "bot/serve.py", ROOT / "bot/worker.py"]
    libraries = ("bot.slack", "bot.discord", "slack_sdk", "slack_bolt", "discord")
    assert offenders(paths, libraries) == []
    named = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in paths
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"slack|discord", line, re.IGNORECASE)
    ]
    assert named == []
