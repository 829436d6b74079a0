"""Documents the tests make themselves: an article page, a Markdown file, a text PDF."""

from __future__ import annotations

ARTICLE_TEXT = (
    "Measles, mumps, and rubella (MMR) vaccine is very safe and effective. Two doses of MMR "
    "vaccine are about 97% effective at preventing measles. Many large studies involving "
    "millions of children have found no link between the MMR vaccine and autism."
)


def article_html(title: str = "MMR Vaccine Safety", body: str = ARTICLE_TEXT) -> str:
    paragraphs = "".join(f"<p>{s.strip()}.</p>" for s in body.split(".") if s.strip())
    return f"""<!doctype html><html><head><title>{title} | Example Health</title>
<meta property="og:title" content="{title}">
<meta name="date" content="2024-05-01"></head>
<body><nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/shop">Shop</a></nav>
<main><article><h1>{title}</h1>{paragraphs}</article></main>
<footer>Copyright Example Health. Privacy policy. Terms of use.</footer></body></html>"""


def text_pdf(lines: list[str]) -> bytes:
    """A minimal valid PDF whose single page shows `lines` in Helvetica."""
    stream = (
        "BT /F1 12 Tf 72 720 Td 14 TL "
        + " ".join(
            "(" + line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ") '"
            for line in lines
        )
        + " ET"
    )
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    ).encode()
    return out
