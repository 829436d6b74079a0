"""Bytes of a fetched document → the main text. CPU work on untrusted input: the web reader
runs it in a bounded child process (`adapters.web.extraction`)."""

from __future__ import annotations

import io
import re
from datetime import datetime

import lxml.etree
import lxml.html
import trafilatura
from pypdf import PdfReader
from pypdf.errors import PdfReadError
from readability import Document

from pipeline.errors import PageUnreadable
from pipeline.evidence import Page

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
TEXT_TYPES = frozenset({"text/plain", "text/markdown", "text/x-markdown"})
PDF_TYPES = frozenset({"application/pdf"})
SUPPORTED_TYPES = HTML_TYPES | TEXT_TYPES | PDF_TYPES

MIN_TEXT_CHARS = 80
_BOT_CHECK = re.compile(
    r"captcha|are you a robot|verify you are (a )?human|enable javascript and cookies|"
    r"checking your browser|access denied|unusual traffic",
    re.IGNORECASE,
)


def _date(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


# Inline formatting carries no text of its own; trafilatura's cost grows with the square of the
# inline elements in one block (250,000 <b> in a paragraph: 21 GB), so they go first (their
# text stays). Links stay: link density is how boilerplate is told from content.
_FORMATTING = (
    "b", "strong", "i", "em", "u", "s", "span", "font", "small", "big", "mark", "sup", "sub",
    "abbr", "cite", "code", "del", "ins", "q", "tt", "var", "kbd", "samp", "wbr",
)  # fmt: skip


def without_formatting(html: str) -> str:
    try:
        tree = lxml.html.fromstring(html)
    except (lxml.etree.ParserError, ValueError):  # empty, or nothing lxml can parse
        return html
    lxml.etree.strip_tags(tree, *_FORMATTING)
    return str(lxml.html.tostring(tree, encoding="unicode"))


def extract_html(html: str, url: str) -> Page:
    html = without_formatting(html)
    text = trafilatura.extract(
        html, url=url, favor_recall=True, include_tables=True, output_format="markdown"
    )
    metadata = trafilatura.extract_metadata(html, default_url=url)
    title = (metadata.title if metadata else None) or ""
    published = _date(metadata.date if metadata else None)
    if not text or len(text) < MIN_TEXT_CHARS:
        # trafilatura found no main content; readability's heuristics sometimes do.
        try:
            document = Document(html)
            title = title or document.short_title()
            text = lxml.html.fromstring(document.summary()).text_content()
        except Exception:  # readability raises bare Exceptions on odd markup
            text = text or ""
    return Page(url=url, title=title.strip(), text=_tidy(text or ""), published=published)


def extract_pdf(data: bytes, url: str) -> Page:
    try:
        reader = PdfReader(io.BytesIO(data))
        text = "\n\n".join(page.extract_text() or "" for page in reader.pages)
        title = str(reader.metadata.title or "") if reader.metadata else ""
    except (PdfReadError, ValueError, KeyError) as e:
        raise PageUnreadable(f"the PDF could not be parsed ({e})") from e
    return Page(url=url, title=title.strip(), text=_tidy(text))


def extract_text(data: bytes, url: str, charset: str | None) -> Page:
    text = data.decode(charset or "utf-8", errors="replace")
    heading = re.search(r"^#\s+(.+)$", text, re.MULTILINE)
    return Page(url=url, title=heading.group(1).strip() if heading else "", text=_tidy(text))


def extract(data: bytes, url: str, content_type: str, charset: str | None) -> Page:
    """Dispatch on the content type; refuse what is not a readable document."""
    if content_type in PDF_TYPES:
        page = extract_pdf(data, url)
    elif content_type in HTML_TYPES:
        page = extract_html(data.decode(charset or "utf-8", errors="replace"), url)
    elif content_type in TEXT_TYPES:
        page = extract_text(data, url, charset)
    else:
        raise PageUnreadable(f"unsupported content type {content_type or 'unknown'}")
    if len(page.text) < MIN_TEXT_CHARS:
        if _BOT_CHECK.search(page.text + " " + page.title):
            raise PageUnreadable("the site answered with a bot check (CAPTCHA), not the page")
        raise PageUnreadable("no readable text could be extracted")
    if len(page.text) < 600 and _BOT_CHECK.search(page.text[:600]):
        raise PageUnreadable("the site answered with a bot check (CAPTCHA), not the page")
    return page


def _tidy(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", re.sub(r"[ \t]+\n", "\n", text)).strip()
