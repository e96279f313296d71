"""An article is every part of it (prose, code listings, lists between its paragraphs), and
its parts are never comments: code comments, dated lists and the entries of a list page."""

from datetime import UTC, datetime

from pipelines.article import extract_article
from pipelines.document import load_document

NOW = datetime(2023, 5, 10, 12, 0, tzinfo=UTC)


def _article(body: str, head: str = "<h1>Notes</h1>"):
    page = f"<html><body><div class='nav'><a href='/'>Home</a></div><article>{head}{body}" \
           f"</article><footer>© 2023 Example</footer></body></html>"
    return extract_article(load_document(page.encode(), url="https://blog.example.org/p/1",
                                         fetched_at=NOW))


def _listing(lines: list[str], comment: str = "//") -> str:
    """A highlighted listing as highlighters write it: a span per line and per token."""
    return "<br>".join(
        f'<span class="line"><span class="keyword">int</span> <span class="title">x{i}</span>'
        f' = <span class="number">{i}</span>; <span class="comment">{comment} {line}</span>'
        f"</span>" for i, line in enumerate(lines))


CODE_LINES = [f"step {i}: keep the counter in range" for i in range(40)]
PROSE_EN = ("<p>Counters overflow when nobody checks them, and the fix is short; here is the "
            "loop that caused the crash, line by line.</p>")
AFTER_EN = ("<p>After the change, the loop stops at the limit, the tests pass, and the "
            "service has run for a week without a restart.</p>")


def test_a_code_block_between_paragraphs_is_part_of_the_body_not_the_body() -> None:
    art = _article(f"{PROSE_EN}<pre><code>{_listing(CODE_LINES)}</code></pre>{AFTER_EN}")
    assert "Counters overflow" in art.content_text and "without a restart" in art.content_text
    assert "step 39: keep the counter in range" in art.content_text
    assert "<pre>" in art.content_html
    assert art.comments == []  # the `// …` spans are named "comment" by the highlighter


def test_a_chinese_post_with_a_numbered_listing_keeps_its_prose_without_line_numbers() -> None:
    """Hexo and Octopress put code in a table: a gutter <pre> of line numbers, then the code."""
    numbers = "<br>".join(f'<span class="line">{n}</span>' for n in range(1, 41))
    table = (f'<figure class="highlight java"><table><tr><td class="gutter"><pre>{numbers}</pre>'
             f'</td><td class="code"><pre>{_listing(CODE_LINES, "/**")}</pre></td></tr></table>'
             f"</figure>")
    before = "<p>计数器没有人检查就会溢出，修复很简单；下面是导致崩溃的循环，逐行说明。</p>"
    after = "<p>修改之后，循环在上限处停止，测试全部通过，服务已经连续运行一周没有重启。</p>"
    art = _article(f"{before}{table}{after}", "<h1>一次计数器溢出的排查</h1>")
    assert "计数器没有人检查" in art.content_text and "没有重启" in art.content_text
    assert "step 39: keep the counter in range" in art.content_text
    assert "\n\n17\n\n" not in art.content_text and "\n\n40\n\n" not in art.content_text
    assert art.comments == []


def test_code_comments_of_a_line_per_item_highlighter_are_no_comments() -> None:
    """SyntaxHighlighter writes a listing as an <ol> of lines, without <pre>: its `//` and
    `/** … */` spans are still code."""
    lines = "".join(f'<li class="{"alt" if i % 2 else ""}"><span><span class="comment">'
                    f"{'// ' if i % 3 else '/** '}{line}</span></span></li>"
                    for i, line in enumerate(CODE_LINES[:12]))
    art = _article(f'{PROSE_EN}<div class="code"><ol class="dp-j">{lines}</ol></div>{AFTER_EN}')
    assert art.comments == []
    assert "step 11: keep the counter in range" in art.content_text


def test_a_changelog_and_dated_list_items_inside_a_post_are_no_comments() -> None:
    changes = "".join(f"<li><b>2023-0{i + 1}-0{i + 2}</b> fixed the parser crash on empty "
                      f"input number {i}</li>" for i in range(4))
    usage = "".join(f"<li>服务器{i}采用 ZFS 文件系统，在 2023 年 {i + 1} 月 18 日达到了 63.3 TiB"
                    f"（使用率 9{i}%）；</li>" for i in range(3))
    art = _article(f"{PROSE_EN}<h2>Changelog</h2><ul>{changes}</ul>{AFTER_EN}"
                   f"<p>容量记录如下，两台服务器的空间都已接近用尽。</p><ul>{usage}</ul>"
                   f"<p>因此我们决定重建存储池，并在下文记录整个过程与遇到的问题。</p>")
    assert art.comments == []
    assert "fixed the parser crash on empty input number 3" in art.content_text
    assert "服务器2采用 ZFS" in art.content_text


