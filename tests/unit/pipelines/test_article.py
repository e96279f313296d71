"""The whole article route on small hand-written pages."""

import gc
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import lxml.html

from pipelines.article import extract_article
from pipelines.document import load_document

NOW = datetime(2023, 5, 10, 12, 0, tzinfo=UTC)
PARAGRAPHS = "".join(
    f"<p>第{i}段：5月1日，本市召开新闻发布会，介绍了今年以来的经济运行情况，"
    f"各项指标总体平稳，稳中有进。</p>" for i in range(6)
)
NEWS = f"""<html><head><title>本市经济运行总体平稳 - 示例新闻网</title></head><body>
<div class="nav"><a href="/">首页</a><a href="/n">新闻</a><a href="/s">体育</a></div>
<div class="article"><h1>本市经济运行总体平稳</h1>
  <div class="info"><span>来源：示例日报</span> <span>作者：张三</span>
    <span>发布时间：2023年5月1日 10:00</span></div>
  <div class="content">{PARAGRAPHS}</div></div>
<div class="footer">版权所有 © 2023 示例新闻网 京ICP备00000000号</div>
</body></html>"""


def _doc(html: str, url: str = "https://news.example.cn/a/1.html"):
    return load_document(html.encode("utf-8"), url=url, fetched_at=NOW)


