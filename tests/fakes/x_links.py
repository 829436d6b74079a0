"""A post link as moderators paste it, one that is gone, and X's embed of the first."""

from __future__ import annotations

LINK = "https://x.com/drexample/status/1890"


GONE_ID = "404404"


EMBED = {
    "html": '<blockquote class="twitter-tweet"><p lang="en" dir="ltr">The measles vaccine causes'
    " autism &lt;!channel&gt;<br>second line</p>&mdash; Dr Example (@drexample) "
    '<a href="https://twitter.com/drexample/status/1890">February 10, 2025</a></blockquote>',
    "author_name": "Dr Example",
    "author_url": "https://twitter.com/drexample",
}
