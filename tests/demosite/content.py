"""Deterministic text: names, titles, paragraphs and comments built from phrase banks.

Sentences are templates whose {slots} are filled with a fresh random phrase on every
lookup, so the same `random.Random` state always yields the same text and pages read
like real reporting, forum chatter or blogging rather than lorem ipsum.
"""

from __future__ import annotations

import re
from functools import cache
from random import Random

from tests.demosite import banks as b

_ZH_NEWS_SENTENCES = (
    "{when}，{org}{act}{obj}工作，{result}。",
    "据了解，{place}已累计实施{obj}项目{n}个，总投资约{money}亿元。",
    "“{view}，”{person}在接受记者采访时说。",
    "{person}介绍，{obj}{progress}，预计{future}。",
    "数据显示，{period}{place}{metric}同比增长{pct}%，增速较上月{updown}{pct2}个百分点。",
    "不少市民表示，{citizen}。",
    "业内人士认为，{analysis}。",
    "那么，{obj}{question}？",
    "{obj}不仅{benefit}，而且{benefit}。",
    "{filler}",
    "{person}强调，{view}，{view}。",
)
_ZH_NEWS_TITLES = (
    "{place}{act}{obj} {future}",
    "{org}：{obj}{progress}",
    "{period}{place}{metric}同比增长{pct}%",
    "{obj}{question}？记者实地探访",
    "{act}{obj} {place}{result}",
)
_ZH_FORUM_SENTENCES = (
    "{greet}，最近在考虑{topic}的事，{ask}？",
    "我上个月{did}{topic}，{feel}！",
    "{advice}，{reason}。",
    "说到{topic}，{feel}。",
    "{short}",
    "有懂行的朋友吗？{ask}？",
    "我的经验是{advice}，{reason}。",
)
_ZH_FORUM_TITLES = (
    "【{tag}】{topic}{ask}？",
    "说说{topic}的那些事",
    "{topic}{feel}，大家怎么看？",
    "【{tag}】关于{topic}的一点经验",
    "{greet}：{topic}{ask}",
)
_ZH_COMMENTS = (
    "{citizen}。", "{short}", "支持！{citizen}。", "{question2}？", "{citizen}，{view}。",
)
_EN_NEWS_SENTENCES = (
    "The move comes as {context}.",
    "\u201c{quote},\u201d said {person}, {role} at {org_in}.",
    "{metric} rose {pct} percent in {month} from a year earlier, according to {source}.",
    "Analysts say {analysis}.",
    "But will {obj} be enough?",
    "Officials did not say when the measures would take effect.",
    "{person}, {role} at {org_in}, said {analysis}.",
    "{org} said in {source2} that it would {act} {obj} by the end of next year.",
    "Critics argue that {analysis}, while supporters point out that {context}.",
)
_EN_NEWS_TITLES = (
    "{org} to {act} {obj}",
    "{org} moves to {act} {obj} as {context}",
    "{metric} up {pct}% as {context}",
    "Why {org_in} wants to {act} {obj}",
)
_EN_BLOG_SENTENCES = (
    "Last {when}, I finally tried {thing}.",
    "To be honest, {feel}.",
    "If you are thinking about {thing}, {tip}.",
    "My advice: {tip}.",
    "Have you ever dealt with {thing}?",
    "What I learned is simple: {tip}.",
    "It took me {n} attempts, and {feel}!",
    "A friend told me to {tip}, and she was right.",
    "I wrote down everything about {thing} so you do not have to.",
)
_EN_BLOG_TITLES = (
    "What {thing} taught me",
    "Notes on {thing}",
    "Why you should {tip}",
    "A weekend with {thing}",
    "{n} lessons from {thing}",
)
_EN_COMMENTS = (
    "{react} I tried {thing} last {when} and {feel}.",
    "{react} Did you {tip}?",
    "Could you write more about {thing}?",
    "{react}",
    "{react} My advice would be to {tip}.",
)


