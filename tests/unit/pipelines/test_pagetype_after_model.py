"""The page-type rules that follow the model (pipelines.pagetype.classify_page), each on a
small hand-written page, decided with a stand-in model so that only the rule under test can
change the outcome."""

from __future__ import annotations

import pytest

from pipelines.document import load_document
from pipelines.pagetype import LINKED_HEADINGS, POST_ON_LIST, classify_page
from pipelines.pagetype.page_features import (
    PageScan,
    linked_headings,
    own_dates,
    visible_dates,
)
from pipelines.params import PAGE_TYPE, PageTypeParams
from pipelines.process import keeps_body
from pipelines.results import PageTypeDecision


class _Model:
    """A stand-in model that ranks `ranked` whatever the page."""

    features: frozenset[str] = frozenset()

    def __init__(self, ranked: list[tuple[str, float]]) -> None:
        self.ranked = ranked

    def rank(self, features: dict[str, float]) -> list[tuple[str, float]]:
        return self.ranked


def _decide(html: str, url: str | None, ranked: list[tuple[str, float]],
            params: PageTypeParams = PAGE_TYPE) -> PageTypeDecision:
    doc = load_document(html.encode("utf-8"), url)
    return classify_page(doc, params=params, model=_Model(ranked))  # type: ignore[arg-type]


_MENU = ('<div class="nav"><a href="/">Home</a> <a href="/archives/">Archives</a> '
         '<a href="/tags/">Tags</a> <a href="/about/">About</a></div>')
_SIDEBAR = '<ul class="side">{}</ul>'.format("".join(
    f'<li><a href="/tags/topic-{n}/">topic {n}</a></li>' for n in range(12)))

# (a) A page of links whose only date is the one its theme stamps in a meta tag.
ABOUT_LINKS = f"""<html><head><title>Friends</title>
<meta property="article:published_time" content="2021-03-04T10:00:00+08:00"></head><body>
{_MENU}<h1>Friends</h1><ul>{"".join(
    f'<li><a href="https://friend{n}.example.org/">A friend of this blog, number {n}</a></li>'
    for n in range(10))}</ul>{_SIDEBAR}</body></html>"""


def test_a_date_only_in_the_head_does_not_make_an_article() -> None:
    url = "https://blog.example.org/friends/"
    ranked = [("list", 0.55), ("other", 0.30), ("blog", 0.15)]
    decision = _decide(ABOUT_LINKS, url, ranked)
    assert (decision.page_type, decision.decided_by) == ("list", "classifier")
    # the head's declaration alone decided it before the rule
    alone = _decide(ABOUT_LINKS, url, ranked, PageTypeParams(declared_needs_body_dates=0))
    assert (alone.page_type, alone.decided_by) == ("blog", "declared_publication")
    # a date the reader sees, with the declaration, still keeps the page an article
    dated = ABOUT_LINKS.replace("<h1>Friends</h1>", "<h1>Friends</h1><p>2021-03-04</p>")
    assert _decide(dated, url, ranked).decided_by == "declared_publication"


def _post(n: int) -> str:
    return (f'<div class="post"><h2 class="title"><a href="/2020/05/post-number-{n}/">'
            f"Notes on building a crawler, part {n}</a></h2>"
            f"<p>This part looks at how the crawler reads its pages and what it keeps of "
            f"them; it is the {n}th of a series of notes on the subject, written while "
            f"the crawler was being built.</p></div>")


# (b) A tag page whose posts are linked h2 headings (no dates shown, an excerpt each).
TAG_PAGE = f"""<html><head><title>Tag: crawler</title></head><body>{_MENU}
<h1>Posts tagged crawler</h1>{"".join(_post(n) for n in range(1, 6))}{_SIDEBAR}</body></html>"""


def test_a_page_of_linked_headings_is_a_list_when_the_model_is_unsure() -> None:
    url = "https://blog.example.org/topics/crawler/"
    ranked = [("blog", 0.50), ("list", 0.40), ("other", 0.10)]
    decision = _decide(TAG_PAGE, url, ranked)
    assert (decision.page_type, decision.decided_by) == ("list", LINKED_HEADINGS)
    assert decision.confidence == pytest.approx(0.40)
    assert keeps_body(decision)  # unsure: the text stays too, as an unsure list's does
    off = _decide(TAG_PAGE, url, ranked, PageTypeParams(linked_headings_list=0))
    assert off.page_type == "blog"
    # a sure article stays one; so does a page whose two best guesses are not article and list
    assert _decide(TAG_PAGE, url, [("blog", 0.85), ("list", 0.10), ("other", 0.05)]
                   ).page_type == "blog"
    assert _decide(TAG_PAGE, url, [("blog", 0.50), ("other", 0.40), ("list", 0.10)]
                   ).page_type == "blog"


