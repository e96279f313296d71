"""Text lxml can hold: the characters XML 1.0 forbids removed, once, before parsing.

libxml2's HTML parser keeps a control character (raw, or written `&#1;`) in the tree, but
lxml refuses to set any text or attribute holding one ("All strings must be XML
compatible"), so the first stage that moves a tail (dropping a <script> joins its tail to
the text before it) failed the page. No reader sees these characters and PostgreSQL
refuses NUL in text, so they are dropped from the decoded page and from the strings
pages declare for machines (JSON-LD), and no later stage sees one.
"""

from __future__ import annotations

import re

# Characters outside XML 1.0's Char production (tab, newline and carriage return are
# allowed; lone surrogates and U+FFFE/U+FFFF are not), and the numeric character references
# to them that libxml2 resolves into the tree as they are (it replaces NUL, surrogates and
# references beyond U+10FFFF itself; a reference's `;` is optional in HTML). Two patterns:
# one alternation of both searched a page several times slower than the two in turn.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_REFERENCE = re.compile(
    r"&#(?:0*(?:[1-8]|1[124-9]|2[0-9]|3[01]|6553[45])(?![0-9])"
    r"|[xX]0*(?:[1-8bcefBCEF]|1[0-9a-fA-F]|[fF]{3}[eEfF])(?![0-9a-fA-F]));?")


def xml_safe(text: str) -> str:
    """The text without the characters (or references to them) XML forbids; the same
    object when it has none. Characters go before references (a control character
    inside a reference hides it); dropping a reference can join its neighbours into a new
    one (`&&#1;#1;`): those are replaced by U+FFFD, which joins nothing."""
    if not (_FORBIDDEN.search(text) or _REFERENCE.search(text)):
        return text
    return _REFERENCE.sub("\ufffd", _REFERENCE.sub("", _FORBIDDEN.sub("", text)))