def test_a_list_page_of_dated_excerpts_yields_no_comments() -> None:
    """A blog's home or tag page read as an article: its entries (a linked headline, a date,
    an excerpt) are dated repeated blocks, as a thread's posts and comments are."""
    entries = "".join(
        f'<article class="post"><h2 class="post-title"><a href="/2023/0{i + 1}/post-{i}/">Post '
        f'number {i} about counters</a></h2><time datetime="2023-0{i + 1}-01">2023-0{i + 1}-01'
        f"</time><p>An excerpt of post {i}: counters overflow when nobody checks them, and the "
        f"fix is short.</p><a href='/2023/0{i + 1}/post-{i}/'>Read more</a></article>"
        for i in range(6))
    page = f"<html><body><h1>Example blog</h1><main>{entries}</main></body></html>"
    art = extract_article(load_document(page.encode(), url="https://blog.example.org/",
                                        fetched_at=NOW))
    assert art.comments == []


def test_pingbacks_are_no_reader_comments() -> None:
    items = "".join(f'<li class="pingback {"odd" if i % 2 else "even"}"><p>Pingback: '
                    f'<a href="https://other{i}.example.com/x">Another blog links here {i}</a>'
                    f"</p></li>" for i in range(3))
    art = _article(f"{PROSE_EN}{AFTER_EN}<div class='post-comments'><h3>Replies</h3>"
                   f"<ol class='comment-list'>{items}</ol></div>")
    assert art.comments == []


def test_a_heading_whose_id_is_its_own_text_names_no_comment_section() -> None:
    """Markdown and notebook renderers give every heading an id made of its text: a
    "Discussion" section of the post is no comment section."""
    cells = "".join(f"<div class='cell'><p>Point {i}: the estimate moves with the prior, and "
                    f"the data decide how far, as the figure shows.</p></div>" for i in range(4))
    art = _article(f"{PROSE_EN}<div class='cell'><h3 id='Discussion'>Discussion"
                   f"<a href='#Discussion'>¶</a></h3></div>{cells}")
    assert art.comments == []
    assert "Point 3" in art.content_text


def test_rows_of_a_schedule_are_no_forum_posts() -> None:
    rows = "".join(f"<tr><td>2025-11-0{i + 1}</td><td>19:00-22:00</td><td>Room 30{i}</td>"
                   f"<td>Meetup number {i}</td></tr>" for i in range(8))
    art = _article(f"<table>{rows}</table>", "<h1>Events</h1>")
    assert art.comments == []


def test_a_short_post_followed_by_you_may_also_enjoy_cards_keeps_its_own_text() -> None:
    """The cards are <article>s in a block named "related", inside the post's own <article>:
    furniture, though they are articles, and longer than the post."""
    cards = "".join(
        f'<div class="grid__item"><article class="archive__item"><h2><a href="/p/{i}">Another '
        f"post number {i}</a></h2><p>2025 年 2 月 {i + 1} 日 5 分钟阅读</p><p>本文介绍了第{i}次"
        f"活动中容器隔离的实践，以及我们在部署过程中遇到的各种问题和解决方法。</p></article>"
        f"</div>" for i in range(4))
    page = (f"<html><body><div class='page'><article class='page'><header><h1>活动室搬迁</h1>"
            f"</header><section class='page__content'><p>2024 年 4 月中旬，活动室正式搬迁至图书馆"
            f" 403 研讨室。</p><p>注意：电梯无法直达，需要先乘坐到三楼，再步行至四楼。</p>"
            f"</section>"
            f"<div class='page__related'><h2>You may also enjoy</h2><div class='grid__wrapper'>"
            f"{cards}</div></div></article></div></body></html>")
    art = extract_article(load_document(page.encode(), url="https://lug.example.org/n/1",
                                        fetched_at=NOW))
    assert "搬迁至图书馆" in art.content_text and "步行至四楼" in art.content_text
    assert "容器隔离" not in art.content_text and art.comments == []


