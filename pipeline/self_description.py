"""What a post says of itself — "satire", "a joke", "just my opinion", "parody" — found in
any case or spelling. Such words never decide whether a note is needed: a health claim stated
as fact needs one whatever the post calls itself (issue 60), so the episode does not act on a
"no note needed" for a post that describes itself (`pipeline.episode`). Untrusted text: the
label is the one thing a post's author controls outright."""

from __future__ import annotations

import re
import unicodedata

# Letters of other scripts that look like Latin ones ("ѕаtire" in Cyrillic), and digits and
# signs written for letters inside a word ("s4tire", "j0ke").
_LOOK_ALIKES = str.maketrans("аеорсхуіѕјкмтνοαεικρτυ", "aeopcxyisjkmtvoaeikptu")
_LEET = str.maketrans("0134579@$", "oieastgas")
_LEET_WORD = re.compile(r"[a-z0-9@$]*[a-z][a-z0-9@$]*")
# One letter at a time, spaced or dotted apart: "s.a.t.i.r.e", "p a r o d y".
_SPELT_OUT = re.compile(r"\b(?:[a-z][\s.\-_*·]+){3,}[a-z]\b")

# The post's words about itself, after `folded`. Broad on purpose: a false match only means a
# decline is not acted on and the post is researched; a miss lets a label talk a claim out of
# its note.
SELF_DESCRIPTIONS = re.compile(
    r"\b(?:"
    r"satir\w*|parod\w*|sarcas\w*|spoof\w*|lampoon\w*|"
    r"jok(?:e|es|ing|ingly)|jk|j/k|kidding|just\s+kiddin\w*|"
    r"humou?r\w*|comed\w*|meme\w*|troll\w*|tongue[\s-]in[\s-]cheek|hyperbol\w*|"
    r"fiction\w*|not\s+to\s+be\s+taken\s+seriously|"
    r"opinion\w*|opini[oó]n|imh?o|just\s+saying|my\s+two\s+cents|my\s+(?:own\s+)?views?|"
    r"not\s+(?:medical\s+|professional\s+)?advice|"
    r"(?:my|personal)\s+(?:own\s+)?experiences?|"
    r"broma|blague|witz"
    r")\b"
    r"|(?<![\w/])/s\b"  # the sarcasm tag
)


def folded(text: str) -> str:
    """The text as a label is matched: compatibility-normalised (fullwidth → ASCII), accents
    and invisible characters dropped, case-folded, look-alike letters and in-word digits read
    as the letters they stand for, and letters spelt one at a time joined."""
    plain = "".join(
        c
        for c in unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
        if not unicodedata.combining(c) and unicodedata.category(c) != "Cf"
    )
    text = plain.casefold().translate(_LOOK_ALIKES)
    text = _LEET_WORD.sub(lambda m: m.group().translate(_LEET), text)
    return _SPELT_OUT.sub(lambda m: re.sub(r"[\s.\-_*·]+", "", m.group()), text)


def self_description(text: str) -> str | None:
    """The first word of the post about itself ("satire", "just my opinion"), as folded; None
    when it says nothing of itself."""
    found = SELF_DESCRIPTIONS.search(folded(text))
    return found.group() if found else None
