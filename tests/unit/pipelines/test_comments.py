"""Comment sections and forum replies come out as CommentData, never in the body."""

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import lxml.html

from pipelines.article import extract_article
from pipelines.article.comments.items import _innermost, parse_item
from pipelines.article.comments.sections import _field_holders, _items, _section_names
from pipelines.article.markup import Markup, read_markup
from pipelines.document import load_document
from pipelines.lexicon import COMMENT_SECTION, COMMENT_SECTION_STEMS

NOW = datetime(2023, 5, 10, 12, 0, tzinfo=UTC)
BEIJING = ZoneInfo("Asia/Shanghai")  # a Chinese page's times, written without a zone
BODY = "".join(f"<p>Paragraph {i}: the council met on Monday, and it approved the plan; "
               f"residents, however, were not convinced.</p>" for i in range(6))
COMMENTS = "".join(
    f'<li class="comment" id="comment-{i}"><div class="comment-author">reader{i}</div>'
    f'<time datetime="2023-05-0{i + 1}T08:00:00Z">May {i + 1}</time>'
    f'<div class="comment-text"><p>I think point {i} is wrong, honestly.</p></div>'
    f'<a class="reply-link" href="#">Reply</a></li>' for i in range(3)
)
BLOG = f"""<html><body><article><h1>Council approves plan</h1>{BODY}</article>
<section id="comments"><h3>3 comments</h3><ol class="comment-list">{COMMENTS}</ol></section>
</body></html>"""


def test_comment_section_is_split_into_comments() -> None:
    art = extract_article(load_document(BLOG.encode(), fetched_at=NOW))
    assert [c.author for c in art.comments] == ["reader0", "reader1", "reader2"]
    assert art.comments[1].text == "I think point 1 is wrong, honestly."
    assert art.comments[2].published_at == datetime(2023, 5, 3, 8, 0, tzinfo=UTC)
    assert "honestly" not in art.content_text
    assert "Paragraph 5" in art.content_text


OPENING = "楼主说：今天天气很好，我们去爬山吧，大家一起报名参加。"
POSTS = "".join(
    f'<div class="post" id="post_{i}"><div class="postauthor">user{i}</div>'
    f'<div class="postinfo">发表于 2023-05-0{i + 1} 10:0{i}</div>'
    f'<div class="postmessage">{OPENING * (3 if i == 0 else 1)}'
    f"第{i}楼的内容。</div></div>" for i in range(4)
)
THREAD = f"""<html><body><div class="nav"><a href="/">论坛首页</a></div>
<h1>周末去爬山</h1><div id="postlist">{POSTS}</div></body></html>"""


def test_forum_thread_first_post_is_body_rest_are_replies() -> None:
    art = extract_article(load_document(THREAD.encode(), fetched_at=NOW))
    assert "第0楼" in art.content_text and "第1楼" not in art.content_text
    assert [c.author for c in art.comments] == ["user1", "user2", "user3"]
    assert art.comments[0].published_at == datetime(2023, 5, 2, 10, 1, tzinfo=BEIJING)
    assert "第2楼的内容" in art.comments[1].text
    assert art.author == "user0"  # the starter, named by the opening post's markup


RELATED = "".join(f"<li><a href='/t/{i}'>第{i}个相关帖子的标题写得比较长</a></li>"
                  for i in range(8))
TWO_POSTS = POSTS.split('<div class="post" id="post_2">')[0]
SHORT_THREAD = f"""<html><head><title>周末去爬山 - 示例论坛</title></head><body>
<div class="nav"><a href="/">论坛首页</a> <a href="/b/1">户外运动</a> <a href="/b/2">摄影</a></div>
<div class="head"><h1>周末去爬山</h1><span>查看：4982 | 回复：1</span></div>{TWO_POSTS}
<div class="related"><h3>相关帖子</h3><ul>{RELATED}</ul></div>
<div class="footer">版权所有 © 2023 示例论坛 京ICP备00000000号 联系我们 关于我们 广告服务</div>
</body></html>"""


