"""The guarded page reader: refusals, redirects, caps, extraction, no cookies, cache."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import respx

from adapters.web.address_guard import why_not_public
from adapters.web.cookies import no_cookies
from adapters.web.extraction import IsolatedExtractor
from adapters.web.page_cache import PageCache
from adapters.web.reader import GuardedPageReader
from pipeline.errors import PageUnreadable
from tests.fakes.documents import ARTICLE_TEXT, article_html, text_pdf
from tests.fakes.resolver import PUBLIC, StubResolver


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(cookies=no_cookies()) as c:
        yield c


_extractors: list[IsolatedExtractor] = []


@pytest.fixture(autouse=True)
async def _stop_extraction_children() -> AsyncIterator[None]:
    yield
    while _extractors:
        await _extractors.pop().aclose()


def reader(
    client: httpx.AsyncClient, table: dict[str, list[list[str]]] | None = None, **kwargs: object
) -> GuardedPageReader:
    resolver = StubResolver(table or {"example.org": [[PUBLIC]]})
    extractor = IsolatedExtractor()
    _extractors.append(extractor)
    return GuardedPageReader(client, resolver, extractor=extractor, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/admin",
        "http://[::1]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/",
        "http://100.64.1.1/",
        "http://[::ffff:127.0.0.1]/",
        "http://0.0.0.0/",
        "http://224.0.0.1/",
        "http://[2002:7f00:1::]/",  # 6to4 carrying 127.0.0.1
        "http://[2002:a9fe:a9fe::1]/",  # 6to4 carrying the metadata address
        "http://[64:ff9b::7f00:1]/",  # NAT64 carrying 127.0.0.1
        "http://[64:ff9b:1::a00:1]/",  # local-use NAT64 carrying 10.0.0.1
        "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",  # Teredo, client 127.0.0.1
        "http://[::127.0.0.1]/",  # IPv4-compatible
        "http://[::ffff:0:7f00:1]/",  # SIIT
    ],
)
@respx.mock(assert_all_mocked=True)
async def test_private_and_special_addresses_are_refused(
    client: httpx.AsyncClient, url: str
) -> None:
    with pytest.raises(PageUnreadable, match="refused"):
        await reader(client).read(url)
    assert respx.calls.call_count == 0


def test_public_addresses_pass_the_check() -> None:
    assert why_not_public(PUBLIC) is None
    assert why_not_public("2002:5db8:d822::1") is None  # 6to4 of a public address
    assert why_not_public("64:ff9b::5db8:d822") is None  # NAT64 of a public address
    assert why_not_public("2606:4700:4700::1111") is None
    assert why_not_public("192.168.1.1") == "a private address"


@respx.mock
async def test_a_name_resolving_to_a_private_address_is_refused(
    client: httpx.AsyncClient,
) -> None:
    with pytest.raises(PageUnreadable, match="intranet.example resolves to 10.1.2.3"):
        await reader(client, {"intranet.example": [["10.1.2.3"]]}).read("https://intranet.example/")
    assert respx.calls.call_count == 0


@respx.mock
async def test_connects_to_the_checked_address_even_if_dns_changes(
    client: httpx.AsyncClient,
) -> None:
    route = respx.get(f"http://{PUBLIC}/a").respond(200, html=article_html())
    rebinding = {"example.org": [[PUBLIC], ["127.0.0.1"]]}
    page = await reader(client, rebinding).read("http://example.org/a")
    assert "no link between the MMR vaccine and autism" in page.text
    request = route.calls.last.request
    assert request.url.host == PUBLIC
    assert request.headers["host"] == "example.org"


@respx.mock
async def test_https_keeps_the_name_for_tls(client: httpx.AsyncClient) -> None:
    route = respx.get(f"https://{PUBLIC}/a").respond(200, html=article_html())
    await reader(client).read("https://example.org/a")
    assert route.calls.last.request.extensions["sni_hostname"] == "example.org"


@respx.mock
async def test_a_redirect_to_a_private_address_is_refused(client: httpx.AsyncClient) -> None:
    respx.get(f"http://{PUBLIC}/go").respond(302, headers={"Location": "http://10.0.0.1/x"})
    with pytest.raises(PageUnreadable, match="refused: 10.0.0.1"):
        await reader(client).read("http://example.org/go")


@respx.mock
async def test_redirects_are_followed_and_rechecked(client: httpx.AsyncClient) -> None:
    respx.get(f"http://{PUBLIC}/old").respond(301, headers={"Location": "/new"})
    respx.get(f"http://{PUBLIC}/new").respond(200, html=article_html())
    page = await reader(client).read("http://example.org/old")
    assert page.url == "http://example.org/new"


@respx.mock
async def test_international_names_travel_in_their_ascii_form(client: httpx.AsyncClient) -> None:
    route = respx.get(f"http://{PUBLIC}/buch").respond(200, html=article_html())
    table = {"xn--bcher-kva.example": [[PUBLIC]]}
    page = await reader(client, table).read("http://bücher.example/buch")
    assert route.calls[0].request.headers["host"] == "xn--bcher-kva.example"
    assert "measles" in page.text.lower()
    with pytest.raises(PageUnreadable, match="not a valid domain name"):
        await reader(client, table).read(f"http://{'ü' * 70}.example/")


@respx.mock
async def test_redirect_loops_and_chains_end(client: httpx.AsyncClient) -> None:
    respx.get(f"http://{PUBLIC}/a").respond(302, headers={"Location": "/b"})
    respx.get(f"http://{PUBLIC}/b").respond(302, headers={"Location": "/a"})
    with pytest.raises(PageUnreadable, match="redirect loop"):
        await reader(client).read("http://example.org/a")
    for i in range(8):
        respx.get(f"http://{PUBLIC}/r{i}").respond(302, headers={"Location": f"/r{i + 1}"})
    with pytest.raises(PageUnreadable, match="more than 5 redirects"):
        await reader(client).read("http://example.org/r0")


@pytest.mark.parametrize(
    ("status", "message"),
    [(403, "HTTP 403"), (404, "HTTP 404"), (429, "rate-limiting"), (503, "HTTP 503")],
)
@respx.mock
async def test_http_errors_become_readable_reasons(
    client: httpx.AsyncClient, status: int, message: str
) -> None:
    respx.get(f"http://{PUBLIC}/x").respond(status, text="error")
    with pytest.raises(PageUnreadable, match=message):
        await reader(client).read("http://example.org/x")


@respx.mock
async def test_unreachable_and_tls_failures_are_reasons(client: httpx.AsyncClient) -> None:
    respx.get(f"http://{PUBLIC}/down").mock(side_effect=httpx.ConnectError("refused"))
    with pytest.raises(PageUnreadable, match="could not connect"):
        await reader(client).read("http://example.org/down")
    respx.get(f"https://{PUBLIC}/tls").mock(
        side_effect=httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify")
    )
    with pytest.raises(PageUnreadable, match="TLS error"):
        await reader(client).read("https://example.org/tls")


@respx.mock
async def test_non_documents_are_refused(client: httpx.AsyncClient) -> None:
    respx.get(f"http://{PUBLIC}/img").respond(
        200, content=b"\x89PNG", headers={"Content-Type": "image/png"}
    )
    with pytest.raises(PageUnreadable, match="unsupported content type image/png"):
        await reader(client).read("http://example.org/img")


@respx.mock
async def test_bot_checks_and_empty_pages_are_not_evidence(client: httpx.AsyncClient) -> None:
    respx.get(f"http://{PUBLIC}/captcha").respond(
        200, html="<html><body><h1>Are you a robot?</h1><p>Complete the CAPTCHA.</p></body>"
    )
    with pytest.raises(PageUnreadable, match="bot check"):
        await reader(client).read("http://example.org/captcha")
    respx.get(f"http://{PUBLIC}/empty").respond(200, html="<html><body></body></html>")
    with pytest.raises(PageUnreadable, match="no readable text"):
        await reader(client).read("http://example.org/empty")


@respx.mock
async def test_oversized_html_is_cut_and_still_read(client: httpx.AsyncClient) -> None:
    big = article_html(body=ARTICLE_TEXT + " Filler sentence here." * 20000)
    respx.get(f"http://{PUBLIC}/big").respond(200, html=big)
    page = await reader(client, max_bytes=50_000).read("http://example.org/big")
    assert "no link between the MMR vaccine and autism" in page.text
    assert len(page.text) < 50_000


@respx.mock
async def test_oversized_pdf_is_refused(client: httpx.AsyncClient) -> None:
    respx.get(f"http://{PUBLIC}/big.pdf").respond(
        200,
        content=text_pdf(["x"] * 10) + b"%" * 60_000,
        headers={"Content-Type": "application/pdf"},
    )
    with pytest.raises(PageUnreadable, match="larger than 50,000 bytes"):
        await reader(client, max_bytes=50_000).read("http://example.org/big.pdf")


@respx.mock
async def test_slow_pages_time_out(client: httpx.AsyncClient) -> None:
    async def slow(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(2)
        return httpx.Response(200, html=article_html())

    respx.get(f"http://{PUBLIC}/slow").mock(side_effect=slow)
    with pytest.raises(PageUnreadable, match="no complete answer within 0 s"):
        await reader(client, timeout_s=0.2).read("http://example.org/slow")


@respx.mock
async def test_pdf_markdown_and_html_are_extracted(client: httpx.AsyncClient) -> None:
    respx.get(f"http://{PUBLIC}/doc.pdf").respond(
        200,
        content=text_pdf(
            [
                "Two doses of MMR vaccine are 97% effective.",
                "No link between MMR vaccine and autism was found in studies.",
                "Source: national immunisation programme guidance.",
            ]
        ),
        headers={"Content-Type": "application/pdf"},
    )
    respx.get(f"http://{PUBLIC}/doc.md").respond(
        200,
        text="# Measles facts\n\n" + ARTICLE_TEXT,
        headers={"Content-Type": "text/markdown; charset=utf-8"},
    )
    respx.get(f"http://{PUBLIC}/doc.html").respond(200, html=article_html())
    r = reader(client)
    pdf = await r.read("http://example.org/doc.pdf")
    assert "97% effective" in pdf.text
    md = await r.read("http://example.org/doc.md")
    assert md.title == "Measles facts"
    html = await r.read("http://example.org/doc.html")
    assert html.title == "MMR Vaccine Safety"
    assert "Privacy policy" not in html.text
    assert html.published is not None


@respx.mock
async def test_no_cookies_are_kept_or_sent(client: httpx.AsyncClient) -> None:
    route = respx.get(f"http://{PUBLIC}/c").respond(
        200, html=article_html(), headers={"Set-Cookie": "session=abc; Path=/"}
    )
    r = reader(client)
    await r.read("http://example.org/c")
    await r.read("http://example.org/c")
    assert "cookie" not in route.calls.last.request.headers


@respx.mock
async def test_cached_pages_are_not_fetched_again(
    client: httpx.AsyncClient, tmp_path: Path
) -> None:
    route = respx.get(f"http://{PUBLIC}/cached").respond(200, html=article_html())
    cache = PageCache(tmp_path / "pages", ttl_s=3600)
    first = await reader(client, cache=cache).read("http://example.org/cached")
    second = await reader(client, cache=cache).read("http://example.org/cached")
    assert first == second
    assert route.call_count == 1
    expired = PageCache(tmp_path / "pages", ttl_s=-1)
    await reader(client, cache=expired).read("http://example.org/cached")
    assert route.call_count == 2


@respx.mock
async def test_links_with_credentials_or_other_schemes_are_refused(
    client: httpx.AsyncClient,
) -> None:
    for url, message in [
        ("ftp://example.org/x", "only http and https"),
        ("http://user:pw@example.org/", "credentials"),
        ("file:///etc/passwd", "only http and https"),
    ]:
        with pytest.raises(PageUnreadable, match=message):
            await reader(client).read(url)


@respx.mock
async def test_broken_documents_are_unreadable_not_crashes(client: httpx.AsyncClient) -> None:
    respx.get(f"http://{PUBLIC}/broken.pdf").respond(
        200, content=b"%PDF-1.4\n garbage \x00\x01", headers={"Content-Type": "application/pdf"}
    )
    with pytest.raises(PageUnreadable, match="could not be parsed"):
        await reader(client).read("http://example.org/broken.pdf")


@pytest.mark.parametrize(
    "url",
    ["http://example.com:99999/x", "http://[::1:80/", "http://example.org:-1/", "http://[zz]/"],
)
@respx.mock(assert_all_mocked=True)
async def test_malformed_links_are_unreadable_not_failures(
    client: httpx.AsyncClient, url: str
) -> None:
    with pytest.raises(PageUnreadable, match="refused"):
        await reader(client).read(url)
    assert respx.calls.call_count == 0


@respx.mock
async def test_opens_checks_a_link_as_x_does(client: httpx.AsyncClient) -> None:
    """A note's link must answer HTTP 200, redirects followed by the same guards as a read;
    nothing is parsed, nothing cached."""
    respx.get(f"http://{PUBLIC}/ok").respond(200, html=article_html())
    respx.get(f"http://{PUBLIC}/moved").respond(301, headers={"Location": "/ok"})
    respx.get(f"http://{PUBLIC}/gone").respond(404)
    respx.get(f"http://{PUBLIC}/inside").respond(302, headers={"Location": "http://10.0.0.1/"})
    checker = reader(client)
    assert await checker.opens("http://example.org/ok") is None
    assert await checker.opens("http://example.org/moved") is None
    assert await checker.opens("http://example.org/gone") == "HTTP 404"
    assert "refused" in (await checker.opens("http://example.org/inside") or "")


@respx.mock
@pytest.mark.parametrize(
    "location",
    [
        "http://bücher.example/x",  # an IDN host in a redirect (it failed episodes)
        "http://bücher.example/ä?q=ö",  # and a path and query in another script
        "http://[::1/x",  # a bracket never closed
        "http://example.org:99999/x",  # a port out of range
        "http://%zz/x",
        "\udcff",  # a lone surrogate, as a mis-decoded header arrives
    ],
)
async def test_a_hostile_redirect_costs_only_its_page(
    client: httpx.AsyncClient, location: str
) -> None:
    respx.get(f"http://{PUBLIC}/go").mock(
        return_value=httpx.Response(
            302, headers=[(b"Location", location.encode("utf-8", "surrogateescape"))]
        )
    )
    respx.get(f"http://{PUBLIC}/x").respond(200, html=article_html())
    respx.route(host=PUBLIC).respond(404)
    table = {"example.org": [[PUBLIC]], "xn--bcher-kva.example": [[PUBLIC]]}
    try:
        page = await reader(client, table).read("http://example.org/go")
    except PageUnreadable:
        return  # that page could not be read: an observation
    assert page.text


@respx.mock
async def test_an_apis_answer_is_read_as_guarded_and_capped(client: httpx.AsyncClient) -> None:
    # the wiki reader asks MediaWiki's API which revision stood (#59)
    respx.get(f"http://{PUBLIC}/w/api.php").respond(200, json={"query": {"pages": []}})
    respx.get(f"http://{PUBLIC}/big").respond(200, content=b"x" * 20_000)
    respx.get(f"http://{PUBLIC}/gone").respond(404)
    data = await reader(client).read_data("http://example.org/w/api.php")
    assert data == b'{"query":{"pages":[]}}'
    with pytest.raises(PageUnreadable, match="larger than 10,000 bytes"):
        await reader(client, max_bytes=10_000).read_data("http://example.org/big")
    with pytest.raises(PageUnreadable, match="HTTP 404"):
        await reader(client).read_data("http://example.org/gone")
    with pytest.raises(PageUnreadable, match="not public|private|reserved|loopback"):
        await reader(client).read_data("http://127.0.0.1/w/api.php")