# An article with a box of related stories under it: linked headings with no text of their own.
RELATED_BOX = f"""<html><head><title>A post</title></head><body>{_MENU}
<h1>Notes on building a crawler</h1><p>Posted on 2020-05-01</p>
<p>{"The crawler reads each page once and keeps what the reader needs of it. " * 8}</p>
<div class="related"><h3>Related stories</h3>{"".join(
    f'<h2><a href="/2020/0{n}/another-story/">Another story about crawlers, number {n}</a></h2>'
    for n in range(1, 7))}</div>{_SIDEBAR}</body></html>"""


def test_linked_headings_count_links_to_other_pages_only() -> None:
    url = "https://blog.example.org/topics/crawler/"
    tag_page = load_document(TAG_PAGE.encode(), url).body
    assert linked_headings(tag_page, url) == linked_headings(tag_page, url, 100) == 5
    # a related box's headings head no text of their own
    related = load_document(RELATED_BOX.encode(), url).body
    assert (linked_headings(related, url), linked_headings(related, url, 100)) == (6, 0)
    ranked = [("news", 0.55), ("list", 0.35), ("other", 0.10)]
    assert _decide(RELATED_BOX, url, ranked).page_type == "news"
    # a headline that links to its own page, or to a fragment, is an article's
    own = ('<html><body><h1><a href="/2020/05/post/">A post</a></h1><h2><a href="#c">'
           'Comments</a></h2><h2>Related: <a href="/x/">x</a> and more words here</h2>'
           "</body></html>")
    here = "https://blog.example.org/2020/05/post/"
    assert linked_headings(load_document(own.encode(), here).body, here) == 0


# (c) A lone blog post with one date: short, a long sidebar of links.
LONE_POST = f"""<html><head><title>SSDC 2013</title></head><body>{_MENU}
<h1>SSDC 2013</h1><p class="meta">Posted on 2013-11-18</p>
<p>Slides of my talk at the conference are up; thanks to everyone who came.</p>
{_SIDEBAR}{_SIDEBAR.replace("topic", "archive")}</body></html>"""


def test_a_lone_post_is_an_article_when_the_model_leans_to_list() -> None:
    url = "https://blog.example.org/blog/2013/11/18/ssdc2013/"
    ranked = [("list", 0.55), ("blog", 0.35), ("other", 0.10)]
    assert visible_dates(PageScan(load_document(LONE_POST.encode(), url).tree)) == 1
    decision = _decide(LONE_POST, url, ranked)
    assert (decision.page_type, decision.decided_by) == ("blog", "lone_post")
    off = _decide(LONE_POST, url, ranked, PageTypeParams(lone_post_list_below=0.0))
    assert off.page_type == "list"
    # a sure list, a list with 'other' second, or a page of many dates stays a list
    assert _decide(LONE_POST, url, [("list", 0.85), ("blog", 0.10), ("other", 0.05)]
                   ).page_type == "list"
    assert _decide(LONE_POST, url, [("list", 0.55), ("other", 0.35), ("blog", 0.10)]
                   ).page_type == "list"
    dated = LONE_POST.replace("</body>", "".join(
        f"<p>Posted on 2013-11-{d:02d}</p>" for d in range(1, 4)) + "</body>")
    assert _decide(dated, url, ranked).page_type == "list"
    # a page whose headings link away (two records titled by links) is no lone post; one
    # linked heading is the post's own headline linking to its permalink under another address
    linked = LONE_POST.replace("<h1>SSDC 2013</h1>", _post(1) + _post(2))
    assert _decide(linked, url, ranked).page_type == "list"
    own_headline = LONE_POST.replace("<h1>SSDC 2013</h1>", _post(1))
    assert _decide(own_headline, url, ranked).decided_by == "lone_post"
    strict = PageTypeParams(post_max_linked_headings=0)
    assert _decide(own_headline, url, ranked, strict).page_type == "list"


