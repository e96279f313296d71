"""Stored HTML that is safe to show: an allow-list of tags, attributes and URL schemes.

Article HTML is copied from hostile pages and shown to readers later, so it goes through
ammonia (via nh3), which parses it with a browser's parser (html5ever) and keeps only what
the lists below allow: no script, style, frame, form, embed, base or meta element, no event
handler or inline style, and no URL whose scheme (read as a browser reads it: leading
spaces, control characters, tabs, newlines and character references undone) is not http,
https or mailto; images load over http or https only. What is dropped keeps its text,
escaped, except inside script and style. Relative URLs stay relative, as the body's HTML
keeps them.
"""

from __future__ import annotations

import re

import nh3

# ammonia's curated tags for text and its structure (headings, lists, quotes, tables, code,
# figures, images, links), plus the sectioning elements articles are laid out in.
_TAGS = nh3.ALLOWED_TAGS | {"section", "main", "address", "tfoot"}
# The attributes the body's HTML keeps, each on the elements it means something on.
_ATTRIBUTES = {"*": {"title", "lang"}, "a": {"href"}, "area": {"href", "alt"},
               "img": {"src", "alt"}, "td": {"colspan", "rowspan"},
               "th": {"colspan", "rowspan"}, "time": {"datetime"}, "ins": {"datetime"},
               "del": {"datetime"}}
_LINK_SCHEMES = {"http", "https", "mailto"}
_IMAGE_SCHEMES = {"http", "https"}
# A URL's scheme as the WHATWG URL parser finds it, once leading and trailing C0 controls
# and spaces are stripped and tabs and newlines removed.
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_C0_AND_SPACE = "".join(map(chr, range(0x21)))


def url_scheme(url: str) -> str | None:
    """The lower-cased scheme a browser reads in `url` (an attribute's decoded value), or
    None for a relative URL."""
    found = _SCHEME.match(url.strip(_C0_AND_SPACE).replace("\t", "").replace("\n", "")
                          .replace("\r", ""))
    return found.group(1).lower() if found else None


def _only_web_images(element: str, attribute: str, value: str) -> str | None:
    """Attribute filter: an image's source only over http or https (or relative)."""
    if element == "img" and attribute == "src" and url_scheme(value) not in (
            None, *_IMAGE_SCHEMES):
        return None
    return value


# rel is not added to links: no target attribute is kept, so there is no opener to guard.
_CLEANER = nh3.Cleaner(tags=_TAGS, attributes=_ATTRIBUTES, url_schemes=_LINK_SCHEMES,
                       attribute_filter=_only_web_images, link_rel=None, strip_comments=True)


def sanitise(html: str) -> str:
    """`html` with only allowed tags, attributes and URL schemes left; text, line breaks
    inside <pre> and the kept structure unchanged."""
    return _CLEANER.clean(html)
