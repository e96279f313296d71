"""Turn fetched bytes into one parsed lxml tree: decoding and parsing happen once per page.

Every later stage (page type, density extraction, record mining, template diff)
works on the `Document` built here, so a page is never decoded or parsed twice.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property, lru_cache
from urllib.parse import urldefrag, urljoin, urlsplit
from zoneinfo import ZoneInfo

import lxml.html
from charset_normalizer import from_bytes
from lxml import etree

from pipelines.bounds import ATTRIBUTES, LINKS, MARKUP, cap_attributes, cap_markup, cap_tree
from pipelines.clean import clean_tree
from pipelines.params import DECODING, PAGE_BOUNDS, DecodingParams, PageBoundsParams
from pipelines.xml_text import xml_safe

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_\-]+)""", re.I)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([a-zA-Z0-9_\-]+)", re.I)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
# </body> and </html> end tags (bytes and str: the parser reads either).
_END_TAGS = {bytes: re.compile(rb"</(?:body|html)\s*>", re.I),
             str: re.compile(r"</(?:body|html)\s*>", re.I)}
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# Declared labels that real servers send for encodings whose superset decodes strictly more pages.
_SUPERSETS = {
    "gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "gb_2312-80": "gb18030",
    "cp936": "gb18030", "big5": "big5hkscs", "iso-8859-1": "cp1252", "latin-1": "cp1252",
    "ascii": "cp1252", "us-ascii": "cp1252", "shift_jis": "cp932", "euc-kr": "cp949",
}
# Python codecs that pass codec lookup's text-encoding check yet are no character set a page
# is written in: host-name codecs, Python's escape syntaxes, the codec that always fails, and
# UTF-7, which the HTML standard forbids (browsers ignore it: it hides markup from filters).
# Declared, they are ignored like an unknown label.
_NOT_PAGE_ENCODINGS = frozenset({"idna", "punycode", "undefined", "unicode-escape",
                                 "raw-unicode-escape", "utf-7"})


class NotHtmlError(ValueError):
    """The body is binary (image, PDF, archive…) and must not be parsed as a page."""


@dataclass
class Document:
    """A decoded, parsed page: the one tree every stage reads."""

    tree: lxml.html.HtmlElement
    text: str
    encoding: str
    url: str | None = None
    fetched_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    # the zone the site writes its times in, when the crawl is told (a source's setting);
    # else the page's country domain or language decide (pipelines.article.dates.zones)
    zone: ZoneInfo | None = None
    # the caps of pipelines.bounds that cut something of this page (its first part was read)
    capped: set[str] = field(default_factory=set)
    bounds: PageBoundsParams = PAGE_BOUNDS

    @property
    def body(self) -> lxml.html.HtmlElement:
        """The <body> element (lxml always creates one for HTML input)."""
        found = self.tree.find("body")
        return found if found is not None else self.tree

    @cached_property
    def base_url(self) -> str | None:
        """The URL relative links resolve against: <base href> if present, else the page URL."""
        base = self.tree.find("head/base[@href]")
        href = base.get("href") if base is not None else None
        return (join_url(self.url or "", href) if href else None) or self.url

    @cached_property
    def links(self) -> list[str]:
        """Absolute http(s) link targets of the page, in document order, without fragments;
        the first `bounds.max_links` of them."""
        found: list[str] = []
        seen: set[str] = set()
        base = self.base_url or ""
        origin = _origin(base)
        for anchor in self.body.iter("a"):
            href = (anchor.get("href") or "").strip()
            if not href or href.startswith(("#", "javascript:", "mailto:", "tel:")):
                continue
            # Absolute and root-relative links resolve the same from any page of a site, so
            # they are resolved once per site (a site's navigation recurs on every page).
            shared = (href.startswith(("http://", "https://"))
                      and href.partition("//")[2][:1] not in ("", "/")) or (
                href.startswith("/") and not href.startswith("//"))
            url = _resolve(origin if shared else base, href)
            if url and url.startswith(("http://", "https://")) and url not in seen:
                if len(found) == self.bounds.max_links:
                    self.capped.add(LINKS)
                    break
                seen.add(url)
                found.append(url)
        return found


@lru_cache(maxsize=4096)
def _origin(base: str) -> str:
    """scheme://host of a base URL: what an absolute or root-relative link's resolution
    depends on (the base itself when it has no host)."""
    parts = urlsplit(base)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else base


@lru_cache(maxsize=65536)
def _resolve(base: str, href: str) -> str | None:
    """The absolute link without its fragment (urljoin and urldefrag are dear per link);
    None for a link no URL parser reads ("http://host[:port%5D/x": a bracket opened for an
    IPv6 host and never closed), which a browser also leaves dead: one such link must not
    cost the page."""
    joined = join_url(base, href)
    return urldefrag(joined)[0] if joined else None


