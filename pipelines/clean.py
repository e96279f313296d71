"""The clean stage: drop what no reader sees before any algorithm looks at the tree.

Runs once, in place, right after parsing; every later stage relies on it and
none repeats it. <head> metadata (title, meta, JSON-LD) is kept: metadata
extraction reads it.
"""

from __future__ import annotations

import lxml.etree
import lxml.html

# Elements whose content is never visible page text. JSON-LD scripts are kept for metadata.
_INVISIBLE = ("style", "noscript", "template", "object", "embed", "applet", "svg", "canvas",
              "iframe", "frame", "frameset", "noembed", "param")
# Elements whose text is never page text even when they stay in the tree (form controls,
# head matter, a video's or audio's fallback, which a browser shows only where it cannot play
# them: "Your browser does not support the video tag."); density counting and rendering
# both skip them.
NOT_PAGE_TEXT = frozenset({"script", "style", "head", "noscript", "template", "select",
                           "option", "textarea", "button", "input", "title", "meta", "link",
                           "video", "audio"})
# Candidates for "hidden": libxml2 collects the few hidden and style attributes in C (in
# document order), and Python reads their values. Selecting the elements instead
# (*[@hidden or @style]) cost five times more, translate() on every style 2 ms/page.
_HIDING_ATTRIBUTES = lxml.etree.XPath("descendant::*/@hidden | descendant::*/@style")


def _hidden(body: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    """Elements hidden by the hidden attribute or an inline style (spaces and case ignored)."""
    found: dict[lxml.html.HtmlElement, None] = {}  # an element with both attributes once
    for value in _HIDING_ATTRIBUTES(body):
        # two tests on a style, not a generator per style (pages carry hundreds)
        hidden = value.attrname == "hidden"
        style = "" if hidden else "".join(value.split()).lower()
        if hidden or "display:none" in style or "visibility:hidden" in style:
            found[value.getparent()] = None
    return list(found)


def clean_tree(root: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    """Remove scripts (but JSON-LD), styles, embeds and hidden elements; keep their tails."""
    doomed = []
    for element in root.iter(*_INVISIBLE, "script"):
        if element.tag == "script" and "ld+json" in (element.get("type") or ""):
            continue
        doomed.append(element)
    body = root.find("body")
    if body is not None:
        doomed.extend(_hidden(body))
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()
    return root
