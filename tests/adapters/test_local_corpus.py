"""The local corpus: ingestion, the on-disk index, search, the date cap."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from adapters.local_corpus import CorpusDocument, LocalCorpus, read_folder
from bot.cli import main
from pipeline.errors import PageUnreadable
from tests.fakes.documents import article_html, text_pdf


def write_folder(root: Path) -> Path:
    folder = root / "pages"
    (folder / "sub").mkdir(parents=True)
    html = article_html().replace(
        "<head>", '<head><link rel="canonical" href="https://health.example/mmr-safety">'
    )
    (folder / "mmr.html").write_text(html, encoding="utf-8")
    (folder / "measles.md").write_text(
        "---\ntitle: x\nurl: https://health.example/measles\n---\n# Measles\n\n"
        "Measles is a highly contagious viral disease that vaccination prevents.\n",
        encoding="utf-8",
    )
    (folder / "sub" / "guide.pdf").write_bytes(
        text_pdf(["Hand washing with soap removes germs and prevents diarrhoea and infections."])
    )
    (folder / "orphan.html").write_text(article_html(title="No URL"), encoding="utf-8")
    (folder / "picture.png").write_bytes(b"\x89PNG")
    return folder


def test_folder_ingestion_finds_urls_and_names_what_it_skips(tmp_path: Path) -> None:
    report = read_folder(write_folder(tmp_path), base_url=None)
    urls = {d.url for d in report.documents}
    assert urls == {"https://health.example/mmr-safety", "https://health.example/measles"}
    assert any("guide.pdf: no source URL" in s for s in report.skipped)
    assert any("orphan.html: no source URL" in s for s in report.skipped)
    measles = next(d for d in report.documents if d.url.endswith("/measles"))
    assert "url:" not in measles.text and "---" not in measles.text  # front matter stripped
    assert measles.title == "x" and measles.text.lstrip().startswith("# Measles")
    with_base = read_folder(tmp_path / "pages", base_url="https://docs.example/files/")
    assert "https://docs.example/files/sub/guide.pdf" in {d.url for d in with_base.documents}


async def test_saved_index_answers_like_the_fresh_one(tmp_path: Path) -> None:
    documents = read_folder(write_folder(tmp_path), "https://docs.example").documents
    fresh = LocalCorpus.build(documents)
    fresh.save(tmp_path / "index")
    loaded = await LocalCorpus.open(tmp_path / "index", tmp_path / "cache")
    for query in ("measles vaccination", "hand washing germs", "MMR autism studies"):
        a = await fresh.search(query, limit=3)
        b = await loaded.search(query, limit=3)
        assert [r.url for r in a] == [r.url for r in b]
        assert a, query
    page = await loaded.read("https://health.example/mmr-safety")
    assert "no link between the MMR vaccine and autism" in page.text
    with pytest.raises(PageUnreadable, match="not in the local corpus"):
        await loaded.read("https://elsewhere.example/")


async def test_jsonl_is_indexed_once_and_cached(tmp_path: Path) -> None:
    path = tmp_path / "docs.jsonl"
    rows = [
        {
            "url": "https://a.example/old",
            "title": "Old measles advice",
            "text": "Measles advice from long ago.",
            "date": "2019-01-01",
        },
        {
            "url": "https://a.example/new",
            "title": "New measles advice",
            "text": "Measles advice published later.",
            "date": "2022-06-01",
        },
        {"url": "https://a.example/new", "title": "", "text": "Second part of the page."},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    corpus = await LocalCorpus.open(path, tmp_path / "cache")
    assert len(corpus.documents) == 2
    assert "Second part" in (await corpus.read("https://a.example/new")).text
    assert len(list((tmp_path / "cache").iterdir())) == 1
    capped = await corpus.search("measles advice", limit=5, published_before=datetime(2021, 1, 1))
    assert [r.url for r in capped] == ["https://a.example/old"]


def test_bad_jsonl_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"url": "https://a.example", "text": "ok"}\n{"title": "no url"}\n')
    with pytest.raises(ValueError, match=r"bad.jsonl:2 is not a corpus document"):
        LocalCorpus.open_sync(path, tmp_path / "cache")


def test_corpus_index_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_folder(tmp_path)
    code = main(
        [
            "corpus",
            "index",
            str(folder),
            "--out",
            str(tmp_path / "idx"),
            "--base-url",
            "https://docs.example",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0
    assert "indexed 4 documents" in out
    assert "picture.png" not in err
    assert (tmp_path / "idx" / "manifest.json").is_file()


async def test_medquad_search_finds_measles_pages(medquad: Path, tmp_path: Path) -> None:
    corpus = await LocalCorpus.open(medquad, tmp_path / "cache")
    results = await corpus.search("measles vaccine", limit=5)
    assert any("measles" in r.url.lower() or "measles" in r.title.lower() for r in results)


class ConceptEmbedder:
    """Maps words to a few concepts, so paraphrases meet where words do not."""

    CONCEPTS: ClassVar[dict[str, int]] = {
        "vaccine": 0,
        "vaccines": 0,
        "jab": 0,
        "jabs": 0,
        "shot": 0,
        "mmr": 0,
        "autism": 1,
        "harm": 2,
        "harms": 2,
        "safety": 2,
        "safe": 2,
        "heart": 3,
    }

    async def embed(self, texts: list[str]) -> Any:
        rows = np.zeros((len(texts), 4), dtype=np.float32)
        for n, text in enumerate(texts):
            for word in text.lower().replace(":", " ").split():
                if word in self.CONCEPTS:
                    rows[n, self.CONCEPTS[word]] += 1
        return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)


async def test_dense_retrieval_finds_what_words_miss(tmp_path: Path) -> None:
    documents = [
        CorpusDocument(
            url="https://a.example/autism",
            title="Autism overview",
            text="Autism is a developmental condition.",
        ),
        CorpusDocument(
            url="https://a.example/mmr",
            title="MMR vaccine safety",
            text="The vaccine is safe; studies of millions found no harm.",
        ),
        CorpusDocument(
            url="https://a.example/heart",
            title="Heart health",
            text="Exercise keeps the heart strong.",
        ),
    ]
    corpus = LocalCorpus.build(documents)
    corpus.save(tmp_path / "idx")
    assert await corpus.search("do jabs cause harms", limit=3) == []
    await corpus.add_dense(ConceptEmbedder())
    found = await corpus.search("do jabs cause harms", limit=3)
    assert found[0].url == "https://a.example/mmr"
    reloaded = LocalCorpus.load(tmp_path / "idx")
    assert reloaded.vectors is not None  # saved beside the index, not recomputed
    assert np.allclose(reloaded.vectors, corpus.vectors)


def test_single_files_and_errors_in_the_index_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pdf = tmp_path / "guide.pdf"
    pdf.write_bytes(text_pdf(["Washing hands with soap prevents many infections."]))
    code = main(
        [
            "corpus",
            "index",
            str(pdf),
            "--out",
            str(tmp_path / "idx"),
            "--base-url",
            "https://docs.example/",
        ]
    )
    assert code == 0
    assert "indexed 1 documents" in capsys.readouterr().out
    assert main(["corpus", "index", str(tmp_path / "missing.jsonl")]) == 3
    assert "does not exist" in capsys.readouterr().err
    assert main(["corpus", "index", str(pdf)]) == 3  # no URL for it: nothing to index
    assert "nothing to index" in capsys.readouterr().err
    binary = tmp_path / "blob.jsonl"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe")
    assert main(["corpus", "index", str(binary)]) == 3
    assert "is not UTF-8 text" in capsys.readouterr().err


def test_a_folder_of_covid_qa_files_is_indexed_and_a_wrong_layout_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "covid_qa"
    folder.mkdir()
    line = {
        "sourceUrl": "https://www.who.int/myth-busters",
        "sourceName": "WHO",
        "questionText": "Do 5G networks spread COVID-19?",
        "answerText": "Viruses cannot travel on radio waves or mobile networks.",
    }
    (folder / "WhoMyth_v0.3.jsonl").write_text(json.dumps(line) + "\n")
    (folder / "other.jsonl").write_text(json.dumps({"link": "https://a.example", "body": "x"}))
    code = main(["corpus", "index", str(folder), "--out", str(tmp_path / "idx")])
    out, err = capsys.readouterr()
    assert code == 0 and "indexed 1 documents" in out
    assert (
        "skipped other.jsonl: " in err
        and "other.jsonl:1 is not a corpus document: a line needs the fields url and text "
        "(title optional) or COVID-QA's sourceUrl and answerText; it has link, body"
        in err
    )
    (folder / "WhoMyth_v0.3.jsonl").unlink()
    assert main(["corpus", "index", str(folder), "--out", str(tmp_path / "idx")]) == 3
    assert "nothing to index: no JSONL line with url and text" in capsys.readouterr().err