def _parses(url: str) -> bool:
    """Whether a URL parser reads the URL: a page whose own URL none reads (a bracket
    opened for an IPv6 host and never closed) is read as a page of unknown address."""
    try:
        urlsplit(url)
    except ValueError:
        return False
    return True


def join_url(base: str, href: str) -> str | None:
    """urljoin, or None for a link no URL parser reads ("http://host[:port%5D/x"): callers
    skip that one link, never the page."""
    try:
        return urljoin(base, href)
    except ValueError:
        return None


def element_children(element: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    """Child elements only: comments and processing instructions carry no structure."""
    return [child for child in element if isinstance(child.tag, str)]


def normalise_encoding(label: str | None) -> str | None:
    """Map a declared charset label to a Python codec, preferring supersets (GBK → GB18030);
    None for a label that names no character set (unknown, or a codec of bytes to bytes
    such as hex, base64 or zip, or one of _NOT_PAGE_ENCODINGS): the page is decoded as if
    it declared nothing."""
    if not label:
        return None
    label = label.strip().lower()
    label = _SUPERSETS.get(label, label)
    try:
        codec = codecs.lookup(label)
    except LookupError:
        return None
    # _is_text_encoding is how str.encode and bytes.decode themselves refuse hex or zlib
    if not getattr(codec, "_is_text_encoding", True) or codec.name in _NOT_PAGE_ENCODINGS:
        return None
    return codec.name


def looks_binary(body: bytes, params: DecodingParams = DECODING) -> bool:
    """True for bodies that are not text: NUL bytes in the head betray images, PDFs, archives."""
    head = body[:params.binary_sniff_bytes]
    if head.startswith((b"%PDF", b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"PK\x03\x04")):
        return True
    return b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))


def _declared_encodings(body: bytes, content_type: str | None,
                        params: DecodingParams) -> list[str]:
    """Encodings the page claims, in trust order: BOM, HTTP header, <meta>."""
    found: list[str] = []
    for bom, name in _BOMS:
        if body.startswith(bom):
            return [name]
    if content_type:
        match = _HEADER_CHARSET.search(content_type)
        if match:
            found.append(match.group(1))
    match = _META_CHARSET.search(body[:params.sniff_bytes])
    if match:
        found.append(match.group(1).decode("ascii", "ignore"))
    return [enc for enc in (normalise_encoding(label) for label in found) if enc]


def _decodes_cleanly(body: bytes, encoding: str, params: DecodingParams) -> str | None:
    text = body.decode(encoding, errors="replace")
    if text.count("\ufffd") <= params.max_replacement_share * max(len(text), 1):
        return text
    return None


def _as_utf8(body: bytes, params: DecodingParams) -> str | None:
    """The text if the body is UTF-8, allowing a few corrupt bytes.

    Valid multi-byte UTF-8 almost never happens by accident in GBK or Latin-1 bytes,
    so mostly-valid UTF-8 beats any declaration (sites migrate and forget the meta).
    """
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    text = body.decode("utf-8", errors="replace")
    bad = text.count("\ufffd")
    good = len(text) - len(text.encode("ascii", errors="ignore")) - bad  # non-ASCII, in C
    return text if good >= params.utf8_good_per_bad * bad else None


def _detect_encoding(body: bytes, params: DecodingParams) -> str:
    """Guess an undeclared, non-UTF-8 encoding statistically; Chinese pages dominate."""
    guess = from_bytes(body[:params.detect_sample_bytes]).best()
    return normalise_encoding(guess.encoding if guess else None) or "gb18030"


def decode_html(body: bytes, content_type: str | None = None,
                params: DecodingParams = DECODING) -> tuple[str, str]:
    """Decode a page: BOM, then UTF-8 validity, then declarations that decode cleanly,
    then detection. Never fails on a bad byte: replacement characters stand in."""
    declared = _declared_encodings(body, content_type, params)
    if body.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return body.decode(declared[0], errors="replace").lstrip("\ufeff"), declared[0]
    text = _as_utf8(body, params)
    if text is not None:
        return text.lstrip("\ufeff"), "utf-8"
    for encoding in declared:
        text = _decodes_cleanly(body, encoding, params)
        if text is not None:
            return text, encoding
    encoding = _detect_encoding(body, params)
    return body.decode(encoding, errors="replace"), encoding


def _parser(encoding: str | None = None) -> lxml.html.HTMLParser:
    """An HTML parser that drops comments and PIs and keeps no id table (no stage asks it)."""
    parser = lxml.html.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True,
                                  collect_ids=False, encoding=encoding)
    # Every element is a plain HtmlElement, chosen in C: lxml.html's default lookup calls back
    # into Python for each element proxy (to pick Form/Input/Label classes no stage uses),
    # which made every tree walk of the route about twice as slow.
    parser.set_element_class_lookup(etree.ElementDefaultClassLookup(
        element=lxml.html.HtmlElement, comment=lxml.html.HtmlComment,
        pi=lxml.html.HtmlProcessingInstruction, entity=lxml.html.HtmlEntity))
    return parser


