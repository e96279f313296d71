"""`python -m crawler sources import|export FILE`: sources as a YAML or JSON file, the same
fields as the `source` table, so hundreds of sites are kept under version control.

Import checks every source first and writes nothing when any is wrong, listing each
problem with the source's name and field; valid files upsert by name (created, updated,
unchanged are counted). Export writes every source, in name order, in the format the file
name says (.yaml/.yml or .json).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml
from croniter import croniter
from sqlalchemy import select
from sqlalchemy.orm import Session

from crawler.sources import target_of
from models.crawl import Source
from models.db import database_url, session_factory
from models.schema import DatabaseNotReady, check_schema

FIELDS = ("name", "start_urls", "allowed_domains", "max_pages", "max_depth",
          "interval_seconds", "cron", "page_type_rules", "settings", "enabled")
_DEFAULTS: dict[str, Any] = {"allowed_domains": [], "max_pages": None, "max_depth": None,
                             "interval_seconds": None, "cron": None, "page_type_rules": [],
                             "settings": {}, "enabled": True}


def _problems(entry: Any, where: str) -> list[str]:
    """What is wrong with one source entry, each problem one line naming the field."""
    if not isinstance(entry, dict):
        return [f"{where}: a source is a mapping of {', '.join(FIELDS)}"]
    problems = [f"{where}: unknown field {key!r} (fields: {', '.join(FIELDS)})"
                for key in entry if key not in FIELDS]
    if not isinstance(entry.get("name"), str) or not entry.get("name", "").strip():
        problems.append(f"{where}: 'name' must be a non-empty string")
    urls = entry.get("start_urls")
    if not isinstance(urls, list) or not urls:
        problems.append(f"{where}: 'start_urls' must be a non-empty list of http(s) URLs")
    else:
        problems += [f"{where}: start URL {url!r} is not an http(s) URL" for url in urls
                     if not isinstance(url, str) or urlsplit(url).scheme not in ("http", "https")
                     or not urlsplit(url).hostname]
    domains = entry.get("allowed_domains", [])
    if not isinstance(domains, list) or not all(isinstance(d, str) for d in domains):
        problems.append(f"{where}: 'allowed_domains' must be a list of host names")
    for key, least in (("max_pages", 0), ("max_depth", 0), ("interval_seconds", 1)):
        value = entry.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < least):
            problems.append(f"{where}: {key!r} must be a whole number ≥ {least}, or null")
    cron = entry.get("cron")
    if cron is not None and (not isinstance(cron, str) or not croniter.is_valid(cron)):
        problems.append(f"{where}: 'cron' {cron!r} is not a cron expression")
    if not isinstance(entry.get("enabled", True), bool):
        problems.append(f"{where}: 'enabled' must be true or false")
    if not problems:
        try:
            target_of(Source(**_row(entry)))
        except ValueError as error:
            problems.append(f"{where}: {error}")
    return problems


def _row(entry: dict[str, Any]) -> dict[str, Any]:
    return {**_DEFAULTS, **entry}


def read_sources(path: Path) -> list[dict[str, Any]]:
    """The sources of a file; ValueError listing every problem when any is wrong."""
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as error:
        raise ValueError(f"{path}: not valid {'JSON' if path.suffix == '.json' else 'YAML'}: "
                         f"{str(error).splitlines()[0]}") from None
    entries = data.get("sources") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise ValueError(f"{path}: expected a list of sources (or a mapping with 'sources')")
    problems = [problem for index, entry in enumerate(entries)
                for problem in _problems(entry, f"source {index + 1}"
                                         + (f" ({entry.get('name')!r})"
                                            if isinstance(entry, dict) else ""))]
    names = [entry.get("name") for entry in entries if isinstance(entry, dict)]
    problems += [f"the name {name!r} is used twice" for name in sorted(
        {name for name in names if names.count(name) > 1}, key=str)]
    if problems:
        raise ValueError("\n".join(problems))
    return [_row(entry) for entry in entries]


def import_sources(session: Session, entries: list[dict[str, Any]]) -> dict[str, int]:
    """Upsert by name; returns counts of created, updated and unchanged."""
    counts = {"created": 0, "updated": 0, "unchanged": 0}
    existing = {s.name: s for s in session.scalars(select(Source).where(
        Source.name.in_([entry["name"] for entry in entries])))}
    for entry in entries:
        source = existing.get(entry["name"])
        if source is None:
            session.add(Source(**entry))
            counts["created"] += 1
        elif all(getattr(source, key) == entry[key] for key in FIELDS):
            counts["unchanged"] += 1
        else:
            for key in FIELDS:
                setattr(source, key, entry[key])
            counts["updated"] += 1
    return counts


def export_sources(session: Session) -> list[dict[str, Any]]:
    return [{key: getattr(source, key) for key in FIELDS}
            for source in session.scalars(select(Source).order_by(Source.name))]


def main(argv: list[str]) -> int:
    """Import or export the sources file."""
    parser = argparse.ArgumentParser(
        prog="python -m crawler sources",
        description="Keep sources in a YAML or JSON file: the fields of the source table "
                    f"({', '.join(FIELDS)}).")
    parser.add_argument("action", choices=("import", "export"),
                        help="import the file into the database, or export the database's "
                             "sources to it")
    parser.add_argument("file", type=Path, help="*.yaml, *.yml or *.json")
    parser.add_argument("--database-url", default=None,
                        help="default: $DATABASE_URL, else the embedded SQLite file")
    args = parser.parse_args(argv)
    url = database_url(args.database_url)
    try:
        check_schema(url)
    except DatabaseNotReady as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    sessions = session_factory(url)
    if args.action == "export":
        with sessions() as session:
            sources = export_sources(session)
        text = (json.dumps(sources, ensure_ascii=False, indent=2) if args.file.suffix == ".json"
                else yaml.safe_dump({"sources": sources}, allow_unicode=True, sort_keys=False))
        args.file.write_text(text + "\n", encoding="utf-8")
        print(f"exported {len(sources)} sources to {args.file}")
        return 0
    try:
        entries = read_sources(args.file)
    except (OSError, ValueError) as error:
        print(f"{parser.prog} import: {error}", file=sys.stderr)
        return 2
    with sessions.begin() as session:
        counts = import_sources(session, entries)
    print(f"imported {args.file}: {counts['created']} created, {counts['updated']} updated, "
          f"{counts['unchanged']} unchanged")
    return 0