def test_a_reprint_notice_under_a_post_is_no_part_of_it() -> None:
    art = _article("<p>需求：<br>1号机服务移到2号机，然后要把1号机搬走。</p><p>原理：<br>交换机有"
                   "ip对应mac地址的缓存，只需复制ip和mac，即可瞬间切换到另一台机器上。</p><p>操作："
                   "<br>1）在2号机准备好服务<br>2）在1号机执行 ifconfig eth0 down<br>3）在2号机"
                   "执行 ifconfig eth0:0 up<br>4）恭喜成功了！</p><p>原创文章如转载，请注明：转载自"
                   "<a href='/'>示例科学院</a></p>", "<h1>巧用交换机，瞬间切流量</h1>")
    assert "1号机服务移到2号机" in art.content_text and "恭喜成功了" in art.content_text
    assert "转载" not in art.content_text


def test_a_feed_read_as_a_page_yields_no_comments() -> None:
    items = "".join(f"<item><title>Post {i}</title><link>https://blog.example.org/p/{i}</link>"
                    f"<pubDate>Mon, 0{i + 1} May 2023 10:00:00 +0000</pubDate><description>"
                    f"An excerpt of post {i}: counters overflow when nobody checks them, and the"
                    f" fix is short.</description></item>" for i in range(6))
    feed = (f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Example'
            f"</title>{items}</channel></rss>")
    art = extract_article(load_document(feed.encode(), url="https://blog.example.org/index.xml",
                                        fetched_at=NOW))
    assert art.comments == []


def _octopress_post(title: str, content: str) -> str:
    """A post as Octopress and most blog themes write it: a <header> with the headline and a
    dated meta line, then the entry's text, a footer with byline and neighbours."""
    return (f"<html><body><header class='banner'><a href='/'>首页</a></header><div id='main'>"
            f"<article class='hentry'><header><h1 class='entry-title'>{title}</h1><p class='meta'>"
            f"<time datetime='2008-11-23T00:00:00+08:00'>2008-11-23 00:00:00 +0800</time></p>"
            f"</header><div class='entry-content'>{content}</div><footer><p class='meta'>Posted "
            f"by <span class='fn'>54chen</span></p><a href='/p/0'>« 上一篇</a></footer>"
            f"</article></div></body></html>")


def test_a_short_post_is_its_text_not_its_headline_and_date() -> None:
    """Two lines and an embedded video: the header above (headline and date line) is
    denser than they are, and was the body; it is the metadata's, never the body."""
    video = ("<p><object width='400' height='300'><param name='src' value='v.swf'><embed "
             "type='application/x-shockwave-flash' src='v.swf'></object></p>")
    page = _octopress_post("一部非常好的视频",
                           "<p>这是一部很好的视频，是一部有深刻教育意义的影片</p>"
                           f"<p>一共七集</p>{video}<p><br>原创文章如转载，请注明：转载自<a "
                           "href='/'>示例科学院</a></p>")
    art = extract_article(load_document(page.encode(), url="https://blog.example.org/p/1",
                                        fetched_at=NOW))
    assert art.content_text == "这是一部很好的视频，是一部有深刻教育意义的影片\n\n一共七集"
    assert art.title == "一部非常好的视频" and art.published_at.isoformat().startswith("2008-11-23")


def test_a_long_post_s_body_does_not_start_with_its_headline() -> None:
    page = _octopress_post("Notes on counters", PROSE_EN + AFTER_EN)
    art = extract_article(load_document(page.encode(), url="https://blog.example.org/p/2",
                                        fetched_at=NOW))
    assert art.content_text.startswith("Counters overflow")
    assert art.title == "Notes on counters"


def test_a_header_with_a_standfirst_is_left_to_density() -> None:
    """A <header> holding more than a date line beside its headline (a lede, or a whole
    article a theme wrapped in it) is not taken for the headline's block."""
    from pipelines.article.body.headline_header import headline_headers
    from pipelines.article.markup import read_markup

    lede = "<p>" + "A standfirst that tells the story in brief, as news pages write it. " * 3
    page = (f"<html><body><article><header><h1>Headline</h1>{lede}</p></header>{PROSE_EN}"
            f"</article></body></html>")
    doc = load_document(page.encode(), url="https://news.example.org/a/1", fetched_at=NOW)
    assert headline_headers(read_markup(doc.body)) == set()


def _link(text: str) -> str:
    return f"<a href='https://fpa.example.org/{len(text)}' class='external-link'>{text}</a>"