class _Slots(dict):
    """A format mapping that draws a fresh phrase for every {slot} lookup."""

    def __init__(self, rng: Random, banks: dict[str, object]) -> None:
        super().__init__()
        self.rng = rng
        self.banks = banks
        self.used: set[str] = set()

    def __missing__(self, key: str) -> str:
        value = self.banks[key]
        for _ in range(4):  # avoid saying the same phrase twice in one sentence
            drawn = str(value(self.rng) if callable(value) else self.rng.choice(value))
            if drawn not in self.used:
                break
        self.used.add(drawn)
        return drawn


def _fill(rng: Random, template: str, banks: dict[str, object]) -> str:
    text = template.format_map(_Slots(rng, banks))
    return text[0].upper() + text[1:]


def _paragraphs(
    rng: Random, forms: tuple[str, ...], banks: dict[str, object], count: int, joiner: str,
) -> list[str]:
    """Paragraphs of 2-5 sentences; forms are drawn without repeats inside a paragraph."""
    return [
        joiner.join(_fill(rng, form, banks) for form in rng.sample(forms, rng.randint(2, 5)))
        for _ in range(count)
    ]


def zh_name(rng: Random) -> str:
    """A Chinese personal name (surname + given name)."""
    return rng.choice(b.ZH_SURNAMES) + rng.choice(b.ZH_GIVEN)


def zh_nick(rng: Random) -> str:
    """A Chinese forum nickname, sometimes with digits like real accounts."""
    nick = rng.choice(b.ZH_NICK_HEADS) + rng.choice(b.ZH_NICK_TAILS)
    return nick + str(rng.randint(1, 2025)) if rng.random() < 0.3 else nick


def en_name(rng: Random) -> str:
    """An English personal name."""
    return f"{rng.choice(b.EN_FIRST)} {rng.choice(b.EN_LAST)}"


def en_handle(rng: Random) -> str:
    """An English commenter name: a handle or a first name with an initial."""
    if rng.random() < 0.5:
        return rng.choice(b.EN_HANDLES)
    return f"{rng.choice(b.EN_FIRST)} {rng.choice(b.EN_LAST)[0]}."


@cache
def _zh_news_banks(topic: str) -> dict[str, object]:
    t = b.ZH_TOPICS[topic]
    return {
        "when": b.ZH_WHEN, "org": t["org"], "obj": t["obj"], "metric": t["metric"],
        "act": b.ZH_ACTIONS, "result": b.ZH_RESULTS, "place": b.ZH_PLACES, "view": b.ZH_VIEWS,
        "progress": b.ZH_PROGRESS, "future": b.ZH_FUTURE, "citizen": b.ZH_CITIZEN,
        "analysis": b.ZH_ANALYSIS, "question": b.ZH_QUESTIONS, "benefit": b.ZH_BENEFITS,
        "filler": b.ZH_FILLERS, "period": b.ZH_PERIODS, "updown": ("加快", "回落"),
        "short": b.ZH_FORUM_SHORT, "question2": ("这事什么时候能落实", "我们小区能排上吗"),
        "n": lambda r: r.randint(3, 300),
        "money": lambda r: f"{r.uniform(1.5, 80):.1f}",
        "pct": lambda r: f"{r.uniform(1.2, 15.8):.1f}",
        "pct2": lambda r: f"{r.uniform(0.1, 2.5):.1f}",
        "person": lambda r: r.choice(t["org"]) + r.choice(b.ZH_ROLES) + zh_name(r),
    }


def zh_news_title(rng: Random, topic: str) -> str:
    """A Chinese headline for a news topic (china, finance, tech, local)."""
    return _fill(rng, rng.choice(_ZH_NEWS_TITLES), _zh_news_banks(topic))


def zh_news_paragraphs(rng: Random, topic: str, reporter: str) -> list[str]:
    """Several paragraphs of Chinese reporting; the first carries the 本报讯 lead."""
    paragraphs = _paragraphs(
        rng, _ZH_NEWS_SENTENCES, _zh_news_banks(topic), rng.randint(4, 9), ""
    )
    paragraphs[0] = f"本报讯（记者 {reporter}）{paragraphs[0]}"
    return paragraphs


def zh_news_comment(rng: Random, topic: str) -> str:
    """A reader comment under a Chinese news article."""
    return _fill(rng, rng.choice(_ZH_COMMENTS), _zh_news_banks(topic))


