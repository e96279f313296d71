"""Turn a chosen record set into RecordData: title, absolute URL, date, snippet, extras.

Slots of the aligned template are classified once for the whole set: the title is the
link slot with the longest text, the date the slot where dates parse, the snippet a long
plain-text slot; other varying slots become extra fields, named by the fixed marker before
them, a table header, or their class.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from lxml.html import HtmlElement

from pipelines.article.dates.parse import find_date
from pipelines.document import join_url
from pipelines.hanzi import both
from pipelines.lexicon import RECORD_DATE_CHARS, RECORD_DATE_WORDS, RECORD_FIELD_WORDS
from pipelines.params import RECORD_MINING, RecordMiningParams
from pipelines.records.regions import Record
from pipelines.records.template import Leaf, Slot, align, build_template, record_leaves
from pipelines.results import RecordData

_PLAUSIBLE_DATE = re.compile(
    r"(?:19|20)\d\d|\d:\d|[" + RECORD_DATE_CHARS + "]|" + "|".join(RECORD_DATE_WORDS), re.I)
# simplified and traditional (Taiwan, Hong Kong) Chinese, and Western words
_FIELD_WORDS = {name: (*both(chinese), *western)
                for name, (chinese, western) in RECORD_FIELD_WORDS.items()}
_LABEL = re.compile(r"^\W*([^\W\d]{1,20}?)\s*[:：]?\s*$")


def _date_in(text: str, now: datetime, strict: bool) -> tuple[datetime, str] | None:
    found = find_date(text, now)
    if found and (not strict or _PLAUSIBLE_DATE.search(found[1])):
        return found
    return None


def _share(rows: list[dict[int, Leaf]], slot: int, test: Callable[[Leaf], bool]) -> float:
    return sum(1 for row in rows if slot in row and test(row[slot])) / max(len(rows), 1)


def _mean_len(rows: list[dict[int, Leaf]], slot: int) -> float:
    return sum(len(row[slot].text) for row in rows if slot in row) / max(len(rows), 1)


def _canonical(label: str) -> str:
    lowered = label.lower().strip(" :：")
    for name, words in _FIELD_WORDS.items():
        if lowered in words:
            return name
    return re.sub(r"\W+", "_", lowered).strip("_") or "field"


def _slot_name(template: list[Slot], slot: int, headers: dict[str, str]) -> str:
    """Name a varying slot by the fixed marker just before it, a table header, or its class."""
    if slot > 0 and template[slot - 1].fixed:
        match = _LABEL.match(template[slot - 1].fixed)
        if match:
            return _canonical(match.group(1))
    key = template[slot].key
    for column, header in headers.items():
        if column in key:
            return _canonical(header)
    last = key.rsplit("/", 1)[-1]
    return _canonical(last.split(".", 1)[1].split("[")[0] if "." in last else f"field_{slot}")


def table_headers(record: Record) -> dict[str, str]:
    """Column step → header text, when the records are rows of a table with a header row."""
    row = record[0]
    table = next((a for a in row.iterancestors("table")), None)
    if row.tag != "tr" or table is None:
        return {}
    header = next((r for r in table.iter("tr") if r.find("th") is not None), None)
    if header is None:
        return {}
    cells = [c for c in header if c.tag in ("td", "th")]
    return {f"[{i}]": " ".join(c.text_content().split()) for i, c in enumerate(cells)
            if c.text_content().strip()}


@dataclass
class Roles:
    """Which template slot holds which field, decided once for the whole record set."""

    title: int | None = None
    date: int | None = None
    snippet: int | None = None
    extras: dict[int, str] = field(default_factory=dict)


def _linked(leaf: Leaf) -> bool:
    return leaf.anchor is not None


def classify_slots(
    template: list[Slot], rows: list[dict[int, Leaf]], now: datetime, headers: dict[str, str],
    params: RecordMiningParams = RECORD_MINING,
) -> Roles:
    """Assign title, date, snippet and extra roles to the template's varying slots."""
    varying = [i for i, slot in enumerate(template) if slot.fixed is None]
    roles = Roles()
    linked = [i for i in varying if _share(rows, i, _linked) >= params.min_slot_share]
    if linked or varying:
        roles.title = max(linked or varying, key=lambda i: _mean_len(rows, i))
    rest = [i for i in varying if i != roles.title]
    dated = {i: _share(rows, i, lambda leaf: _date_in(leaf.text, now, False) is not None)
             for i in rest}
    if dated and max(dated.values()) >= params.min_slot_share:
        roles.date = max(dated, key=dated.__getitem__)
    rest = [i for i in rest if i != roles.date]
    long_texts = [i for i in rest if _share(rows, i, _linked) < params.min_slot_share
                  and _mean_len(rows, i) >= params.min_snippet_chars]
    if long_texts:
        roles.snippet = max(long_texts, key=lambda i: _mean_len(rows, i))
    for i in rest:
        if i != roles.snippet:
            name = _slot_name(template, i, headers)
            roles.extras[i] = name if name not in roles.extras.values() else f"{name}_{i}"
    return roles


def _text(element: HtmlElement) -> str:
    return " ".join(element.text_content().split())


def _title(anchor: HtmlElement) -> str:
    """Anchor text, or its title attribute when the visible text is a truncation of it."""
    text, full = _text(anchor), " ".join((anchor.get("title") or "").split())
    if full and text.rstrip(".…").strip() and full.startswith(text.rstrip(".…").strip()):
        return full
    return text


def _title_anchor(row: dict[int, Leaf], leaves: list[Leaf], roles: Roles) -> HtmlElement | None:
    if roles.title in row and row[roles.title].anchor is not None:
        return row[roles.title].anchor
    linked = [leaf.anchor for leaf in leaves if leaf.anchor is not None]
    return max(linked, key=lambda a: len(_text(a)), default=None)


def _record_date(
    row: dict[int, Leaf], leaves: list[Leaf], roles: Roles, title: str, now: datetime
) -> tuple[datetime, str] | None:
    """The date slot's date; else a plausible date anywhere outside the title."""
    if roles.date in row:
        found = _date_in(row[roles.date].text, now, False)
        if found:
            return found
    return _date_in(" ".join(leaf.text for leaf in leaves if leaf.text not in title), now, True)


def build_record(
    leaves: list[Leaf], row: dict[int, Leaf], roles: Roles, base_url: str | None, now: datetime
) -> RecordData:
    """One RecordData from a record's leaves aligned to the template."""
    anchor = _title_anchor(row, leaves, roles)
    if anchor is not None:
        title, url = _title(anchor), join_url(base_url or "", anchor.get("href", "").strip())
    else:
        title, url = (row[roles.title].text if roles.title in row else None), None
    found = _record_date(row, leaves, roles, title or "", now)
    return RecordData(
        title=title or None,
        url=url or None,
        date=found[0] if found else None,
        date_raw=found[1] if found else None,
        snippet=row[roles.snippet].text if roles.snippet in row else None,
        extra={name: row[slot].text for slot, name in roles.extras.items() if slot in row},
    )


def extract_fields(
    records: list[Record],
    base_url: str | None,
    now: datetime,
    params: RecordMiningParams = RECORD_MINING,
) -> list[RecordData]:
    """Fields of every record of the chosen set, through one template built from a sample."""
    all_leaves = [record_leaves(record) for record in records]
    template = build_template(all_leaves, params.template_sample)
    rows = [align(template, leaves) for leaves in all_leaves]
    roles = classify_slots(template, rows, now, table_headers(records[0]), params)
    return [build_record(leaves, row, roles, base_url, now)
            for leaves, row in zip(all_leaves, rows, strict=True)]