_PARSER = _parser()
# For bodies that are valid UTF-8: libxml2 reads them as they are, while a str reaches it as
# UTF-16 or UCS-4 and is converted back (a sixth of the parse). The given encoding beats any
# <meta charset> or XML declaration in the page.
_UTF8_PARSER = _parser("utf-8")


def _without_early_end_tags(markup: str | bytes) -> str | bytes:
    """The markup without its </body> and </html> end tags when content follows them: a
    browser reads on into the one body (a theme that closes </html> before its <body>, a
    second <body>), where libxml2 drops all that follows </html> or opens a second <body>
    element. The usual page, whose end tags only close it, is returned as it is."""
    end_tags = _END_TAGS[type(markup)]
    first = end_tags.search(markup)
    if first is None or _only_closes(markup, first.end(), end_tags):
        return markup
    return end_tags.sub(markup[:0], markup)


def _only_closes(markup: str | bytes, at: int, end_tags: re.Pattern) -> bool:
    """Whether nothing but whitespace, comments and more end tags follows `at`. Read piece by
    piece: a pattern that repeats a comment's lazy match backtracked exponentially over a
    page's trailing comments."""
    open_, close = ("<!--", "-->") if isinstance(markup, str) else (b"<!--", b"-->")
    while True:
        rest = markup[at:]
        stripped = rest.lstrip()
        at += len(rest) - len(stripped)
        if not stripped:
            return True
        if stripped.startswith(open_):
            end = markup.find(close, at + 4)
            if end < 0:
                return True  # an unclosed comment runs to the end: no content
            at = end + 3
            continue
        tag = end_tags.match(markup, at)
        if tag is None:
            return False
        at = tag.end()


def parse_html(markup: str | bytes, bounds: PageBoundsParams = PAGE_BOUNDS,
               capped: set[str] | None = None) -> lxml.html.HtmlElement:
    """Parse decoded HTML (or valid UTF-8 bytes) into a tree as a browser reads it: content
    after </body> or </html> and a second <body> are in the one body, markup before <html>
    too; broken or empty markup yields a (possibly empty) tree. The tree is cut to the
    bounds (pipelines.bounds); the caps that cut something are added to `capped`."""
    capped = set() if capped is None else capped
    parser = _UTF8_PARSER
    if isinstance(markup, str):  # lxml refuses a str that declares an encoding
        markup, parser = _XML_DECL.sub("", markup, count=1), _PARSER
    uncut = _without_early_end_tags(markup)
    markup = cap_attributes(uncut, bounds)
    if markup is not uncut:
        capped.add(ATTRIBUTES)
    try:
        root = lxml.html.document_fromstring(markup, parser=parser) if markup.strip() else None
    except (etree.ParserError, ValueError):
        root = None
    if root is None:
        root = lxml.html.document_fromstring("<html><body></body></html>", parser=_PARSER)
    capped |= cap_tree(root, markup, bounds)
    if root.find("body") is None:
        root.append(lxml.html.Element("body"))
    return root


def load_document(
    body: bytes,
    url: str | None = None,
    content_type: str | None = None,
    fetched_at: datetime | None = None,
    zone: ZoneInfo | None = None,
    params: DecodingParams = DECODING,
    bounds: PageBoundsParams = PAGE_BOUNDS,
) -> Document:
    """Decode, parse and clean fetched bytes, cut to the bounds (`Document.capped` names the
    caps that cut something); raises NotHtmlError for binary bodies. The text (and so the
    tree) holds no character XML forbids (pipelines.xml_text)."""
    if looks_binary(body, params):
        raise NotHtmlError("body is binary, not HTML")
    capped: set[str] = set()
    uncut, body = body, cap_markup(body, bounds)
    if body is not uncut:
        capped.add(MARKUP)
    decoded, encoding = decode_html(body, content_type, params)
    text = xml_safe(decoded)
    # libxml2 reads the bytes as fetched when they are the text: no byte was replaced, no
    # BOM stripped (decode_html strips them all, libxml2 only one), no character dropped.
    as_fetched = (encoding == "utf-8" and text is decoded and "\ufffd" not in text
                  and not body.startswith(codecs.BOM_UTF8))
    return Document(
        tree=clean_tree(parse_html(body if as_fetched else text, bounds, capped)),
        text=text,
        encoding=encoding,
        url=url if url is None or _parses(url) else None,
        fetched_at=fetched_at or datetime.now(UTC),
        zone=zone,
        capped=capped,
        bounds=bounds,
    )
