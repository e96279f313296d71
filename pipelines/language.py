"""The language of a page's text, cheaply: a non-Latin script decides, else stopwords.

No word segmentation and no model: the route needs the language for the day-first rule
of slashed dates and for the page's time zone, and a list page for its zone alone.
An article's language is its prose's (prose_language): the characters of CJK scripts
against the words of alphabetic ones, code left out by the caller; what the markup
declares (a theme's lang="en" on a Chinese blog) only breaks a tie.
"""

from __future__ import annotations

import re
from collections import Counter

from pipelines.lexicon import STOPWORDS
from pipelines.params import LANGUAGE, LanguageParams

_SCRIPTS = (("zh", re.compile(r"[\u4e00-\u9fff]")), ("ja", re.compile(r"[\u3040-\u30ff]")),
            ("ko", re.compile(r"[\uac00-\ud7af]")), ("ru", re.compile(r"[\u0400-\u04ff]")),
            ("ar", re.compile(r"[\u0600-\u06ff]")))
_ANY_STOPWORD = frozenset().union(*STOPWORDS.values())
_WORD = re.compile(r"\w+")
# Any character of those scripts: most texts have none, and one search then settles all five
# (five counts over the 5000 characters cost as much as the stopword count).
_ANY_SCRIPT = re.compile("[" + "".join(p.pattern[1:-1] for _, p in _SCRIPTS) + "]")


def detect_language(text: str, params: LanguageParams = LANGUAGE) -> str | None:
    """Cheap guess: a non-Latin script decides, else the most frequent stopword set."""
    sample = text[:params.sample_chars]
    if not sample.strip():
        return None
    if _ANY_SCRIPT.search(sample):
        counts = {code: len(pattern.findall(sample)) for code, pattern in _SCRIPTS}
        if counts["ja"] > params.min_kana:
            return "ja"
        code, hits = max(counts.items(), key=lambda item: item[1])
        if hits > params.min_script_share * len(sample.replace(" ", "")):
            return code
    words = _stopword_counts(sample.lower())
    votes = {code: sum(words[w] for w in stop) for code, stop in STOPWORDS.items()}
    best = max(votes, key=votes.get)
    return best if votes[best] >= params.min_stopwords else None


def _stopword_counts(text: str) -> Counter:
    """How often each stopword stands in `text` as a whole word (a run of \\w).

    The words are split at whitespace in C; only a token that is not all letters and digits
    (a word with its punctuation, "the,") is split into words by regex. A regex over the
    whole text (a word boundary tried at every character) cost half as much again.
    """
    tokens = Counter(text.split())
    counts = Counter({token: n for token, n in tokens.items() if token in _ANY_STOPWORD})
    for token, n in tokens.items():
        if not token.isalnum():
            for word in _WORD.findall(token):
                if word in _ANY_STOPWORD:
                    counts[word] += n
    return counts


# What an article's prose is counted in: characters of the CJK scripts (unspaced: a word is
# one to a few characters), words of the other alphabets, and, for the Latin script, its
# stopwords: the words every Latin sentence is made of and that terms, names, identifiers
# and lists of titles in a Chinese text lack.
# CJK punctuation and full-width forms ("「SPOJ375」", "，") count with the Han characters:
# only CJK text writes them.
_CJK = (("ja", re.compile(r"[\u3040-\u30ff]")), ("ko", re.compile(r"[\uac00-\ud7af]")),
        ("zh", re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf\u3000-\u303f\uff00-\uffef]")))
_ALPHABETIC = (("ru", re.compile(r"[\u0400-\u04ff]{2,}")),
               ("ar", re.compile(r"[\u0600-\u06ff]{2,}")))
# The languages a script tells by itself; any other declared language is written in Latin.
SCRIPT_LANGUAGES = frozenset(code for code, _ in (*_CJK, *_ALPHABETIC))
_ANY_PROSE_SCRIPT = re.compile(
    "[" + "".join(p.pattern[1:p.pattern.index("]")] for _, p in (*_CJK, *_ALPHABETIC)) + "]")


def prose_language(text: str, declared: str | None = None,
                   params: LanguageParams = LANGUAGE) -> str | None:
    """The language of prose `text` (code already left out), None on a tie or no evidence.

    The script with the most units wins: CJK characters and other alphabets' words against
    the Latin stopwords. So a Chinese post full of English terms is Chinese, an English one
    quoting a name in characters English, whatever either page declares. Latin prose is in
    the `declared` language when that is written in Latin (a stopword count cannot tell
    Polish from code), else in the language of the most stopwords; fewer stopwords than
    `min_stopwords` are no Latin prose at all (a shell session's `-O` is not a sentence), so
    the caller falls back on the headline.
    """
    sample = text[:params.sample_chars]
    latin_declared = bool(declared) and declared not in SCRIPT_LANGUAGES
    # most pages hold no character of those scripts: one search spares counting each
    units = ({code: len(pattern.findall(sample)) for code, pattern in (*_CJK, *_ALPHABETIC)}
             if _ANY_PROSE_SCRIPT.search(sample) else dict.fromkeys(SCRIPT_LANGUAGES, 0))
    words = _stopword_counts(sample.lower())
    latin = sum(words.values())
    cjk = units["ja"] + units["ko"] + units["zh"]
    other = max(("ru", "ar"), key=units.get)
    if cjk > max(latin, units[other]):
        if units["ja"] > params.min_kana:
            return "ja"
        return "ko" if units["ko"] > units["zh"] else "zh"
    if units[other] > max(latin, cjk):
        return other
    if latin <= max(cjk, units[other]) or latin < params.min_stopwords:
        return None
    if latin_declared:
        return declared
    votes = {code: sum(words[w] for w in stop) for code, stop in STOPWORDS.items()}
    best = max(votes, key=votes.get)
    return best if votes[best] >= params.min_stopwords else None