def test_paragraphs_beside_the_post_s_paragraphs_stay_though_short_or_full_of_links() -> None:
    """A paragraph that names its sources in links, or a short one, falls below the density
    its sibling paragraphs pass (a long paragraph with links sums more than their block):
    it is the post's all the same. A paragraph of links beside them (related posts) is
    not."""
    first = ("<p>The Association was founded on the ideals of transparency and accountability:"
             " to that end, we have been working hard on making our website a useful source of "
             "information about the organization, its goals, and its initiatives.</p>")
    second = (f"<p>This past week we launched a {_link('revamped version of our website')} "
              f"that includes the charter, budget, and {_link('our new Handbook')}. It is based "
              f"on {_link('the Handbook First scheme')}, in which anytime someone has a question"
              " about the organization it should be answerable by a reference to a part of the "
              "handbook. When we meet questions that the handbook does not answer, a new entry "
              "is added to it, so it always gives the most up-to-date information.</p>")
    short = f"<p>The rest of the {_link('program rules')} still apply.</p>"
    linked = (f"<p>You will also find a {_link('list of our initiatives')} (right now, the "
              f"{_link('Development Fund')} and the {_link('Travel Grants program')}), "
              f"{_link('contact information')}, {_link('how to donate')}, and more.</p>")
    related = (f"<p>Related: {_link('Counters in practice')}, {_link('Overflow stories')}, "
               f"{_link('Why loops end')}</p>")
    page = (f"<html><body><div class='nav'><a href='/'>Home</a></div><main><section "
            f"class='hero'><h1>Our new website</h1><div class='meta'>March 1</div></section>"
            f"<div class='content'>{first}{short}{second}{linked}{related}</div></main>"
            f"<footer>© 2023 Example</footer></body></html>")
    art = extract_article(load_document(page.encode(), url="https://fpa.example.org/news/1",
                                        fetched_at=NOW))
    paragraphs = art.content_text.split("\n\n")
    assert len(paragraphs) == 4 and paragraphs[0].startswith("The Association was founded")
    assert paragraphs[1] == "The rest of the program rules still apply."
    assert paragraphs[2].startswith("This past week") and paragraphs[3].startswith("You will")
    assert paragraphs[3].endswith("(right now, the Development Fund and the Travel Grants "
                                  "program), contact information, how to donate, and more.")


def test_a_video_s_fallback_text_is_no_body_text() -> None:
    """A browser shows what a <video> or <audio> holds only where it cannot play it."""
    video = ("<video controls><source src='/demo.webm' type='video/webm'>Your browser does not "
             "support the video tag.</video>")
    art = _article(f"{PROSE_EN}<p>{video}</p>{AFTER_EN}<audio src='/a.ogg'>No audio.</audio>")
    assert "Counters overflow" in art.content_text and "without a restart" in art.content_text
    assert "support the video tag" not in art.content_text + art.content_html
    assert "No audio" not in art.content_text


def test_a_post_that_is_a_list_of_links_keeps_its_links_but_not_its_notice() -> None:
    """A link digest: every line a link, then the site's reprint notice. The link blocks and
    the notice were all density found, and the body was empty."""
    items = "".join(f"<li><a href='https://ext{i}.example.com/arch.html' rel='nofollow'>网站架构"
                    f"笔记第{i}篇</a></li>" for i in range(12))
    page = _octopress_post("著名网站架构设计", f"<p></p>{items}<p>原创文章如转载，请注明：转载自"
                           "<a href='/'>示例科学院</a>[http://www.example.com]</p>")
    art = extract_article(load_document(page.encode(), url="https://blog.example.org/p/3",
                                        fetched_at=NOW))
    assert art.content_text.split("\n\n") == [f"网站架构笔记第{i}篇" for i in range(12)]


def test_a_notice_to_readers_of_old_browsers_is_no_part_of_the_post() -> None:
    """A theme's banner above every page: on a short post, density's region reached it."""
    banner = ("<div class='unsupported-browser'><h3>Hi there! Internet Explorer is no longer "
              "supported.</h3><p>Please use a modern web browser such as Firefox, Chromium or "
              "Edge. Thank you!</p></div>")
    page = (f"<html><body>{banner}<header class='site'><a href='/'>Home</a></header><main>"
            f"<section class='hero'><h1>Notes</h1><div class='meta'>March 1</div></section>"
            f"<div class='content'>{PROSE_EN}</div></main></body></html>")
    art = extract_article(load_document(page.encode(), url="https://blog.example.org/p/4",
                                        fetched_at=NOW))
    assert "Counters overflow" in art.content_text and "browser" not in art.content_text
