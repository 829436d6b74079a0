"""The stance detector measured on sentences it was not written from (`bench.stance`): the
hand-labelled set loads from ../shared by ids and offsets, and on the held-out half the
detector finds more of the reporting sentences than the one-list baseline."""

from __future__ import annotations

import json

import pytest

from bench.stance import DATA, LABELS, labelled, measured


def test_the_labels_hold_ids_and_offsets_not_the_sets_text() -> None:
    items = json.loads(LABELS.read_text(encoding="utf-8"))["items"]
    assert len(items) >= 150
    assert {i["label"] for i in items} == {"asserts", "reports"}
    assert all("text" not in i and i["end"] > i["start"] for i in items)


@pytest.mark.skipif(not DATA.is_dir(), reason=f"no evidence_claims at {DATA} (../shared)")
def test_the_detector_beats_the_baseline_on_the_held_out_half() -> None:
    rows = labelled()
    assert len(rows) >= 150, "the labelled sentences no longer match the data"
    held_out = measured(rows)["held_out"]
    assert held_out["detector"]["recall"] > held_out["baseline"]["recall"]
    assert held_out["detector"]["precision"] >= 0.8