# (e) A short news story under heavy navigation: one date, one block of prose, and rails of
# headline links that make the model sure it is a list.
_RAIL = '<ul class="rail">{}</ul>'.format("".join(
    f'<li><a href="/2012/10/story-{n}/">Another headline of the day, number {n}</a></li>'
    for n in range(30)))
SHORT_STORY = f"""<html><head><title>Storm damage</title></head><body>{_MENU}{_RAIL}
<h1>Town assesses storm damage</h1><p class="byline">By A. Reporter, October 31, 2012</p>
<div class="story"><p>{"Crews worked through the night to clear fallen trees from the roads. " * 4}
</p><p>{"Most homes in the town were still without power on Wednesday morning. " * 2}</p></div>
{_RAIL.replace("story", "video")}{_SIDEBAR}</body></html>"""


def test_a_sure_list_that_shows_one_post_keeps_its_body() -> None:
    url = "https://news.example.org/2012/10/storm-damage/"
    ranked = [("list", 0.90), ("news", 0.07), ("other", 0.03)]
    decision = _decide(SHORT_STORY, url, ranked)
    assert (decision.page_type, decision.decided_by) == ("list", POST_ON_LIST)
    assert decision.confidence == pytest.approx(0.90)
    assert keeps_body(decision)  # the list stays (records mined), its text is kept too
    off = _decide(SHORT_STORY, url, ranked, PageTypeParams(post_on_list_prose_bytes=0))
    assert (off.decided_by, keeps_body(off)) == ("classifier", False)
    # 'other' second, a page of dated items, or too little prose: a list, and no body
    assert _decide(SHORT_STORY, url, [("list", 0.90), ("other", 0.07), ("news", 0.03)]
                   ).decided_by == "classifier"
    dated = SHORT_STORY.replace("</body>", "".join(
        f"<p>Posted on 2012-10-{d:02d}</p>" for d in range(1, 4)) + "</body>")
    assert _decide(dated, url, ranked).decided_by == "classifier"
    short = _decide(SHORT_STORY, url, ranked, PageTypeParams(post_on_list_prose_bytes=10**4))
    assert short.decided_by == "classifier"


# (o) The same short story whose head says it is one article (Open Graph).
def test_a_sure_list_that_shows_one_post_and_declares_an_article_is_an_article() -> None:
    url = "https://news.example.org/2012/10/storm-damage/"
    ranked = [("list", 0.90), ("news", 0.07), ("other", 0.03)]
    og = '<meta property="og:type" content="article"></head>'
    story = SHORT_STORY.replace("</head>", og)
    decision = _decide(story, url, ranked)
    assert (decision.page_type, decision.decided_by) == ("news", "og_article_post")
    assert _decide(story, url, ranked, PageTypeParams(og_article_post=False)
                   ).decided_by == POST_ON_LIST
    # an index whose theme writes og:type "article" on every page dates its records one each
    dated = story.replace("</body>", "".join(
        f"<p>Posted on 2012-10-{d:02d}</p>" for d in range(1, 4)) + "</body>")
    assert _decide(dated, url, ranked).page_type == "list"
    # a website's index is not declared an article
    site = SHORT_STORY.replace("</head>", og.replace("article", "website"))
    assert _decide(site, url, ranked).decided_by == POST_ON_LIST


# (f) An essay the model reads as 'other': a date under its title and a long block of prose.
ESSAY = f"""<html><head><title>On slow reading</title></head><body>{_MENU}
<h1>On slow reading</h1><p class="meta">March 2, 2019</p><div class="entry"><p>{
    "Reading slowly is a habit worth keeping, and it is easy to lose it. " * 8}</p></div>
{_SIDEBAR}</body></html>"""
# A project showcase: a date and a line of text, the rest links.
SHOWCASE = ESSAY.replace(
    "Reading slowly is a habit worth keeping, and it is easy to lose it. ", "A tool. ")


def test_an_unsure_other_page_with_a_date_and_prose_is_an_article() -> None:
    url = "https://blog.example.org/2019/03/slow-reading/"
    ranked = [("other", 0.52), ("blog", 0.40), ("list", 0.08)]
    decision = _decide(ESSAY, url, ranked)
    assert (decision.page_type, decision.decided_by) == ("blog", "dated_prose")
    assert _decide(ESSAY, url, ranked, PageTypeParams(dated_prose_bytes=0)).page_type == "other"
    # a model sure of 'other', article not among the two best, little prose, or many dates
    assert _decide(ESSAY, url, [("other", 0.80), ("blog", 0.15), ("list", 0.05)]
                   ).page_type == "other"
    assert _decide(ESSAY, url, [("other", 0.52), ("list", 0.40), ("blog", 0.08)]
                   ).page_type == "other"
    assert _decide(SHOWCASE, url, ranked).page_type == "other"
    dated = ESSAY.replace("</body>", "".join(
        f"<p>Updated on 2019-03-{d:02d}</p>" for d in range(3, 5)) + "</body>")
    assert _decide(dated, url, ranked).page_type == "other"