def test_a_thread_with_one_reply_keeps_its_opening_post_as_the_body() -> None:
    """Two posts hold too little of the page for the share test; right after the <h1>, they
    are still the thread (they were read as a comment section, the body lost)."""
    art = extract_article(load_document(SHORT_THREAD.encode(), fetched_at=NOW))
    assert "第0楼" in art.content_text and "第1楼" not in art.content_text
    assert [c.author for c in art.comments] == ["user1"]
    assert art.author == "user0"


CN_BODY = "".join(f"<p>第{i}段：5月1日，本市召开新闻发布会，介绍了今年以来的经济运行情况，"
                  f"各项指标总体平稳，稳中有进。</p>" for i in range(6))
CN_REPLIES = "".join(
    f'<div class="item"><div class="u"><a href="/u/{i}">网友{i}</a>'
    f"<span>2023-05-0{i + 2} 1{i}:00</span></div><p>第{i}条看法：这个政策很好，支持！</p></div>"
    for i in range(3))
CN_PAGE = f"""<html><head><title>本市经济运行总体平稳 - 示例新闻网</title></head><body>
<div class="article"><h1>本市经济运行总体平稳</h1><div class="content">{CN_BODY}</div></div>
<div class="box"><div class="list">{CN_REPLIES}</div></div></body></html>"""


def test_unnamed_repeated_blocks_after_the_article_are_comments() -> None:
    art = extract_article(load_document(CN_PAGE.encode(), fetched_at=NOW))
    assert [c.author for c in art.comments] == ["网友0", "网友1", "网友2"]
    assert "第1条看法" in art.comments[1].text
    assert art.comments[2].published_at == datetime(2023, 5, 4, 12, 0, tzinfo=BEIJING)
    assert "看法" not in art.content_text and "第5段" in art.content_text


def test_date_lines_under_a_headline_are_no_comment_run() -> None:
    """Two same-shape dated lines under the headline (the date with the font-size buttons and
    the source, then "最后更新：…"): a run of short dated blocks, as unnamed comments are,
    but one says nothing besides its date. They are the article's date lines: no comments,
    and the date is read from them (it was a date in the text, 9月3日)."""
    lines = ('<div class="time fix"><span>2019-09-07 15:10:53</span>'
             '<span>字号：<a href="#">A-</a> <a href="#">A+</a></span>'
             '<span>来源：EETOP</span></div>'
             '<div class="time fix"><span>最后更新: 2019-09-07 15:14:21</span></div>')
    page = f"""<html lang="zh-CN"><body><h3>我国集成电路进口突破3000亿美元</h3>{lines}
    <div class="content"><p>9月3日，在第二届全球IC企业家大会上，魏少军教授分析了集成电路产业。</p>
    {CN_BODY}</div></body></html>"""
    art = extract_article(load_document(page.encode(), fetched_at=NOW))
    assert art.comments == []
    assert art.published_at == datetime(2019, 9, 7, 15, 10, 53, tzinfo=BEIJING)


def test_traditional_chinese_comments_with_floor_numbers() -> None:
    """Taiwan and Hong Kong pages write 網友評論 and number replies "1樓", "2樓" (楼 in
    simplified): undated blocks that such a number opens are comments, out of the body."""
    body = "".join(f"<p>第{i}段：本市召開新聞發布會，介紹了今年以來的經濟運行情況，各項指標總體"
                   f"平穩。</p>" for i in range(6))
    replies = "".join(f'<div class="c-{i}"><b>網友{i}</b> {i + 1}樓'
                      f"<p>第{i}條看法：這個政策很好，我們都支持！</p></div>" for i in range(2))
    page = f"""<html lang="zh-TW"><body><div class="article"><h1>本市經濟運行總體平穩</h1>
    {body}</div><h3>網友評論(2)</h3>{replies}</body></html>"""
    art = extract_article(load_document(page.encode("big5"), fetched_at=NOW))
    assert [c.author for c in art.comments] == ["網友0", "網友1"]
    assert "看法" not in art.content_text


