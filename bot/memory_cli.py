"""`evonote memory …`, `evonote evolve`, `evonote vote` and `evonote serve`."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import textwrap

from adapters.sqlstore.episodes import EpisodeStore
from bot.app import make_desk, make_evolver, make_llm_client, open_memory
from bot.database import open_database
from bot.settings import ConfigurationError, Settings
from memory.distil import normalised, rejection_reason
from memory.experience import ExperienceMemory
from memory.models import LessonKind, LessonStatus, MemoryItem
from memory.prompts import DistilledLesson
from pipeline.desk.moderation import Voter
from pipeline.moderation import vote_message
from pipeline.ports import MemoryPhase

EXIT_OK, EXIT_INPUT = 0, 3


def _item_line(item: MemoryItem) -> str:
    return (
        f"{item.id:>5}  {item.phase.value:<20} {item.status.value:<11} "
        f"{item.support:>3} {item.uses:>5} {item.votes_up:>3}/{item.votes_down:<3} "
        f"{textwrap.shorten(item.trigger, 50)}"
    )


async def _need_memory(memory: ExperienceMemory | None) -> ExperienceMemory:
    if memory is None:
        raise ConfigurationError("the memory is off (EVONOTE_MEMORY__MODE=off)")
    return memory


async def memory_command(settings: Settings, args: argparse.Namespace) -> int:
    async with open_database(settings) as engine:
        memory = await _need_memory(await open_memory(settings, engine))
        store = memory.store
        command = args.memory_command
        if command == "list":
            items = await store.items(
                MemoryPhase(args.phase) if args.phase else None,
                LessonStatus(args.status) if args.status else None,
            )
            print(f"{'id':>5}  {'phase':<20} {'status':<11} sup  uses  up/dn trigger")
            print("\n".join(_item_line(i) for i in reversed(items)) or "No lessons yet.")
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
            if (reason := rejection_reason(edited)) is not None:
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
    try:
        lines = (await asyncio.to_thread(args.file.read_text, "utf-8")).splitlines()
        items = [MemoryItem.model_validate_json(line) for line in lines if line.strip()]
    except (OSError, ValueError) as e:
        print(f"evonote: {args.file}: {e}", file=sys.stderr)
        return EXIT_INPUT
    added = merged = 0
    refused: list[str] = []
    for n, item in enumerate(items, start=1):
        lesson = normalised(
            DistilledLesson(
                phase=MemoryPhase(item.phase),
                trigger=item.trigger,
                strategy=item.strategy,
                rationale=item.rationale,
            )
        )
        reason = rejection_reason(lesson)
        if reason is not None:
            refused.append(f"line {n}: {reason}")
            continue
        fresh = MemoryItem(
            phase=MemoryPhase(item.phase),
            trigger=lesson.trigger,
            strategy=lesson.strategy,
            rationale=lesson.rationale,
            kind=LessonKind(item.kind),
            source_episodes=item.source_episodes,
            learned_from_post_at=item.learned_from_post_at,
        )
        _, was_merged = await memory.add_or_reinforce(fresh, args.actor)
        merged += was_merged
        added += not was_merged
    await memory.persist()
    print(
        f"imported {len(items)} lessons: {added} added, {merged} merged into existing ones, "
        f"{len(refused)} refused"
    )
    for line in refused:
        print(f"  refused {line}", file=sys.stderr)
    return EXIT_OK


async def evolve_command(settings: Settings) -> int:
    client = make_llm_client(settings)
    try:
        async with open_database(settings) as engine:
            memory = await _need_memory(await open_memory(settings, engine))
            report = await make_evolver(
                settings, engine, memory, client, judge_after_s=0
            ).run_once()
            await memory.persist()
    finally:
        await client.close()
    print(report.summary())
    for line in report.refused:
        print(f"  refused {line}")
    for line in report.failed:
        print(f"  failed {line}", file=sys.stderr)
    return EXIT_OK if not report.failed else 4


async def vote_command(settings: Settings, args: argparse.Namespace) -> int:
    async with open_database(settings) as engine:
        store = EpisodeStore(engine)
        try:
            vote = 1 if args.verdict == "up" else -1
            operator = Voter("cli", args.user, is_moderator=True)
            answer = await make_desk(settings, store).vote(
                operator, args.episode, vote, args.reason
            )
            if answer.outcome is None:  # no such episode
                raise KeyError(f"there is no episode {args.episode}")
            outcome = answer.outcome
        except KeyError as e:
            print(f"evonote: {e.args[0]}", file=sys.stderr)
            return EXIT_INPUT
    print(f"episode {args.episode}: {vote_message(outcome, vote)}")
    return EXIT_OK
