"""Node labelling features: quantity, sign and layout of each block, plus its neighbours'.

Every feature is language-neutral or has Chinese and Western variants (date
shapes, 作者/来源/发布时间 cues), so a model trained on English and German pages
still reads a Chinese byline. Full-width punctuation counts as its ASCII twin
(：as :, ，as ,, 。as .), and lengths count a CJK character as three Latin ones,
the usual information ratio, for the same reason. There is no "share of CJK
characters" or "has full-width punctuation" feature: trained on Western pages they
would only learn that Chinese text is a sidebar, or that curly quotes mean prose.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

import lxml.html

from pipelines.labelling.days import find_day
from pipelines.labelling.linearise import Block
from pipelines.lexicon import ATTRIBUTE_CUES as ATTRIBUTE_CUE_WORDS
from pipelines.lexicon import TEXT_CUES as TEXT_CUE_WORDS
from pipelines.params import NODE_FEATURES, NodeFeatureParams

_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_WORD = re.compile(r"[^\W\d_]+")
_SENTENCE_END = re.compile(r"[。！？!?]|\.(?:\s|$)")
_COMMA = re.compile(r"[，,、；;]")
_NOT_ALNUM = re.compile(r"[\W_]+")
_DIGIT = re.compile(r"\d")
_CLOCK = re.compile(r"\d{1,2}[:：]\d{2}")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_LABEL_COLON = re.compile(r"^[^:：]{1,12}[:：]")
# Cue words in the text itself (one feature each) and in class / id / itemprop / rel.
TEXT_CUES = {name: re.compile(cue, re.I) for name, cue in TEXT_CUE_WORDS.items()}
BYLINE_CUES = ("author", "source", "time")
ATTRIBUTE_CUES = {name: re.compile(cue) for name, cue in ATTRIBUTE_CUE_WORDS.items()}
ANCESTOR_TAGS = frozenset({"article", "aside", "nav", "header", "footer", "table", "ul", "ol",
                           "blockquote", "form", "main", "section", "dl"})
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
TAG_GROUPS = {"h1": "h1", "h2": "h2", "h3": "h3+", "h4": "h3+", "h5": "h3+", "h6": "h3+",
              "p": "p", "li": "li", "dd": "li", "dt": "li", "td": "td", "th": "td",
              "div": "div", "section": "div", "article": "div", "pre": "quote",
              "blockquote": "quote", "span": "inline", "a": "inline", "font": "inline"}
CONTEXT_PREFIXES = ("tag=", "len=", "sign:", "cue:", "kind=", "title", "link=", "attr:near",
                    "up1:")


def squash(text: str) -> str:
    """Letters and digits only, case-folded, NFKC: the form in which texts are compared."""
    return _NOT_ALNUM.sub("", unicodedata.normalize("NFKC", text).casefold())


def page_titles(tree: lxml.html.HtmlElement) -> list[str]:
    """The titles the page declares in <head>: og/twitter title and the <title> element."""
    found = tree.xpath(
        "//meta[@property='og:title' or @name='twitter:title' or @name='title']/@content"
        " | //head/title//text()"
    )
    return [str(text).strip() for text in found if str(text).strip()]


def _bucket(value: float, edges: Sequence[float]) -> int:
    return next((i for i, edge in enumerate(edges) if value <= edge), len(edges))


def weighted_length(text: str, params: NodeFeatureParams = NODE_FEATURES) -> int:
    """Visible characters, a CJK character counting `cjk_weight` times."""
    cjk = len(_CJK.findall(text))
    return len(text) - text.count(" ") + (params.cjk_weight - 1) * cjk


def quantity_features(block: Block, params: NodeFeatureParams = NODE_FEATURES) -> dict[str, float]:
    """How much text, how much of it linked or emphasised."""
    length = weighted_length(block.text, params)
    link_share = block.link_chars / max(block.chars, 1)
    emphasis = block.emphasis_chars / max(block.chars, 1)
    return {
        f"len={_bucket(length, params.length_edges)}": 1.0,
        f"link={_bucket(link_share, params.link_share_edges)}": 1.0,
        f"emph={_bucket(emphasis, params.emphasis_edges)}": 1.0,
        f"links={_bucket(block.links, params.link_count_edges)}": 1.0,
        "log_len": math.log1p(length) / params.log_length_scale,
    }


def context_features(block: Block, params: NodeFeatureParams = NODE_FEATURES) -> dict[str, float]:
    """How much of the page's text each close ancestor holds, and how densely it is linked.

    A paragraph inside the container that holds most of the page's text is body; the
    same paragraph in a link-dense sidebar is not.
    """
    page_chars = max(block.page.chars, 1) if block.page else 1
    feats = {}
    for level, counts in enumerate(block.ancestors, start=1):
        share = counts.chars / page_chars
        per_link = (counts.chars / counts.links if counts.links
                    else params.unlinked_chars_per_link)
        feats[f"up{level}:mass={_bucket(share, params.ancestor_share_edges)}"] = 1.0
        feats[f"up{level}:per_link={_bucket(per_link, params.chars_per_link_edges)}"] = 1.0
    return feats


def repetition_features(blocks: Sequence[Block],
                        params: NodeFeatureParams = NODE_FEATURES) -> list[dict[str, float]]:
    """How many blocks share this block's tag, parent tag and parent class: lists, comments."""
    def signature(block: Block) -> tuple[str, str, str]:
        parent = block.element.getparent()
        if parent is None:
            return (block.element.tag, "", "")
        return (block.element.tag, parent.tag, parent.get("class") or "")

    signatures = [signature(b) for b in blocks]
    counts = Counter(signatures)
    return [{f"repeat={_bucket(counts[s], params.repeat_edges)}": 1.0} for s in signatures]


