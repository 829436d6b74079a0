"""The platform's length rule on real note shapes."""

from __future__ import annotations

import pytest

from pipeline.drafting.note import (
    NOTE_CHAR_LIMIT,
    assemble_note,
    find_urls,
    note_length,
    split_sentences,
    strip_urls,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("No URL here.", 12),
        ("See https://www.cdc.gov/measles/index.html", 5),
        ("See http://who.int.", 6),  # the full stop ends the sentence, not the URL
        ("Two: https://a.org/x, https://b.org/y", 9),
        ("(source: https://en.wikipedia.org/wiki/MMR_vaccine_(disambiguation))", 11),
        ("(https://www.nih.gov/about)", 3),
        ("https://example.org/" + "a" * 500, 1),
        ("HTTPS://CDC.GOV/Page?x=1&y=2#frag!", 2),
    ],
)
def test_each_url_counts_as_one_character(text: str, expected: int) -> None:
    assert note_length(text) == expected


def test_trailing_punctuation_is_not_part_of_a_url() -> None:
    assert find_urls("Read https://a.org/b?c=1). Then http://x.y/z!") == [
        "https://a.org/b?c=1",
        "http://x.y/z",
    ]


def test_real_birdwatch_style_note_is_counted_correctly() -> None:
    note = (
        "The CDC states that COVID-19 vaccines do not alter your DNA. mRNA never enters the "
        "nucleus of the cell. https://www.cdc.gov/coronavirus/2019-ncov/vaccines/facts.html"
    )
    prose = note.rsplit(" ", 1)[0]
    assert note_length(note) == len(prose) + 2


def test_assembled_note_puts_sources_after_prose_and_drops_typed_urls() -> None:
    note = assemble_note("Vaccines are safe (see https://typed.example/x).", ["https://a.org/1"])
    assert note.text == "Vaccines are safe.\n\nhttps://a.org/1"
    assert note.urls == ["https://a.org/1"]
    assert note.length == note_length(note.text)


def test_long_url_does_not_push_a_note_over_the_limit() -> None:
    prose = "x" * (NOTE_CHAR_LIMIT - 3)  # 2 newlines + 1 for the URL
    note = assemble_note(prose, ["https://example.org/" + "p" * 300])
    assert note.length == NOTE_CHAR_LIMIT


def test_strip_urls_leaves_clean_prose() -> None:
    assert strip_urls("Facts [https://a.org] and more https://b.org.") == "Facts and more."


def test_a_title_or_abbreviation_does_not_end_a_sentence() -> None:
    # split after "Dr.", a real note was cut down to the sentence "Dr."
    assert split_sentences("Vaccines are safe. Dr. Wakefield's paper was retracted.") == [
        "Vaccines are safe.",
        "Dr. Wakefield's paper was retracted.",
    ]
    assert split_sentences("Smith et al. found no link. The U.S. CDC agrees.") == [
        "Smith et al. found no link.",
        "The U.S. CDC agrees.",
    ]