def test_chinese_news_page_body_and_byline() -> None:
    art = extract_article(_doc(NEWS))
    assert art.content_text.count("\n\n") >= 5
    assert "第0段" in art.content_text and "第5段" in art.content_text
    for noise in ("首页", "版权所有", "来源："):
        assert noise not in art.content_text
    assert art.title == "本市经济运行总体平稳"
    assert art.author == "张三" and art.source == "示例日报"
    assert art.published_at == datetime(2023, 5, 1, 10, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
    assert art.published_raw == "2023年5月1日 10:00"
    assert art.language == "zh"


def test_content_html_keeps_structure_and_drops_handlers() -> None:
    html = NEWS.replace("<p>第0段", '<p onclick="evil()" style="x">第0段')
    art = extract_article(_doc(html))
    fragment = lxml.html.fragment_fromstring(art.content_html, create_parent="div")
    assert len(fragment.findall(".//p")) == 6
    assert "onclick" not in art.content_html and "style=" not in art.content_html


def test_excluded_template_blocks_are_left_out_and_tree_untouched() -> None:
    doc = _doc(NEWS)
    before = lxml.html.tostring(doc.tree)
    first = doc.tree.find(".//div[@class='content']/p")
    art = extract_article(doc, exclude=[first])
    assert "第0段" not in art.content_text and "第1段" in art.content_text
    assert lxml.html.tostring(doc.tree) == before


def test_link_farm_page_yields_little() -> None:
    links = "".join(f'<li><a href="/p{i}">热门文章标题第{i}条</a></li>' for i in range(150))
    art = extract_article(_doc(f"<html><body><ul>{links}</ul></body></html>"))
    assert len(art.content_text) < 60


def test_a_removed_template_heading_does_not_announce_comments() -> None:
    """Template blocks passed as `exclude` are not comment headings: the article after a
    removed heading that sits alone in its wrapper must stay the body."""
    body = "".join(f"<br>第{i}段：记者今天在现场看到，市民排队购买新鲜蔬菜，价格比上周略有下降。"
                   for i in range(12))
    doc = load_document(f"""<html><body><div class="wrap">
        <div class="hd"><h4>本站主要新闻</h4></div>
        <div class="main"><dl><dt>菜价回落</dt></dl><span>2024-05-01 10:00</span>
        <div class="text">{body}</div></div>
        <div class="side"><ul><li><a href="/b">热门一</a></li></ul></div>
        </div></body></html>""".encode(), url="https://news.example.cn/a/1.html")
    heading = doc.body.find(".//h4")
    article = extract_article(doc, exclude=[heading])
    assert "第11段" in article.content_text and article.comments == []


def test_text_written_between_line_breaks_wins_over_short_paragraphs() -> None:
    """Chinese portals often write the body as text<br>text… inside one div: its text
    chunks are DOM children and count towards the container's DensitySum."""
    body = "".join(f"{'今天召开的会议讨论了城市交通、教育和医疗等问题，代表们积极发言。' * 2}<br>"
                   for _ in range(8))
    side = "".join(f"<p>推荐阅读第{i}条：本周天气晴好，适合出行。</p>" for i in range(8))
    doc = load_document(f"""<html><body><div id="content">{body}</div>
        <div class="side">{side}</div></body></html>""".encode())
    text = extract_article(doc).content_text
    assert "代表们积极发言" in text and "推荐阅读" not in text


def test_an_undated_article_takes_no_date_from_its_comments() -> None:
    paragraphs = "".join(f"<p>第{i}段正文，讲述社区志愿者的故事，内容翔实，感人至深。</p>"
                         for i in range(6))
    comments = "".join(f'<li class="comment"><span class="author">网友{i}</span>'
                       f'<span class="time">2023-0{i + 1}-15 12:00</span>'
                       "<p>写得真好，支持！</p></li>"
                       for i in range(3))
    doc = _doc(f"""<html><body><h1>社区里的志愿者</h1><div class="content">{paragraphs}</div>
        <div id="comments"><h3>网友评论</h3><ul>{comments}</ul></div></body></html>""",
               url="https://news.example.cn/story/volunteers.html")
    article = extract_article(doc)
    assert len(article.comments) == 3 and article.published_at is None


def test_the_garbage_collector_is_left_as_it_was() -> None:
    doc = load_document(b"<html><body><p>Some text, with punctuation.</p></body></html>")
    extract_article(doc)
    assert gc.isenabled()
    gc.disable()
    try:
        extract_article(doc)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_traditional_chinese_big5_page_reads_its_labels_and_afternoon_time() -> None:
    """Taiwan and Hong Kong sites: Big5 without a charset, 記者/來源/發布時間 labels, an
    afternoon time written "下午 3:20", 您現在的位置 breadcrumb; the same fields as simplified
    pages give."""
    paragraphs = "".join(f"<p>第{i}段：5月1日，本市召開新聞發布會，介紹了今年以來的經濟運行"
                         f"情況，各項指標總體平穩，穩中有進。</p>" for i in range(6))
    html = f"""<html><head><title>本市經濟運行總體平穩 - 示例新聞網</title></head><body>
    <div class="article"><h1>本市經濟運行總體平穩</h1>
      <div class="info"><span>來源：中央社</span> <span>記者：王小明</span>
        <span>發布時間：2023/05/01 下午 3:20</span></div>
      <div class="content"><p>您現在的位置：首頁 > 新聞</p>{paragraphs}</div></div></body></html>"""
    art = extract_article(load_document(html.encode("big5"), url="https://news.example.tw/a/1",
                                        fetched_at=NOW))
    assert (art.author, art.source) == ("王小明", "中央社")
    assert (art.published_at.hour, art.published_at.minute) == (15, 20)
    assert "第5段" in art.content_text and "您現在的位置" not in art.content_text


def test_byline_date_and_breadcrumb_lines_inside_the_body_are_left_out() -> None:
    """Read for the metadata, not part of the article; an interview's long "记者：" question
    stays."""
    question = "<p>记者：今年以来本市经济运行总体平稳，各项指标稳中有进，您怎么看下半年？</p>"
    html = NEWS.replace('<div class="content">', '<div class="content"><p>当前位置：首页 > 新闻</p>'
                        "<p>2023-05-01 10:00来源：示例日报作者：张三</p>" + question).replace(
        '<div class="info">', '<div class="info" style="display:none">')
    art = extract_article(_doc(html))
    assert (art.author, art.source) == ("张三", "示例日报")
    for line in ("当前位置", "来源：示例日报"):
        assert line not in art.content_text and line not in art.content_html
    assert "您怎么看下半年" in art.content_text and "第5段" in art.content_text


# A Chinese post whose theme says lang="en" and whose code outweighs its prose: the language
# is the prose's (issue: Chinese blogs stored as English).
_CODE = "\n".join(f"server {{ listen 80; location /admin/{i} {{ allow 10.0.0.{i}; deny all;"
                  f" proxy_pass http://backend_{i}; }} }}" for i in range(40))
CHINESE_POST_WITH_CODE = f"""<html lang="en"><head><title>nginx 访问控制手记 - 某博客</title>
</head><body><article><h1>nginx 访问控制手记</h1>
<p>工作中有一次用到利用nginx的配置来让只有公司ip的访问才能打开指定的后台url，于是有了下面的记录。</p>
<pre><code>{_CODE}</code></pre>
<p>在nginx中if很弱，基本上不能写太复杂的条件或者是嵌套，所以用了<code>allow</code>和<code>deny</code>。</p>
</article></body></html>"""


def test_a_chinese_post_with_code_and_lang_en_is_chinese() -> None:
    art = extract_article(_doc(CHINESE_POST_WITH_CODE, "https://blog.example.com/2010/nginx/"))
    assert "proxy_pass" in art.content_text  # the code stays in the body
    assert art.language == "zh"


def test_an_english_post_on_a_page_declared_chinese_is_english() -> None:
    post = ("<html lang='zh-CN'><head><title>Notes on nginx</title></head><body><article>"
            "<h1>Notes on nginx</h1>" + "<p>This is how the access rules of the server were "
            "written, and why the order of the rules matters to the admin pages.</p>" * 3
            + "</article></body></html>")
    assert extract_article(_doc(post, "https://blog.example.com/2010/nginx/")).language == "en"


def test_the_title_then_the_declaration_tell_a_post_without_prose() -> None:
    video = ("<html lang='{lang}'><head><title>{title}</title></head><body><article>"
             "<h1>{title}</h1><p><embed src='/v.swf'></p></article></body></html>")
    url = "https://blog.example.com/2008/video/"
    chinese = video.format(lang="en", title="一部非常好的视频")
    assert extract_article(_doc(chinese, url)).language == "zh"
    bracketed = video.format(lang="en", title="「SPOJ375」QTREE1-LCT")
    assert extract_article(_doc(bracketed, url)).language == "zh"
    assert extract_article(_doc(video.format(lang="de", title="Video"), url)).language == "de"



def test_a_shell_session_under_a_chinese_headline_is_chinese() -> None:
    """A post that is a command transcript in plain paragraphs has no prose: the stray
    one-letter "words" of its options (`-O`) are no English sentence, the headline tells."""
    session = "".join(f"<p>me@desk:~$ sudo wget http://repo.example.org/apt/{name}.list -O "
                      f"/etc/apt/sources.list.d/{name}.list</p>" for name in ("wine", "gutsy"))
    post = ("<html lang='en'><head><title>Ubuntu 7.10 安装wine记录</title></head><body>"
            "<article><header><h1>Ubuntu 7.10 安装wine记录</h1><p class='meta'><time>"
            "2008-07-29</time></p></header><div class='entry-content'>"
            f"{session}<p>OK</p></div></article></body></html>")
    assert extract_article(_doc(post, "https://blog.example.com/2008/wine/")).language == "zh"

# Bylines: a name never carries a count, and a sentence that opens with "By" is no byline.
_SETTINGS = "".join(f"<p>Paragraph {i} of the post explains how the settings of the tool work"
                    " and why they matter to its users.</p>" for i in range(5))


def _post_author(byline: str) -> str | None:
    html = ("<html><head><title>Settings explained</title></head><body><header><a href='/'>"
            f"Home</a></header><article><h1>Settings explained</h1>{byline}{_SETTINGS}"
            "<p>By default, this option is disabled.</p></article></body></html>")
    return extract_article(_doc(html, "https://news.example.com/2020/03/settings/")).author


def test_a_by_line_names_the_author() -> None:
    assert _post_author("<p class='post-meta'>By Jane Doe</p>") == "Jane Doe"
    assert _post_author("<p><time>Mar 3, 2020</time> • By Jane Doe</p>") == "Jane Doe"


def test_a_name_with_its_post_count_is_the_name() -> None:
    meta = ("<div class='metadata'><span class='meta'><time datetime='2023-06-11T00:00:00Z'>"
            "June 11, 2023</time></span><span class='meta authors'><a href='/authors/jane-doe/'>"
            "Jane Doe (169)</a></span><span class='meta categories'><a href='/categories/news/'>"
            "News (158)</a></span></div>")
    assert _post_author(meta) == "Jane Doe"


def test_a_sentence_opening_with_by_is_no_byline() -> None:
    assert _post_author("") is None


def test_a_thread_names_its_starter() -> None:
    started = ("<p class='meta'>Started by jane_doe · 2009-11-06 11:44 UTC · 1 replies · forum"
               " topic #1002</p>")
    assert _post_author(started) == "jane_doe"


# Dates: Chinese and numeric forms glued to their time, and relative words only as the
# article's own time (an archived page must not be dated the day it was fetched).
_MINSHENG = "".join(f"<p>第{i}段：记者从有关部门获悉，本市今年以来加大投入，各项工作稳步推进，"
                    "群众反映良好。</p>" for i in range(6))


def _dated(top: str, dateline: str, bottom: str = "") -> tuple:
    html = ("<html><head><title>本市加大投入推进民生工程 - 示例新闻网</title></head><body>"
            f"<div class='header'><div class='logo'>示例新闻网</div>{top}</div><div class='main'>"
            f"<h1>本市加大投入推进民生工程</h1>{dateline}<div class='content'>{_MINSHENG}</div>"
            f"{bottom}</div></body></html>")
    art = extract_article(_doc(html, "https://news.example.cn/a/12345.html"))
    return art.published_at, art.published_raw


def test_a_chinese_date_glued_to_its_time_and_a_single_digit_month_are_read() -> None:
    shanghai = ZoneInfo("Asia/Shanghai")
    glued = _dated("", "<div class='info'>2003年11月12日16:36&nbsp;&nbsp;来源：示例日报</div>")
    assert glued == (datetime(2003, 11, 12, 16, 36, tzinfo=shanghai), "2003年11月12日16:36")
    single = _dated("", "<div class='info'>2003-5-29 09:07 来源：示例日报</div>")
    assert single == (datetime(2003, 5, 29, 9, 7, tzinfo=shanghai), "2003-5-29 09:07")


def test_navigation_saying_today_beside_an_old_date_leaves_the_old_date() -> None:
    assert _dated("<span class='date'>今天</span>", "", "<p>2003-5-29 09:07</p>")[1] == (
        "2003-5-29 09:07")
    assert _dated("<p class='date'>今天是星期三</p>", "<p>责任编辑：王五</p>")[0] is None


def test_a_teaser_list_after_the_text_dates_nothing() -> None:
    teasers = "".join(f"<p class='item'><span class='time'>今天 0{i}:30</span></p>"
                      for i in range(3))
    assert _dated("", "<div class='info'>来源：示例日报</div>",
                  f"<div class='hot'><p>相关</p>{teasers}</div>") == (None, None)


def test_a_relative_time_beside_the_headline_is_the_articles_own() -> None:
    found = _dated("", "<div class='info'><span class='time'>3小时前</span> 来源：示例日报</div>")
    assert found == (datetime(2023, 5, 10, 17, 0, tzinfo=ZoneInfo("Asia/Shanghai")), "3小时前")


def test_a_source_named_in_passing_in_a_sentence_is_no_byline() -> None:
    html = ("<html><head><title>提升性能的几个小技巧</title></head><body><article>"
            "<h1>提升性能的几个小技巧</h1><p>默认状态下会打开全部的检查类型(作者：不卡才怪？)，"
            "我们可以根据自己的需要进行调整。</p>"
            + "<p>打开设置，关闭检查项，索引会快很多。</p>" * 4 + "</article></body></html>")
    url = "https://blog.example.cn/2021/05/01/tips/"
    assert extract_article(_doc(html, url)).author is None
    byline = html.replace("</h1>", "</h1><p>作者：张三</p>")
    assert extract_article(_doc(byline, url)).author == "张三"
