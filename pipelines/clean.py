"""The clean stage: drop what no reader sees before any algorithm looks at the tree.

Runs once, in place, right after parsing; every later stage relies on it and
none repeats it. <head> metadata (title, meta, JSON-LD) is kept: metadata
extraction reads it.
"""

from __future__ import annotations

import lxml.html

# Elements whose content is never visible page text. JSON-LD scripts are kept for metadata.
_INVISIBLE = ("style", "noscript", "template", "object", "embed", "applet", "svg", "canvas",
              "iframe", "frame", "frameset", "noembed", "param")
_HIDDEN_STYLES = ("display:none", "visibility:hidden")


def _is_hidden(element: lxml.html.HtmlElement) -> bool:
    style = (element.get("style") or "").replace(" ", "").lower()
    return element.get("hidden") is not None or any(s in style for s in _HIDDEN_STYLES)


def clean_tree(root: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    """Remove scripts (but JSON-LD), styles, embeds and hidden elements; keep their tails."""
    doomed = []
    for element in root.iter(*_INVISIBLE, "script"):
        if element.tag == "script" and "ld+json" in (element.get("type") or ""):
            continue
        doomed.append(element)
    body = root.find("body")
    if body is not None:
        doomed.extend(el for el in body.iter() if isinstance(el.tag, str) and _is_hidden(el))
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()
    return root
