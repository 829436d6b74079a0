"""`evonote memory …`: inspect and curate the experience memory's lessons."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

from bot.commands.arguments import Subparsers, record_id
from bot.commands.exits import EXIT_INPUT, EXIT_OK
from bot.settings import ConfigurationError, Settings
from memory.standing import LessonStatus
from pipeline.ports import MemoryPhase

if TYPE_CHECKING:
    from memory.experience import ExperienceMemory
    from memory.models import MemoryItem
    from pipeline.desk.ports import EpisodeRepository


def add_parser(sub: Subparsers) -> None:
    memory = sub.add_parser("memory", help="the experience memory: inspect and curate lessons")
    msub = memory.add_subparsers(dest="memory_command", required=True)
    listing = msub.add_parser("list", help="lessons, newest first")
    listing.add_argument("--phase", choices=[p.value for p in MemoryPhase])
    listing.add_argument("--status", choices=[s.value for s in LessonStatus])
    show = msub.add_parser("show", help="one lesson with its audit log")
    show.add_argument("id", type=record_id)
    for name, help_text in (
        ("retire", "stop using a lesson"),
        ("restore", "use it again"),
        ("approve", "make a provisional lesson active"),
    ):
        command = msub.add_parser(name, help=help_text)
        command.add_argument("id", type=record_id)
        command.add_argument("--actor", default=getpass.getuser())
        if name == "retire":
            command.add_argument("--why", required=True, help="why it is retired")
    edit = msub.add_parser("edit", help="change a lesson's wording or phase")
    edit.add_argument("id", type=record_id)
    edit.add_argument("--trigger")
    edit.add_argument("--strategy")
    edit.add_argument("--phase", choices=[p.value for p in MemoryPhase])
    edit.add_argument("--actor", default=getpass.getuser())
    export = msub.add_parser("export", help="every lesson as JSONL")
    export.add_argument("--out", type=Path, help="file (default: standard output)")
    load = msub.add_parser("import", help="add lessons from JSONL (merged with near-duplicates)")
    load.add_argument("file", type=Path)
    load.add_argument("--actor", default=getpass.getuser())
    msub.add_parser("stats", help="lessons by phase and status, the most used")


def _item_line(item: MemoryItem) -> str:
    return (
        f"{item.id:>5}  {item.phase.value:<20} {item.kind.value:<7} {item.status.value:<11} "
        f"{item.support:>3} {item.uses:>5} {item.votes_up:>3}/{item.votes_down:<3} "
        f"{textwrap.shorten(item.trigger, 50)}"
    )


async def _standing_line(memory: ExperienceMemory, item: MemoryItem) -> str:
    """Who supports it and why it is provisional (#57), under its line."""
    from memory.experience import CONTEST
    from memory.support import standing_reason

    contested = False
    if item.status == LessonStatus.PROVISIONAL and item.id is not None:
        changes = [a.action for a in await memory.store.audit(item.id) if a.action != "vote"]
        contested = bool(changes) and changes[-1] == CONTEST
    return "       " + standing_reason(item, memory.policy, contested)


async def show_verdicts(store: EpisodeRepository, episodes: list[int]) -> None:
    """What X's raters found of the notes a lesson was learned from, and where the
    moderators' votes say otherwise."""
    from pipeline.desk.cards import EpisodeCrowdVerdicts

    verdicts = EpisodeCrowdVerdicts(store)
    lines = [
        f"  episode {episode}: {said}"
        for episode in episodes
        if (said := await verdicts.crowd_said(episode)) is not None
    ]
    if lines:
        print("raters on X:\n" + "\n".join(lines))


async def need_memory(memory: ExperienceMemory | None) -> ExperienceMemory:
    if memory is None:
        raise ConfigurationError("the memory is off (EVONOTE_MEMORY__MODE=off)")
    return memory


async def run(settings: Settings, args: argparse.Namespace) -> int:
    from bot.app import open_memory
    from bot.database import open_stores

    async with open_stores(settings) as stores:
        memory = await need_memory(await open_memory(settings, stores.engine))
        store = memory.store
        command = args.memory_command
        if command == "list":
            items = await store.items(
                MemoryPhase(args.phase) if args.phase else None,
                LessonStatus(args.status) if args.status else None,
            )
            print(f"{'id':>5}  {'phase':<20} {'kind':<7} {'status':<11} sup  uses  up/dn trigger")
            for i in reversed(items):
                print(_item_line(i) + "\n" + await _standing_line(memory, i))
            if not items:
                print("No lessons yet.")
            return EXIT_OK
        if command == "stats":
            items = await store.items()
            for phase in MemoryPhase:
                counts = {
                    s: sum(1 for i in items if i.phase == phase and i.status == s)
                    for s in LessonStatus
                }
                print(
                    f"{phase.value:<20} " + "  ".join(f"{s.value} {n}" for s, n in counts.items())
                )
            top = sorted(items, key=lambda i: -i.uses)[:5]
            print("most used:\n" + ("\n".join(_item_line(i) for i in top) or "  none"))
            return EXIT_OK
        if command == "export":
            lines = "".join(i.model_dump_json() + "\n" for i in await store.items())
            if args.out:
                await asyncio.to_thread(args.out.write_text, lines, "utf-8")
            else:
                sys.stdout.write(lines)
            return EXIT_OK
        if command == "import":
            return await _import(memory, args)
        item = await store.get(args.id)
        if item is None:
            print(f"evonote: there is no memory item {args.id}", file=sys.stderr)
            return EXIT_INPUT
        if command == "show":
            print(json.dumps(item.model_dump(mode="json"), indent=1, ensure_ascii=False))
            print("audit:")
            for entry in await store.audit(args.id):
                print(f"  {entry.at:%Y-%m-%d %H:%M} {entry.actor}: {entry.action}")
            await show_verdicts(stores.episodes, item.source_episodes)
            return EXIT_OK
        if command == "edit":
            changes = {
                k: v
                for k, v in (
                    ("trigger", args.trigger),
                    ("strategy", args.strategy),
                    ("phase", args.phase),
                )
                if v
            }
            if not changes:
                print(
                    "evonote: nothing to change (--trigger, --strategy or --phase)", file=sys.stderr
                )
                return EXIT_INPUT
            if "phase" in changes:
                changes["phase"] = MemoryPhase(changes["phase"])
            from memory.distil import normalised, rejection_reason
            from memory.prompts import DistilledLesson

            current = await memory.store.get(args.id)
            if current is None:
                print(f"evonote: there is no memory item {args.id}", file=sys.stderr)
                return EXIT_INPUT
            edited = normalised(
                DistilledLesson(
                    phase=changes.get("phase", current.phase),
                    trigger=changes.get("trigger", current.trigger),
                    strategy=changes.get("strategy", current.strategy),
                    rationale=current.rationale,
                )
            )
            if (reason := rejection_reason(edited, kind=current.kind)) is not None:
                print(f"evonote: the edited lesson is refused: {reason}", file=sys.stderr)
                return EXIT_INPUT
            for key in ("trigger", "strategy"):
                if key in changes:
                    changes[key] = getattr(edited, key)
            item = await memory.edit(args.id, args.actor, **changes)
        else:
            status = {
                "retire": LessonStatus.RETIRED,
                "approve": LessonStatus.ACTIVE,
                "restore": LessonStatus.PROVISIONAL,
            }[command]
            item = await memory.set_status(args.id, status, args.actor, getattr(args, "why", None))
        await memory.persist()
        print(_item_line(item))
        return EXIT_OK


async def _import(memory: ExperienceMemory, args: argparse.Namespace) -> int:
    from memory.transfer import import_lessons, read_jsonl

    try:
        items = read_jsonl(await asyncio.to_thread(args.file.read_text, "utf-8"))
    except (OSError, ValueError) as e:
        print(f"evonote: {args.file}: {e}", file=sys.stderr)
        return EXIT_INPUT
    report = await import_lessons(memory, items, args.actor)
    print(
        f"imported {len(items)} lessons: {report.added} added, {report.merged} merged into "
        f"existing ones, {len(report.refused)} refused"
    )
    for line in report.refused:
        print(f"  refused {line}", file=sys.stderr)
    return EXIT_OK