ANNOUNCED = f"""<html><body><article><h1>Council approves plan</h1>{BODY}</article>
<h3>2 Responses to “Council approves plan”</h3>
<div class="c-odd"><b>Ann</b> wrote on 3 May 2023: I disagree with the plan entirely.</div>
<div class="c-even"><b>Bo</b> wrote on 4 May 2023: The plan is long overdue, well done.</div>
</body></html>"""


def test_heading_announces_comments_and_alternating_classes_are_one_shape() -> None:
    art = extract_article(load_document(ANNOUNCED.encode(), fetched_at=NOW))
    texts = " ".join(c.text for c in art.comments)
    assert "disagree" in texts and "overdue" in texts
    assert "disagree" not in art.content_text and "Paragraph 5" in art.content_text


def test_single_comment_section_and_reply_form() -> None:
    single = BLOG.replace(COMMENTS, COMMENTS.split("</li>")[0] + "</li>").replace(
        "</section>", '</section><div id="respond"><h3>Leave a Reply</h3><form>'
        '<textarea name="comment"></textarea><input name="author"></form></div>')
    art = extract_article(load_document(single.encode(), fetched_at=NOW))
    assert [c.text for c in art.comments] == ["I think point 0 is wrong, honestly."]


THREADED = f"""<html><body><article><h1>Council approves plan</h1>{BODY}</article>
<ol class="commentlist">
<li class="comment even thread-even depth-1" id="c1"><div class="says">I disagree with the
council on this plan.</div><a class="comment-reply-link" href="#">Reply</a>
<ul class="children"><li class="comment odd alt depth-2 bypostauthor" id="c2">
<span class="comment-author">bob</span><p>Bob answers the first reader here.</p>
<a class="comment-reply-link" href="#">Reply</a></li></ul></li>
<li class="comment odd thread-odd depth-1" id="c3"><span class="comment-author">eve</span>
<p>Eve thinks the plan is fine as it stands.</p></li></ol></body></html>"""


def test_nested_replies_are_comments_of_their_own_and_lend_nothing_to_their_parent() -> None:
    art = extract_article(load_document(THREADED.encode(), fetched_at=NOW))
    found = {c.text: c.author for c in art.comments}
    assert found == {"I disagree with the council on this plan.": None,
                     "Bob answers the first reader here.": "bob",
                     "Eve thinks the plan is fine as it stands.": "eve"}


def test_a_declared_author_is_found_with_and_without_the_markup_table() -> None:
    item = lxml.html.fragment_fromstring(
        '<div><span itemprop="author">Wang Fang</span>'
        '<p>This plan will not help the residents of the old town at all.</p></div>')
    body = lxml.html.document_fromstring("<html><body></body></html>").find("body")
    body.append(item)
    alone = parse_item(item, set(), NOW)
    with_table = parse_item(item, set(), NOW, read_markup(body))
    assert alone == with_table and alone.author == "Wang Fang"
    assert alone.text.startswith("This plan")


def test_items_holding_a_form_field_are_left_out_of_a_comment_list() -> None:
    section = lxml.html.fragment_fromstring(
        '<ol class="comments"><li class="c"><p>A first reader writes a comment here.</p></li>'
        '<li class="c"><p>A second reader writes another one.</p></li>'
        '<li class="c"><form><textarea name="comment"></textarea></form></li>'
        '<li class="c"><div><input type="email" name="mail"></div></li></ol>')
    holders = _field_holders(section)
    items = section.findall("li")
    assert holders == {section, items[2], items[3], items[2][0], items[3][0]}
    assert _items(section, [items], None) == items[:2]


def _section_names_of(*names: str) -> set[str]:
    """_section_names of a page whose class/id words strings are `names`."""
    body = lxml.html.document_fromstring("<html><body></body></html>").find("body")
    return _section_names(Markup(body, [], named={name: [] for name in names}))