def sign_features(text: str, now: datetime | None,
                  params: NodeFeatureParams = NODE_FEATURES) -> dict[str, float]:
    """What kinds of characters and shapes the text holds: script, digits, dates, cues."""
    head = text[:params.sign_window]
    size = max(len(head.replace(" ", "")), 1)
    digits = len(_DIGIT.findall(head)) / size
    feats = {
        f"sign:digit={_bucket(digits, params.digit_share_edges)}": 1.0,
        f"sign:end={_bucket(len(_SENTENCE_END.findall(text)), params.sentence_end_edges)}": 1.0,
        f"sign:comma={_bucket(len(_COMMA.findall(text)), params.comma_edges)}": 1.0,
    }
    words = _WORD.findall(head)
    if (len(words) >= params.titlecase_min_words
            and sum(w[0].isupper() for w in words) / len(words) >= params.titlecase_share):
        feats["sign:titlecase"] = 1.0
    flags = {
        "clock": _CLOCK.search(head),
        "year": _YEAR.search(head), "label_colon": _LABEL_COLON.search(head),
        "ends_sentence": _SENTENCE_END.search(text[-2:]),
    }
    feats.update({f"sign:{name}": 1.0 for name, hit in flags.items() if hit})
    found = find_day(head, now)
    if found and any(ch.isdigit() for ch in found[1]):  # "今天" in prose is no date line
        feats["sign:date"] = 1.0
        if len(squash(found[1])) >= params.date_only_share * len(squash(head)):
            feats["sign:date_only"] = 1.0
    lead = text[:params.cue_window]
    feats.update({f"cue:{name}": 1.0 for name, cue in TEXT_CUES.items() if cue.search(lead)})
    if "sign:date" in feats and any(f"cue:{cue}" in feats for cue in BYLINE_CUES):
        feats["sign:dated_byline"] = 1.0  # "2023年5月1日 来源：… 作者：…", "By X, May 1, 2023"
    return feats


def _own_marks(element: lxml.html.HtmlElement) -> frozenset[str]:
    """Section tags and class/id/itemprop/rel cue groups of one element."""
    marks = {f"in:{element.tag}"} if element.tag in ANCESTOR_TAGS else set()
    if element.tag in HEADING_TAGS:
        marks.add("in:heading")
    attributes = " ".join(element.get(name) or "" for name in ("class", "id", "itemprop", "rel"))
    if attributes.strip():
        lowered = attributes.lower()
        marks.update(name for name, cue in ATTRIBUTE_CUES.items() if cue.search(lowered))
    return frozenset(marks)


class Lineage:
    """Marks of elements and of their whole ancestry, each element computed once per page."""

    def __init__(self, params: NodeFeatureParams = NODE_FEATURES) -> None:
        self.params = params
        self._own: dict[lxml.html.HtmlElement, frozenset[str]] = {}
        self._all: dict[lxml.html.HtmlElement, frozenset[str]] = {}

    def own(self, element: lxml.html.HtmlElement) -> frozenset[str]:
        if element not in self._own:
            self._own[element] = _own_marks(element)
        return self._own[element]

    def ancestry(self, element: lxml.html.HtmlElement) -> frozenset[str]:
        """Marks of the element and all its ancestors (walks up only to the first cached one)."""
        chain = []
        node = element
        while node is not None and node not in self._all:
            chain.append(node)
            node = node.getparent()
        inherited = self._all[node] if node is not None else frozenset()
        for link in reversed(chain):
            inherited = self._all[link] = inherited | self.own(link)
        return inherited

    def near(self, element: lxml.html.HtmlElement) -> frozenset[str]:
        """Marks of the element and its `near_ancestors` - 1 closest ancestors."""
        marks: frozenset[str] = frozenset()
        for _ in range(self.params.near_ancestors):
            if element is None:
                break
            marks |= self.own(element)
            element = element.getparent()
        return marks