# (g) A page the model reads as 'other', undated, whose text is one long block of prose.
LONG_ESSAY = ESSAY.replace('<p class="meta">March 2, 2019</p>', "").replace(
    "Reading slowly", "Reading slowly and carefully, a page at a time, a pencil in hand, no hurry,")


def test_an_unsure_other_page_of_one_prose_block_is_an_article() -> None:
    url = "https://blog.example.org/slow-reading/"
    ranked = [("other", 0.52), ("news", 0.40), ("list", 0.08)]
    decision = _decide(LONG_ESSAY, url, ranked)
    assert (decision.page_type, decision.decided_by) == ("news", "prose_block")
    off = PageTypeParams(other_unsure_below=0.0)
    assert _decide(LONG_ESSAY, url, ranked, off).page_type == "other"
    # up to `other_unsure_below` (0.6): an about page or a guide of one block of prose
    assert _decide(LONG_ESSAY, url, [("other", 0.58), ("news", 0.35), ("list", 0.07)]
                   ).decided_by == "prose_block"
    # a model sure of 'other', or prose that does not dominate the page
    assert _decide(LONG_ESSAY, url, [("other", 0.62), ("news", 0.33), ("list", 0.05)]
                   ).page_type == "other"
    assert _decide(LONG_ESSAY, url, [("other", 0.80), ("news", 0.15), ("list", 0.05)]
                   ).page_type == "other"
    assert _decide(ESSAY.replace('<p class="meta">March 2, 2019</p>', ""), url, ranked
                   ).page_type == "other"


# (h) A short post beside a blog's dated archive widget and a "previous post" link: the dates
# in links date other pages; the post shows one date of its own.
_ARCHIVE = '<ul class="archive">{}</ul>'.format("".join(
    f'<li><a href="/2012/{m:02d}/">{name} 2012</a> (12)</li>'
    for m, name in enumerate(("January", "February", "March", "April", "May", "June",
                              "July", "August", "September", "October"), start=1)))
ARCHIVED_POST = f"""<html><head><title>Yesterday is over</title></head><body>{_MENU}
<h1>Yesterday is over</h1><p class="meta">October 12, 2012</p>
<p>What happened yesterday is a sunk cost; what matters is what you do next.</p>
<p><a href="/2012/10/11/the-false-choice/">Previous post: The false choice (October 11,
2012)</a></p>{_ARCHIVE}{_SIDEBAR}</body></html>"""
# A list whose records show their dates beside their title links: dates of its own, many.
DATED_LIST = ARCHIVED_POST.replace("</body>", "".join(
    f'<p><a href="/2012/10/{d:02d}/post/">A post of the day</a> October {d}, 2012</p>'
    for d in range(1, 6)) + "</body>")


def test_dates_in_links_date_other_pages() -> None:
    url = "https://blog.example.org/2012/10/12/yesterday/"
    scan = PageScan(load_document(ARCHIVED_POST.encode(), url).tree)
    assert (visible_dates(scan), own_dates(scan)) == (12, 1)
    ranked = [("list", 0.70), ("blog", 0.25), ("other", 0.05)]
    decision = _decide(ARCHIVED_POST, url, ranked)
    assert (decision.page_type, decision.decided_by) == ("blog", "lone_post")
    # <time> elements count outside links only
    timed = ARCHIVED_POST.replace("October 12, 2012", '<time datetime="2012-10-12">today</time>'
                                  ).replace("(October 11,\n2012)", "")
    timed = timed.replace("</ul>", '<li><a href="/x/"><time>1</time><time>2</time></a></li></ul>',
                          1)
    assert own_dates(PageScan(load_document(timed.encode(), url).tree)) == 1
    # a list dates each record outside its link: it stays a list
    assert own_dates(PageScan(load_document(DATED_LIST.encode(), url).tree)) == 6
    assert _decide(DATED_LIST, url, ranked).page_type == "list"