def test_section_words_are_whole_words_and_strings_without_a_stem_skip_the_pattern() -> None:
    named = ("post-Comments list", "commentary", "commentXlist", "talk2", "feedbacks", "评论区",
             "x-comment", "comment")
    assert _section_names_of(*named) == {"post-Comments list", "commentXlist", "talk2", "评论区",
                                         "x-comment", "comment"}
    assert _section_names_of("story-body related", "nav") == set()


def test_every_section_word_holds_a_stem_of_the_pre_test() -> None:
    """Only strings holding one of COMMENT_SECTION_STEMS meet the COMMENT_SECTION regex; a word
    added to the regex without a stem there would never be found, so each alternative must hold
    one."""
    words = re.search(r"\(\?:(.*?)\)\(\?=", COMMENT_SECTION.pattern).group(1).split("|")
    assert len(words) >= 10
    assert all(any(stem in word for stem in COMMENT_SECTION_STEMS) for word in words), words


def test_a_short_opening_post_is_the_body_without_the_thread_chrome_around_it() -> None:
    """The title, stats line and reply box around a short first post outweighed it in the
    density frame; a thread's body is now looked for in its opening post alone."""
    posts = "".join(
        f'<table class="post"><tr><td class="pls"><div class="user"><a href="/u">user{i}</a>'
        f'</div><div class="level">积分：{100 + i}</div></td><td class="plc"><div class="pi">'
        f'<strong>{i}楼</strong> 发表于 2023-05-0{i % 9 + 1} 10:00</div><div class="t_f">'
        f'<p>{"说到爬山，体验还不错。" if i == 0 else OPENING}第{i}楼。</p></div>'
        f'<div class="sign">生活不止眼前的苟且。</div></td></tr></table>' for i in range(8))
    html = f"""<html><head><title>周末去爬山 - 示例论坛</title></head><body>
    <div class="nav"><a href="/">论坛首页</a></div><div class="wrap">
    <div class="head"><h1>周末去爬山</h1><span class="stats">查看：4982 | 回复：7</span></div>
    {posts}<div class="reply-box">快速回复：请先登录后发帖。</div></div></body></html>"""
    art = extract_article(load_document(html.encode(), fetched_at=NOW))
    assert "第0楼" in art.content_text and "第1楼" not in art.content_text
    for chrome in ("查看：4982", "快速回复", "发表于"):
        assert chrome not in art.content_text
    assert len(art.comments) == 7 and art.author == "user0"
    reply = art.comments[0]  # a reply's floor label, counters and signature are no text
    assert (reply.author, reply.text) == ("user1", OPENING + "第1楼。")


def _webforms_thread() -> str:
    """An ASP.NET WebForms thread: the whole page inside one <form>, each post header's
    name, date and time in elements side by side, nothing between them."""
    posts = "".join(
        f'<div class="Post"><div class="Info"><span class="AccountName">user{i}</span>'
        f'<span class="Time"><span>2{i}.09.19</span><span>12:4{i}</span></span></div>'
        f'<div class="Text">{"Seit dem Update auf iOS 13 habe ich keinen Zugriff mehr. " * 3}'
        f"Beitrag {i}.</div></div>" for i in range(6))
    return f"""<html><head><title>Kein App Store mehr - Forum</title></head><body>
    <form method="post" action="./thread.aspx"><div class="nav"><a href="/">Forum</a></div>
    <h2>Kein App Store mehr</h2>{posts}<div class="footer">Impressum</div></form>
    </body></html>"""


def test_a_thread_inside_a_page_wide_form_keeps_its_body_and_reads_glued_times() -> None:
    art = extract_article(load_document(_webforms_thread().encode(), fetched_at=NOW,
                                        url="https://www.example.de/forum/1.aspx"))
    assert "Beitrag 0." in art.content_text and "Beitrag 1." not in art.content_text
    assert art.author == "user0"
    berlin = ZoneInfo("Europe/Berlin")
    assert art.published_at == datetime(2019, 9, 20, 12, 40, tzinfo=berlin)  # not 1912
    assert [c.published_at for c in art.comments][:2] == [
        datetime(2019, 9, 21, 12, 41, tzinfo=berlin), datetime(2019, 9, 22, 12, 42, tzinfo=berlin)]