def layout_features(block: Block, lineage: Lineage,
                    params: NodeFeatureParams = NODE_FEATURES) -> dict[str, float]:
    """Tag, depth, enclosing sections and class/id cues of the block and its ancestors."""
    feats = {
        f"tag={TAG_GROUPS.get(block.element.tag, 'other')}": 1.0,
        f"depth={_bucket(block.depth, params.depth_edges)}": 1.0,
        f"kind={block.kind.value}": 1.0,
    }
    near = lineage.near(block.element)
    for mark in sorted(lineage.ancestry(block.element)):  # stable order: reproducible training
        if mark.startswith("in:"):
            feats[mark] = 1.0
        else:
            feats[f"attr:{'near' if mark in near else 'far'}:{mark}"] = 1.0
    return feats


def title_features(text: str, titles: Sequence[str],
                   params: NodeFeatureParams = NODE_FEATURES) -> dict[str, float]:
    """Whether the block repeats a title the page declares in <head> (titles squashed)."""
    own = squash(text)
    if not own:
        return {}
    for title in titles:
        if own == title:
            return {"title=eq": 1.0}
        if own in title and len(own) >= params.title_part_share * len(title):
            return {"title=part": 1.0}
        if title in own and len(own) <= params.title_wrap_factor * len(title):
            return {"title=wraps": 1.0}
    return {}


def position_features(blocks: Sequence[Block],
                      params: NodeFeatureParams = NODE_FEATURES) -> list[dict[str, float]]:
    """Where each block sits: in the sequence, and relative to the page's bulk of text."""
    total = len(blocks)
    masses = [b.chars if b.links == 0 or b.chars >= params.chars_per_link_mass * b.links else 0
              for b in blocks]
    all_mass = max(sum(masses), 1)
    longest = max(range(total), key=masses.__getitem__) if total else 0
    before = 0
    result = []
    for index, mass in enumerate(masses):
        offset = index - longest
        result.append({
            f"pos={_bucket(index / max(total - 1, 1), params.position_edges)}": 1.0,
            f"mass_before={_bucket(before / all_mass, params.mass_before_edges)}": 1.0,
            f"to_longest={_bucket(offset, params.to_longest_edges)}": 1.0,
        })
        before += mass
    return result


def headline_distance(own: Sequence[dict[str, float]],
                      params: NodeFeatureParams = NODE_FEATURES) -> list[dict[str, float]]:
    """Blocks since the last headline-like block (h1, or one repeating the <head> title).

    Bylines and dates sit just under the headline in every language.
    """
    result, last = [], None
    for index, feats in enumerate(own):
        distance = index - last if last is not None else None
        result.append({f"since_headline={_bucket(distance, params.since_headline_edges)}": 1.0}
                      if distance is not None else {})
        if "tag=h1" in feats or any(name.startswith("title=") for name in feats):
            last = index
    return result


def _context(feats: dict[str, float], prefix: str) -> dict[str, float]:
    return {prefix + name: value for name, value in feats.items()
            if name.startswith(CONTEXT_PREFIXES)}


def sequence_features(
    blocks: Sequence[Block], titles: Sequence[str] = (), now: datetime | None = None,
    params: NodeFeatureParams = NODE_FEATURES,
) -> list[dict[str, float]]:
    """One feature dict per block (name → value), neighbours' key features included."""
    lineage = Lineage(params)
    titles = [squashed for squashed in (squash(title) for title in titles) if squashed]
    own = [
        {**quantity_features(b, params), **sign_features(b.text, now, params),
         **layout_features(b, lineage, params), **title_features(b.text, titles, params),
         **context_features(b, params), **repeat}
        for b, repeat in zip(blocks, repetition_features(blocks, params), strict=True)
    ]
    result = []
    places = zip(position_features(blocks, params), headline_distance(own, params), strict=True)
    for index, (feats, (position, headline)) in enumerate(zip(own, places, strict=True)):
        merged = {"bias": 1.0, **feats, **position, **headline}
        merged.update(_context(own[index - 1], "p:") if index > 0 else {"p:BOS": 1.0})
        merged.update(_context(own[index + 1], "n:") if index + 1 < len(own) else {"n:EOS": 1.0})
        if index > 0 and blocks[index - 1].element.tag == blocks[index].element.tag:
            merged["same_tag_as_prev"] = 1.0
        result.append(merged)
    return result