def _teaser(n: int, tag: str) -> str:
    return (f'<div class="post"><{tag}><a href="/blog/tip-number-{n}/">Tip number {n} for '
            f"choosing a server</a></{tag}><p>"
            f"{'A short excerpt of the post that says what the tip is about. ' * 3}</p>"
            f'<a href="/blog/tip-number-{n}/">Read more</a></div>')


# A blog index that titles its first post h1 and the rest h3: one linked h1/h2, ten records.
H3_INDEX = f"""<html><head><title>Blog</title></head><body>{_MENU}<h1>Blog</h1>
<p class="meta">Posted on 10th Jun 2015</p>{_teaser(0, "h1")}{"".join(
    _teaser(n, "h3") for n in range(1, 10))}{_SIDEBAR}</body></html>"""


def test_one_linked_headline_is_a_post_only_when_no_h3_titles_records() -> None:
    url = "https://shop.example.com/blog/"
    ranked = [("list", 0.75), ("news", 0.15), ("other", 0.10)]
    body = load_document(H3_INDEX.encode(), url).body
    assert linked_headings(body, url, 100) == 1
    assert linked_headings(body, url, 100, ("h1", "h2", "h3")) == 10
    assert _decide(H3_INDEX, url, ranked).page_type == "list"
    # a post's own linked headline over sections headed by plain h3s is a lone post
    post = H3_INDEX.replace('<h3><a href="/blog/tip-number-', '<h3><a name="tip-')
    assert linked_headings(load_document(post.encode(), url).body, url, 100, ("h1", "h2", "h3")
                           ) == 1
    assert _decide(post, url, ranked).decided_by == "lone_post"


# (l) A notice dated day first ("05/10/2018"), the only form of date on the page.
DAY_FIRST = ESSAY.replace('<p class="meta">March 2, 2019</p>',
                          '<p class="meta">05/10/2018 - Published by the editor</p>')


def test_a_day_first_date_dates_an_unsure_other_page() -> None:
    url = "https://city.example.org/news/a-notice"
    ranked = [("other", 0.52), ("news", 0.40), ("list", 0.08)]
    decision = _decide(DAY_FIRST, url, ranked)
    assert (decision.page_type, decision.decided_by) == ("news", "dated_prose")
    assert _decide(DAY_FIRST, url, ranked,
                   PageTypeParams(day_first_dates=False)).page_type == "other"
    # read only where no other form dates the page: the essay's one date stays one
    both = ESSAY.replace("</h1>", "</h1><p>05/10/2018</p><p>06/10/2018</p>")
    assert _decide(both, url, ranked).decided_by == "dated_prose"


# (m) A short post the model reads as 'other', whose theme marks the page as one post.
def test_a_theme_that_marks_a_single_post_makes_an_article() -> None:
    url = "https://blog.example.org/about-bugs/"
    page = ESSAY.replace("<body>", '<body class="post-template-default single single-post">')
    ranked = [("other", 0.75), ("blog", 0.20), ("list", 0.05)]
    decision = _decide(page, url, ranked)
    assert (decision.page_type, decision.decided_by) == ("blog", "single_post")
    assert _decide(page, url, ranked, PageTypeParams(single_post_class=False)
                   ).page_type == "other"
    # a WordPress page (about, contact) is no post
    about = ESSAY.replace("<body>", '<body class="page-template-default page page-id-2">')
    assert _decide(about, url, ranked).page_type == "other"


# (n) An article followed by a rail of other stories: linked headings over excerpts after it.
ARTICLE_THEN_RAIL = TAG_PAGE.replace(
    "<h1>Posts tagged crawler</h1>",
    "<h1>What the reviews say</h1><div class=\"body\"><p>"
    + "The early reviews are in, and they do not agree on much at all. " * 20 + "</p></div>")


def test_linked_headings_after_the_main_prose_are_a_rail_not_a_list() -> None:
    url = "https://news.example.org/2019/reviews"
    ranked = [("news", 0.50), ("list", 0.40), ("other", 0.10)]
    decision = _decide(ARTICLE_THEN_RAIL, url, ranked)
    assert (decision.page_type, decision.decided_by) == ("news", "classifier")
    assert _decide(ARTICLE_THEN_RAIL, url, ranked, PageTypeParams(headline_prose=False)
                   ).decided_by == LINKED_HEADINGS
    # a tag page titles its first record before its text: still a list
    assert _decide(TAG_PAGE, url, ranked).decided_by == LINKED_HEADINGS