def zh_forum_topic(rng: Random, board: str) -> str:
    """The subject one thread is about, drawn from its board's topics."""
    return rng.choice(b.ZH_FORUM_TOPICS[board])


@cache
def _zh_forum_banks(topic: str) -> dict[str, object]:
    return {
        "topic": (topic,), "ask": b.ZH_FORUM_ASK, "feel": b.ZH_FORUM_FEEL,
        "advice": b.ZH_FORUM_ADVICE, "short": b.ZH_FORUM_SHORT, "greet": b.ZH_FORUM_GREET,
        "did": b.ZH_FORUM_DID, "reason": b.ZH_FORUM_REASON, "tag": b.ZH_FORUM_TAGS,
    }


def zh_thread_title(rng: Random, topic: str) -> str:
    """A forum thread title about `topic` (see `zh_forum_topic`)."""
    return _fill(rng, rng.choice(_ZH_FORUM_TITLES), _zh_forum_banks(topic))


def zh_forum_paragraphs(rng: Random, topic: str, count: int) -> list[str]:
    """Casual Chinese forum paragraphs about `topic`, with ！ and ？."""
    return _paragraphs(rng, _ZH_FORUM_SENTENCES, _zh_forum_banks(topic), count, "")


def zh_signature(user: str) -> str:
    """A user's fixed forum signature (template noise under each of their posts)."""
    return Random(f"signature:{user}").choice(b.ZH_SIGNATURES)


@cache
def _en_news_banks() -> dict[str, object]:
    return {
        "org": b.EN_ORGS, "act": b.EN_ACTIONS, "obj": b.EN_OBJECTS, "context": b.EN_CONTEXT,
        "role": b.EN_ROLES, "source": b.EN_SOURCES, "metric": b.EN_METRICS,
        "quote": b.EN_QUOTES, "analysis": b.EN_ANALYSIS, "month": b.EN_MONTHS,
        "source2": ("a statement", "a short briefing", "a written reply to lawmakers"),
        "org_in": lambda r: _lower_article(r.choice(b.EN_ORGS)),
        "pct": lambda r: f"{r.uniform(0.4, 12.5):.1f}",
        "person": en_name,
    }


def _lower_article(org: str) -> str:
    return "the" + org[3:] if org.startswith("The ") else org


def en_news_title(rng: Random) -> str:
    """An English world-news headline."""
    return _fill(rng, rng.choice(_EN_NEWS_TITLES), _en_news_banks())


def en_news_paragraphs(rng: Random) -> list[str]:
    """English news paragraphs; the first opens with a PLACE — dateline."""
    banks = _en_news_banks()
    lead = _fill(rng, "{org} said on {day} it would {act} {obj}, as {context}.",
                 {**banks, "day": b.EN_WEEKDAYS})
    rest = _paragraphs(rng, _EN_NEWS_SENTENCES, banks, rng.randint(3, 8), " ")
    return [f"{rng.choice(b.EN_PLACES).upper()} \u2014 {lead}", *rest]


@cache
def _en_blog_banks(topic: str) -> dict[str, object]:
    t = b.EN_BLOG_TOPICS[topic]
    return {
        "thing": t["thing"], "tip": t["tip"], "when": b.EN_BLOG_WHEN, "feel": b.EN_BLOG_FEEL,
        "react": b.EN_BLOG_REACT, "n": lambda r: r.randint(3, 12),
    }


def en_blog_title(rng: Random, topic: str) -> str:
    """A blog post title for a topic (travel, cooking, code, books, garden)."""
    return _fill(rng, rng.choice(_EN_BLOG_TITLES), _en_blog_banks(topic))


def en_blog_paragraphs(rng: Random, topic: str) -> list[str]:
    """First-person English blog paragraphs."""
    return _paragraphs(rng, _EN_BLOG_SENTENCES, _en_blog_banks(topic), rng.randint(3, 7), " ")


def en_comment(rng: Random, topic: str) -> str:
    """A reader comment under a blog post."""
    return _fill(rng, rng.choice(_EN_COMMENTS), _en_blog_banks(topic))


def slugify(title: str, max_words: int = 6) -> str:
    """A URL slug from an English title, as blog engines make them."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "-".join(words[:max_words]) or "post"