def test_the_bar_of_who_liked_a_post_is_no_comment_section() -> None:
    names = ", ".join(f'<a href="/m/{i}"><bdi>reader number {i}</bdi></a>' for i in range(3))
    html = BLOG.replace("</article>", '</article><div class="reactionsBar js-reactionsList">'
                                      f"<span>Reactions:</span> {names}</div>")
    authors = [c.author for c in extract_article(load_document(html.encode(), fetched_at=NOW)
                                                 ).comments]
    assert authors == ["reader0", "reader1", "reader2"]


def _comments_of(items: str) -> list:
    """The comments of a blog post whose comment list holds `items`."""
    page = (f"<html><body><article><h1>Council approves plan</h1>{BODY}</article>"
            f'<div id="comments"><ol class="commentlist">{items}</ol></div></body></html>')
    return extract_article(load_document(page.encode(), fetched_at=NOW)).comments


def test_comment_header_words_are_neither_name_nor_text() -> None:
    """WordPress's "<cite>Ann</cite> says:", an older theme's numbered "75 Zafir Says: <date>"
    block: the name alone, and the text without the header."""
    wordpress = "".join(
        f'<li class="comment"><div class="comment-author vcard"><img class="avatar" src="a.png">'
        f'<cite class="fn">Ann Lee{i}</cite> <span class="says">says:</span></div>'
        f'<div class="comment-meta"><a href="#c{i}">May {i + 1}, 2023 at 9:1{i} am</a></div>'
        f"<p>I liked point {i} of this post a lot.</p></li>" for i in range(3))
    numbered = "".join(
        f'<li class="alt"><div class="commentname">\n<div class="commentcount">7{i}</div>\n'
        f"<cite>Zafir{i}</cite> Says: <br><small><a href='#c'>May {i + 1}, 2023 at 5:33 pm</a>"
        f'</small></div><div class="commentext"><p>Congratulations {i}!</p></div></li>'
        for i in range(3))
    for items, names, text in ((wordpress, "Ann Lee", "I liked point 1 of this post a lot."),
                               (numbered, "Zafir", "Congratulations 1!")):
        found = _comments_of(items)
        assert [c.author for c in found] == [f"{names}{i}" for i in range(3)]
        assert found[1].text == text
        assert found[1].published_at.date().isoformat() == "2023-05-02"


def test_plain_text_name_before_the_time_link() -> None:
    """A commenter without a profile link is text beside the time link ("Jason — <a>July 14th,
    2012</a>", "by james on …"): that name, not the date, and the line not in the text. An
    empty box named as meta (the avatar's) before that line is not the time."""
    items = "".join(
        f'<li class="comment"><div class="comment_meta"><img src="a.png"></div>'
        f'<p class="cm-meta">{name} <a class="comment-meta-time" '
        f'href="#c{i}">July 1{i}th, 2012, 6:34 pm</a></p><p>Great read number {i}, thanks.</p>'
        f'<a class="comment-reply-link" href="#r">Reply</a></li>'
        for i, name in enumerate(("Jason —", "by james on", "Kim —")))
    found = _comments_of(items)
    assert [c.author for c in found] == ["Jason", "james", "Kim"]
    assert [c.text for c in found] == [f"Great read number {i}, thanks." for i in range(3)]
    assert found[0].published_raw == "July 10th, 2012, 6:34 pm"


