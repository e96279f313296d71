"""Published XSS vectors (tests/xss_payloads.txt) and a reading of HTML that finds what
would be active in a browser: the unit tests of the sanitiser and the crawl test of stored
HTML share both."""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html

PAYLOADS_FILE = Path(__file__).resolve().parent / "xss_payloads.txt"
PAYLOADS = [line.encode("ascii").decode("unicode_escape")
            for line in PAYLOADS_FILE.read_text(encoding="ascii").splitlines()
            if line and not line.startswith("#")]

# Elements that run code, load documents or styles, change the base URL or submit.
ACTIVE = {"script", "style", "iframe", "frame", "frameset", "object", "embed", "applet",
          "param", "base", "meta", "link", "form", "input", "button", "select", "textarea",
          "keygen", "isindex", "svg", "math", "template", "noscript", "noembed", "xml",
          "portal", "layer", "bgsound", "video", "audio", "source", "marquee"}
KEPT_ATTRIBUTES = {"href", "src", "alt", "title", "lang", "colspan", "rowspan", "datetime"}
# Every attribute some browser reads as a URL.
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "data", "poster",
                  "background", "cite", "ping", "srcset", "longdesc", "dynsrc", "lowsrc",
                  "codebase", "code", "classid", "srcdoc", "usemap"}
ALLOWED_SCHEMES = {"href": {"http", "https", "mailto"}, "src": {"http", "https"}}
# Written independently of the code under test, and stricter than a browser: every space and
# control character anywhere in the value is removed before the scheme is read.
_INVISIBLE = re.compile(r"[\x00-\x20\x7f-\x9f]")
_SCHEME = re.compile(r"([a-z][a-z0-9+.-]*):")


def problems(html: str) -> list[str]:
    """What makes `html` unsafe to show, as lxml reads it (character references decoded)."""
    found = []
    for element in lxml.html.fragment_fromstring(html, create_parent="div").iter():
        if not isinstance(element.tag, str):
            found.append(f"node {element!r}")
            continue
        if element.tag in ACTIVE:
            found.append(f"element <{element.tag}>")
        for name, value in element.attrib.items():
            if name.startswith("on") or name not in KEPT_ATTRIBUTES:
                found.append(f"attribute {name}={value!r} on <{element.tag}>")
            if name in URL_ATTRIBUTES:
                scheme = _SCHEME.match(_INVISIBLE.sub("", value).lower())
                if scheme and scheme.group(1) not in ALLOWED_SCHEMES.get(name, set()):
                    found.append(f"{name}={value!r} on <{element.tag}>")
    return found
