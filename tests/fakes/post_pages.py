"""What X's embed, Bluesky and a Mastodon server answer for a post, and a public address."""

from __future__ import annotations

PUBLIC = "93.184.216.34"


EMBED_HTML = (
    '<blockquote class="twitter-tweet"><p lang="en" dir="ltr">Measles vaccine &amp; autism: '
    'the &quot;truth&quot; they hide<br>read <a href="https://t.co/abc">vaxtruth.example/study</a>'
    ' and <a href="https://t.co/def">cdc.gov/vaccines/hcp/ac…</a> '
    '<a href="https://twitter.com/hashtag/MMR?src=hash&amp;ref_src=twsrc%5Etfw">#MMR</a> '
    '<a href="https://t.co/pic">pic.twitter.com/xyz</a></p>&mdash; Dr Example (@drexample) '
    '<a href="https://twitter.com/drexample/status/1890?ref_src=twsrc%5Etfw">February 10, 2025'
    "</a></blockquote>\n"
)


THREAD = {
    "thread": {
        "$type": "app.bsky.feed.defs#threadViewPost",
        "post": {
            "uri": "at://did:plc:abc/app.bsky.feed.post/3kxyz",
            "author": {"did": "did:plc:abc", "handle": "healthtruth.bsky.social"},
            "record": {
                "$type": "app.bsky.feed.post",
                "text": "Fluoride lowers IQ, see this study",
                "createdAt": "2025-03-01T08:30:00.000Z",
                "langs": ["en"],
                "facets": [
                    {
                        "index": {"byteStart": 25, "byteEnd": 35},
                        "features": [
                            {
                                "$type": "app.bsky.richtext.facet#link",
                                "uri": "https://fluoride.example/iq",
                            }
                        ],
                    },
                    {
                        "index": {"byteStart": 0, "byteEnd": 8},
                        "features": [
                            {"$type": "app.bsky.richtext.facet#mention", "did": "did:plc:x"}
                        ],
                    },
                ],
            },
            "embed": {
                "$type": "app.bsky.embed.recordWithMedia#view",
                "media": {
                    "$type": "app.bsky.embed.images#view",
                    "images": [
                        {
                            "thumb": "https://cdn.bsky.app/img/feed_thumbnail/x.jpg",
                            "fullsize": "https://cdn.bsky.app/img/feed_fullsize/x.jpg",
                            "alt": "A chart of IQ scores by fluoride level",
                        }
                    ],
                },
                "record": {
                    "record": {
                        "$type": "app.bsky.embed.record#viewRecord",
                        "uri": "at://did:plc:q/app.bsky.feed.post/3kq",
                        "author": {"did": "did:plc:q", "handle": "quoted.bsky.social"},
                        "value": {
                            "text": "Water fluoridation is safe.",
                            "createdAt": "2025-02-01T00:00:00Z",
                        },
                    }
                },
            },
        },
        "parent": {
            "$type": "app.bsky.feed.defs#threadViewPost",
            "post": {
                "uri": "at://did:plc:p/app.bsky.feed.post/3kp",
                "author": {"did": "did:plc:p", "handle": "parent.bsky.social"},
                "record": {
                    "text": "Is fluoride in water safe?",
                    "createdAt": "2025-02-28T00:00:00Z",
                },
            },
        },
    }
}


def status(number: str, content: str, **extra: object) -> dict[str, object]:
    return {
        "id": number,
        "url": f"https://social.example/@vax/{number}",
        "created_at": "2025-04-02T10:00:00.000Z",
        "language": "en",
        "content": content,
        "spoiler_text": "",
        "account": {"acct": "vax", "username": "vax"},
        "media_attachments": [],
        "in_reply_to_id": None,
        **extra,
    }