def test_forum_poster_cell_is_chrome() -> None:
    """A XenForo-like post: the author-named user cell holds the name link, a rank and
    counters; the author is the name, and neither the cell nor the post number is text."""
    posts = "".join(
        f'<article class="message message--post"><div class="message-cell message-cell--user">'
        f'<section class="message-user"><div class="message-userDetails">'
        f'<h4 class="message-name"><a class="username" href="/members/u{i}">user{i}</a></h4>'
        f'<h5 class="userTitle">Forenprofi</h5></div><div class="message-userExtras">'
        f"<dl><dt>Mitglied seit</dt><dd>12. Juni 2017</dd></dl><dl><dt>Beiträge</dt>"
        f'<dd>1.158</dd></dl></div></section></div><div class="message-cell message-cell--main">'
        f'<header class="message-attribution"><ul><li><time datetime="2023-05-0{i + 1}T10:00:00'
        f'+02:00">{i + 1}. Mai 2023</time></li></ul><ul><li><a class="share" href="#">'
        f'</a></li><li><span class="username">#{i + 1}</span></li></ul></header>'
        f'<article class="message-body"><div class="bbWrapper">{"Beitrag " * 12}{i}: '
        f"Hat er Milben in den Ohren? Das wäre meine erste Vermutung.</div></article></div>"
        f"</article>" for i in range(4))
    page = (f"<html><body><h1>Pepe verliert Dreck</h1><div class='block-body'>{posts}</div>"
            f"</body></html>")
    art = extract_article(load_document(page.encode(), fetched_at=NOW))
    assert [c.author for c in art.comments] == ["user1", "user2", "user3"]
    assert art.comments[0].text.startswith("Beitrag Beitrag")
    assert not any(word in c.text for c in art.comments
                   for word in ("Forenprofi", "Mitglied", "#2", "1.158"))


def _sections_page(sections: str) -> str:
    return (f"<html><body><article><h1>Council approves plan</h1>{BODY}</article>{sections}"
            f"</body></html>")


def test_reply_forms_and_notices_are_no_comments() -> None:
    """A reply form outside a <form> element (its fields' labels), "No comments yet",
    "Comments are closed" and a spam filter's notice: none is a comment."""
    form = ('<div id="respond"><h3>Leave a Reply</h3><p><input id="author" type="text">'
            '<label for="author">Name (required)</label></p><p><input id="email" type="text">'
            '<label for="email">Mail (will not be published) (required)</label></p>'
            '<p><textarea id="comment"></textarea></p><p><input type="checkbox" id="notify">'
            '<label for="notify">Notify me of followup comments via e-mail</label></p></div>')
    notices = ('<div class="comments-area"><p>No comments yet</p><p>Comments are closed.</p>'
               '</div><div class="comment-notice">This site uses Akismet to reduce spam. Learn '
               'how your comment data is processed.</div>')
    page = _sections_page(form + notices)
    assert extract_article(load_document(page.encode(), fetched_at=NOW)).comments == []


def test_a_short_signed_comment_alone_in_its_section() -> None:
    """One short comment with its author and time ("支持！") is a comment; a one-word label
    under a byline ("Premium") is not."""
    comment = ('<div class="comment-box"><span class="author">东湖少年</span>'
               '<span class="time">2023-05-09 20:10</span><p>支持！</p></div>')
    teaser = ('<div class="comments-teaser"><span class="author">Judy Murray</span>'
              '<span class="time">2023-05-08 04:32</span><p>Premium</p></div>')
    found = extract_article(load_document(_sections_page(comment).encode(), fetched_at=NOW))
    assert [(c.author, c.text) for c in found.comments] == [("东湖少年", "支持！")]
    found = extract_article(load_document(_sections_page(teaser).encode(), fetched_at=NOW))
    assert found.comments == []


def test_author_blocks_nested_thousands_deep_do_not_overflow_the_stack() -> None:
    """Broken pages nest thousands of levels (huge_tree parses them): the innermost named
    part of an author block is found by a loop, not by recursion."""
    deep = ('<div class="comment-author">' + '<div class="user">' * 1500 + "<a>Ann</a>"
            + "</div>" * 1501)
    doc = load_document(f"<html><body>{deep}</body></html>".encode())
    assert _innermost(doc.body[0]).tag == "div"
