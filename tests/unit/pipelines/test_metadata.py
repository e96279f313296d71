"""Metadata: declared values (JSON-LD, meta) beat the page; the page fills the gaps."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import lxml.html

from pipelines.article.dates.clock import Clock
from pipelines.article.metadata import extract_metadata
from pipelines.article.metadata.byline import clean_name
from pipelines.article.metadata.titles import strip_site_name
from pipelines.language import detect_language

NOW = datetime(2023, 5, 10, 12, 0, tzinfo=UTC)
JSON_LD = """<script type="application/ld+json">{"@context": "https://schema.org",
 "@graph": [{"@type": "WebSite", "name": "Example Site"},
  {"@type": "NewsArticle", "headline": "Declared headline",
   "author": [{"@type": "Person", "name": "Ann Lee"}, {"@type": "Person", "name": "Bo Chen"}],
   "datePublished": "2023-05-01T10:00:00+08:00"}]}</script>"""
PAGE = """<html lang="en"><head><title>Page headline | Example Site</title>{head}</head>
<body><h1>Page headline</h1><p class="byline">By Carl Diaz</p>
<p>Posted 2 May 2023</p><p>Text.</p></body></html>"""


def _meta(html: str, url: str | None = None):
    tree = lxml.html.document_fromstring(html)
    return extract_metadata(tree, tree.find("body"), url, NOW)


def test_json_ld_beats_the_page() -> None:
    meta = _meta(PAGE.format(head=JSON_LD))
    assert meta.author == "Ann Lee; Bo Chen"
    assert meta.published_at.utcoffset() == timedelta(hours=8)
    assert meta.published_at.day == 1


def test_page_fills_in_without_structured_data() -> None:
    meta = _meta(PAGE.format(head=""))
    assert meta.title == "Page headline"
    assert meta.author == "Carl Diaz"
    assert meta.language == "en"


def test_open_graph_and_meta_tags() -> None:
    head = ('<meta property="og:title" content="OG headline - Example Site">'
            '<meta name="author" content="Dee Evans">'
            '<meta property="article:published_time" content="2023-04-30T22:00:00Z">')
    html = PAGE.format(head=head).replace("<h1>Page headline</h1>", "")
    meta = _meta(html)
    assert meta.title == "OG headline"
    assert meta.author == "Dee Evans"
    assert meta.published_at == datetime(2023, 4, 30, 22, 0, tzinfo=UTC)


def test_site_name_suffixes_are_stripped() -> None:
    assert strip_site_name("经济运行总体平稳 - 新浪新闻") == "经济运行总体平稳"
    assert strip_site_name("武汉的声音：有英勇的你！-新华网") == "武汉的声音：有英勇的你！"
    assert strip_site_name("A long headline here | Site") == "A long headline here"


def test_language_from_script_and_stopwords() -> None:
    assert detect_language("今天，本市召开新闻发布会，介绍经济运行情况。" * 3) == "zh"
    assert detect_language("Der Rat hat die Pläne nicht mit der Stadt und den Bürgern") == "de"


def test_sina_suffix_and_logo_h1() -> None:
    html = """<html><head><title>本市经济运行总体平稳 - 新浪新闻</title></head><body>
    <h1 class="logo">新浪新闻</h1><h1>本市经济运行总体平稳</h1><p>正文。</p></body></html>"""
    assert _meta(html).title == "本市经济运行总体平稳"


def test_h1_with_kicker_yields_the_declared_headline() -> None:
    html = """<html><head><meta property="og:title" content="Rat beschließt den Haushalt">
    <title>Rat beschließt den Haushalt - Stadtblatt</title></head>
    <body><h1><span>Finanzen</span> Rat beschließt den Haushalt</h1></body></html>"""
    assert _meta(html).title == "Rat beschließt den Haushalt"


def test_german_byline_von_and_dotted_date() -> None:
    html = """<html lang="de"><head><title>Rat beschließt den Haushalt</title></head><body>
    <div class="nav"><a href="/">Start</a></div><h1>Rat beschließt den Haushalt</h1>
    <div class="info"><span>Von Anna Schmidt</span><span>28.01.2022, 14:30</span></div>
    <p>Der Rat hat am Montag den Haushalt beschlossen.</p></body></html>"""
    meta = _meta(html)
    assert meta.author == "Anna Schmidt"
    assert meta.published_at.date().isoformat() == "2022-01-28"


def test_labelled_author_and_date_then_von_after_date() -> None:
    labelled = """<html><body><h1>Titel</h1><div>Datum: 03.11.2021 Autor: Peter Maahn/SP-X</div>
    </body></html>"""
    assert _meta(labelled).author == "Peter Maahn"
    after = """<html><body><h1>Titel</h1><span>06.11.2023 13:30 von Olga</span></body></html>"""
    assert _meta(after).author == "Olga"


def test_utc_time_is_read_in_the_pages_zone() -> None:
    head = '<meta property="article:published_time" content="2021-11-04T23:00Z">'
    html = PAGE.format(head=head)
    assert _meta(html, "https://www.example.de/a.html").published_at.date().isoformat() \
        == "2021-11-05"
    url = "https://example.com/2023/11/08/story/"
    head = '<meta property="article:published_time" content="2023-11-09T05:30:59Z">'
    assert _meta(PAGE.format(head=head), url).published_at.date().isoformat() == "2023-11-08"


def test_broken_json_ld_still_gives_its_author() -> None:
    head = ('<script type="application/ld+json">{"@type":"NewsArticle","headline":"H",'
            '"author":{"@type":"Person","name":"Ann Lee"},"image":{"url":"<img src="x">"}}'
            '</script>')
    assert _meta(PAGE.format(head=head)).author == "Ann Lee"


def test_h1_equal_to_a_title_part_beats_the_long_site_tail() -> None:
    html = """<html><head><title>Ben Wilson Surf - Point of Sail - Segelmacher, Surf und Kite Shop
    in Kiel</title></head><body><h1>Ben Wilson Surf</h1></body></html>"""
    assert _meta(html, "http://www.pointofsail-kiel.de/a.html").title == "Ben Wilson Surf"


def test_host_named_h1_and_title_part_are_the_site() -> None:
    html = """<html><head><title>seelenradio » Nummer zwei: Leo</title></head>
    <body><h1>seelenradio</h1></body></html>"""
    assert _meta(html, "http://www.seelenradio.de/leo/").title == "Nummer zwei: Leo"


def test_declared_site_name_absent_from_title_keeps_it_whole() -> None:
    head = ('<meta property="og:site_name" content="Pinup-Fashion.de">'
            '<meta property="og:title" content="Korsetts - Shops, Designer, online kaufen">')
    html = f"<html><head>{head}</head><body><p>Text.</p></body></html>"
    title = "Korsetts - Shops, Designer, online kaufen"
    assert _meta(html, "http://pinup-fashion.de/k/").title == title


def test_site_name_is_cut_only_at_a_separator() -> None:
    head = ('<meta property="og:site_name" content="Houzz">'
            '<meta property="og:title" content="Das sind die Projekte auf Houzz">')
    html = f"<html><head>{head}</head><body><p>Text.</p></body></html>"
    assert _meta(html, "https://www.houzz.de/m/1").title == "Das sind die Projekte auf Houzz"


def test_chinese_title_and_byline_with_editor_line() -> None:
    html = """<html><head><title>本市召开经济形势新闻发布会_新华网</title></head><body>
    <div class="logo"><h1>新华网</h1></div><h1>本市召开经济形势新闻发布会</h1>
    <div class="info">来源：新华社 作者：李明 发布时间：2023年5月1日 10:00</div>
    <p>今天，本市召开新闻发布会，介绍经济运行情况。</p><p>责任编辑：王芳</p></body></html>"""
    meta = _meta(html, "http://www.news.cn/a.htm")
    assert meta.title == "本市召开经济形势新闻发布会"
    assert (meta.author, meta.source) == ("李明", "新华社")
    assert meta.published_at.date().isoformat() == "2023-05-01"


def test_publisher_as_declared_author_yields_to_a_byline() -> None:
    head = ('<meta property="og:site_name" content="Die FURCHE">'
            '<meta name="author" content="Die FURCHE">')
    html = PAGE.format(head=head).replace("By Carl Diaz", "Ursula Baatz")
    assert _meta(html, "https://www.furche.at/a-1").author == "Ursula Baatz"
    assert _meta(PAGE.format(head=head).replace("By Carl Diaz", ""),
                 "https://www.furche.at/a-1").author == "Die FURCHE"
    head = '<meta name="author" content="No Author">'
    assert _meta(PAGE.format(head=head)).author == "Carl Diaz"


def test_byline_forms() -> None:
    lines = {"About the Author - Florina Ionescu": "Florina Ionescu",
             "Ein Artikel von Pamela Sladky | 27.01.2022 - 12:45": "Pamela Sladky",
             "ByAlex Bozarjian Thursday, November 9, 2023 4:41AM": "Alex Bozarjian",
             "29. Juni 2017, 23:39 · von Tobi": "Tobi",
             "Author: Gàbor Muniér, Datum: 03.Mär.19": "Gàbor Muniér"}
    for line, name in lines.items():
        html = f"<html><body><h1>Titel</h1><p>{line}</p><p>Text.</p></body></html>"
        assert _meta(html).author == name, line


def test_author_lists() -> None:
    head = ('<script type="application/ld+json">{"@type":"NewsArticle","author":'
            '{"@type":"Person","name":"Ann Lee"}}</script>'
            '<meta name="author" content="Ann Lee,Bo Chen">')
    assert _meta(PAGE.format(head=head)).author == "Ann Lee,Bo Chen"
    names = "Por Isabel Caro, Rocío Latorre y José Wilson"
    html = PAGE.format(head="").replace("By Carl Diaz", names)
    assert _meta(html).author == "Isabel Caro, Rocío Latorre, José Wilson"


def test_webpage_json_ld_date_and_day_first_url_date() -> None:
    head = ('<script type="application/ld+json">{"@graph":[{"@type":"WebPage",'
            '"datePublished":"2018-06-07T10:13:17+00:00"}]}</script>')
    html = PAGE.format(head=head).replace("<p>Posted 2 May 2023</p>", "")
    assert _meta(html).published_at.date().isoformat() == "2018-06-07"
    html = PAGE.format(head="").replace("<p>Posted 2 May 2023</p>", "")
    meta = _meta(html, "https://example.de/meldungen/29-10-2021")
    assert meta.published_at.date().isoformat() == "2021-10-29"


def _day(html: str, url: str | None = None) -> str | None:
    meta = _meta(html, url)
    return meta.published_at.date().isoformat() if meta.published_at else None


def test_header_clock_above_the_headline_yields_to_the_date_line_below() -> None:
    html = """<html><body><div class="navtop"><time datetime="2023-11-01T13:56:20+01:00">
    Mittwoch, 01. November 2023</time></div><h1>Über Dragqueens</h1>
    <p><span class="text_datum">31. Oktober 2023.</span> Dragqueens sind Kunstfiguren.</p>
    </body></html>"""
    assert _day(html) == "2023-10-31"


def test_meta_line_above_the_headline_beats_a_teaser_list_far_below() -> None:
    teasers = "".join(f"<p>Absatz {i} ohne Datum.</p>" for i in range(40))
    html = f"""<html><body><span class="meta">Accueil | Par Loïc Le Clerc | 30 septembre 2018
    </span><h1>Enquêtes</h1>{teasers}<span class="meta">18 février 2020 Par Loïc Le Clerc</span>
    </body></html>"""
    assert _day(html) == "2018-09-30"


def test_empty_date_named_element_gives_its_attribute_date() -> None:
    html = """<html><body><h1>Mozarts Schulnoten</h1>
    <span class="updated" title="2013-04-04T18:52:11+00:00"></span><p>Text.</p></body></html>"""
    assert _day(html) == "2013-04-04"


def test_headline_in_an_h2_when_an_h1_names_a_menu() -> None:
    html = """<html><head><title>Levelpässe können bestellt werden</title></head><body>
    <h2>Levelpässe können bestellt werden</h2><span>01.02.2022</span><p>Text.</p>
    <h1>Quicklinks</h1></body></html>"""
    assert _day(html) == "2022-02-01"


def test_rdfa_date_and_a_date_standing_as_a_title_part() -> None:
    rdfa = """<html><body><h1>LVMH wächst</h1><p>Text.</p><footer>
    <span property="schema:dateCreated" content="2022-01-28T12:45:46+00:00"></span></footer>
    </body></html>"""
    assert _day(rdfa) == "2022-01-28"
    titled = """<html><head><title>08.11.2021 | Online-Fachtag: Regenbogenportal</title></head>
    <body><h1>Online-Fachtag</h1><p>Text.</p></body></html>"""
    assert _day(titled) == "2021-11-08"


def test_a_declared_publish_date_beats_the_date_shown_under_the_headline() -> None:
    head = '<meta property="article:published_time" content="2020-01-03T09:48:24Z">'
    html = PAGE.format(head=head).replace(
        "<p>Posted 2 May 2023</p>", '<span class="date">Updated Monday, 6 January 2020</span>')
    assert _day(html) == "2020-01-03"
    relative = PAGE.format(head=head).replace(
        "<p>Posted 2 May 2023</p>", '<span class="date">2 days ago</span>')
    assert _day(relative) == "2020-01-03"


def test_byline_stops_where_share_links_run_on() -> None:
    html = """<html><body><h1>Goats</h1><div class="sharekit"><div class="contributors">By
    <span>Michael Hingston</span></div><div><a href="/f">facebook</a><a href="/t">twitter</a>
    </div></div><p>Text.</p></body></html>"""
    assert _meta(html).author == "Michael Hingston"
    arrow = """<html><body><h1>Titel</h1><p>Text.</p>
    <div>Zeige alle Beiträge von mywakenews →</div></body></html>"""
    assert _meta(arrow).author == "mywakenews"


def _removed(html: str, xpath: str, url: str | None = None):
    """Metadata with the elements at `xpath` passed as removed blocks."""
    tree = lxml.html.document_fromstring(html)
    return extract_metadata(tree, tree.find("body"), url, NOW, removed=set(tree.xpath(xpath)))


def test_title_is_composed_unicode() -> None:
    html = "<html><head><title>Cafe\u0301 am Markt</title></head><body><p>Text.</p></body></html>"
    assert _meta(html).title == "Café am Markt"


def test_h2_equal_to_the_headline_or_a_title_part() -> None:
    topic = """<html><head><meta property="og:title" content="Mit Hilfe des Chefs sparen">
    <title>Betriebliche Altersvorsorge (bAV) - Wann lohnt sie? - Finanztip</title></head><body>
    <h1>Betriebliche Altersvorsorge</h1><h2>Mit Hilfe des Chefs sparen</h2></body></html>"""
    assert _meta(topic).title == "Mit Hilfe des Chefs sparen"
    forum = """<html><head><title>Kein App Store mehr? | iPhone | Forum | MacNews.de</title>
    </head><body><h2>Kein App Store mehr?</h2><p>Text.</p></body></html>"""
    assert _meta(forum, "https://www.macnews.de/forum/1").title == "Kein App Store mehr?"
    site = """<html><head><title>When the Problem is You | Peter Shankman</title></head>
    <body><h2>PETER SHANKMAN</h2><p>Text.</p></body></html>"""
    assert _meta(site).title == "When the Problem is You"


def test_repeated_h1_is_a_widget_and_shortened_h1_is_the_headline() -> None:
    box = "<div class='box'><h1>Unser Newsletter: jetzt anmelden!</h1></div>"
    html = f"""<html><head><title>Gift Guide | Journal | Jetzt entdecken!</title></head><body>
    <h1>Mein Home Gift Guide bei Westwing</h1><p>Text.</p>{box}{box}</body></html>"""
    assert _meta(html).title == "Mein Home Gift Guide bei Westwing"
    short = """<html><head><title>Blockhaus Typ 3 in Ludorf. Ferienhäuser an der Müritz.</title>
    </head><body><h1>Blockhaus 3</h1><p>Text.</p></body></html>"""
    assert _meta(short).title == "Blockhaus 3"


def test_kicker_that_the_title_names_is_cut_from_the_h1() -> None:
    html = """<html><head><title>Initiative Energie - Stromcheck | Bauen</title></head><body>
    <h1><span class="small">Initiative Energie</span> Kostenloser Stromcheck für alle</h1>
    </body></html>"""
    assert _meta(html).title == "Kostenloser Stromcheck für alle"


def test_author_page_links_name_the_authors() -> None:
    html = """<html><body><h1>Titel</h1><span><a href="/autoren/clara-loew">Clara Löw</a>,
    <a href="/autoren/klaus-jacob">Klaus Jacob</a> &amp; <a href="/autoren/s-p">Sid Prakash</a>
    </span><p><a href="/autoren/x">9 Artikel</a></p><p>Text.</p></body></html>"""
    assert _meta(html).author == "Clara Löw, Klaus Jacob, Sid Prakash"


def test_byline_in_a_removed_article_footer_but_not_in_comments() -> None:
    html = """<html><body><h1>Titel</h1><p>Text.</p><footer class="entry-meta">
    <span class="author vcard"><a href="/u/andrea">Andrea</a></span></footer>
    <div class="comments"><span class="comment-author vcard">Troll</span></div></body></html>"""
    assert _removed(html, "//footer|//div[@class='comments']").author == "Andrea"
    assert _removed(html, "//footer/span|//div[@class='comments']").author == "Andrea"
    assert _removed(html.replace("Andrea", ""), "//footer|//div").author is None


def test_byline_named_heading_and_photo_credit() -> None:
    html = """<html><head><meta name="author" content="Helmholtz Klima">
    <meta property="og:site_name" content="Helmholtz Klima"></head><body>
    <div class="license-info"><span class="author-name">Nenad Foto</span></div>
    <h5 class="field--name-author">Christian Mihatsch</h5><h1>Kein Kipppunkt</h1>
    <p>Text.</p></body></html>"""
    assert _meta(html).author == "Christian Mihatsch"


def test_names_at_the_start_of_longer_byline_lines() -> None:
    rating = "Bewertung: " + "sehr gut " * 10
    dated = f"""<html><body><h1>Titel</h1><div class="author"><a href="/g">Georg Quaas</a>,
    21. Jan. 2015 {rating}</div><p>Text.</p></body></html>"""
    meta = _meta(dated)
    assert (meta.author, meta.published_at.date().isoformat()) == ("Georg Quaas", "2015-01-21")
    tags = ", ".join(str(year) for year in range(1900, 1915))
    labelled = f"""<html><body><h1>Titel</h1><p>Autor: <a href="/k">Klausmartin Friedrich</a>
    Tags: {tags}</p></body></html>"""
    assert _meta(labelled).author == "Klausmartin Friedrich"
    prose = f"""<html><body><h1>Titel</h1><p>Autor: Petra Ruland Mit Liebe schenken kann so
    einfach sein, {tags}</p></body></html>"""
    assert _meta(prose).author is None


def test_more_byline_forms() -> None:
    lines = {"---- by Kenneth Surin": "Kenneth Surin",
             "Posted on September 21, 2020 by Adi Tzlil": "Adi Tzlil",
             "von Redaktion, 24. Januar 2022": "Redaktion",
             "Am 13. November 2019 Von Henry in Aktuell": "Henry",
             "By Clark filed under General Finance": "Clark",
             '<span class="author">DESIGN | 7 Hours Ago By Richard Darell</span>':
                 "Richard Darell",
             "November 12th, 2012 @ 10:26am (PT) by <b>Rebecca Bollwitt</b>": "Rebecca Bollwitt",
             "by Jeff Foust<br><span>Monday, November 18, 2019</span>": "Jeff Foust"}
    for line, name in lines.items():
        html = f"<html><body><h1>Titel</h1><p>{line}</p><p>Text.</p></body></html>"
        assert _meta(html).author == name, line
    for line in ("03.02.2022 Auf den Spuren von Rafael Nadal", "Published by"):
        html = f"<html><body><h1>Titel</h1><p>{line}</p><p>Text.</p></body></html>"
        assert _meta(html).author is None, line


def test_weak_declared_authors() -> None:
    edited = '<meta name="author" content="Revised Edition Edited by Adrian Parr">'
    html = PAGE.format(head=edited)
    assert _meta(html).author == "Carl Diaz"
    agency = ('<meta name="author" content="AFP/The Local">'
              '<meta property="og:site_name" content="The Local">')
    html = PAGE.format(head=agency).replace("By Carl Diaz", "By AFP")
    assert _meta(html, "https://www.thelocal.se/a").author == "AFP/The Local"


def test_datelines_and_dates_just_above_the_headline() -> None:
    prose = "Die künftige Zusammenarbeit mit dem Programm wird ausgebaut, sagte die Ministerin."
    html = f"""<html><body><h1>Schulze im Einsatz gegen Hunger</h1>
    <p>Pressemitteilung vom 25. Januar 2022 | Berlin – {prose}</p></body></html>"""
    assert _day(html) == "2022-01-25"
    late = f"<html><body><h1>Titel</h1><p>{prose} Am 25. Januar 2022 war es so.</p></body></html>"
    assert _day(late) is None
    above = """<html><body><p><em>01.11.2023 11:35</em></p><h1>Effiziente Hybridbatterie</h1>
    <p>Text.</p></body></html>"""
    assert _day(above) == "2023-11-01"


def test_page_wrapping_form_is_read() -> None:
    html = """<html><body><form id="aspnetForm"><h1>Pineapple Cake</h1>
    <div class="recipeDate">Updated June 13, 2019</div><p>Text.</p></form></body></html>"""
    assert _day(html) == "2019-06-13"
    search = """<html><body><form><span class="date">June 13, 2019</span></form><h1>Cake</h1>
    <p>Text.</p></body></html>"""
    assert _day(search) is None


def test_own_microdata_publish_date_beats_a_generic_meta_date() -> None:
    html = """<html><head><meta name="date" content="2022-01-21T15:38:44+01:00"></head><body>
    <h3 itemprop="headline">Mit Hund im Winter</h3>
    <time itemprop="datePublished" datetime="2022-01-27">27.01.2022</time></body></html>"""
    assert _day(html) == "2022-01-27"


def test_slashed_dates_follow_the_page_language_but_not_in_declared_values() -> None:
    shown = """<html lang="es"><body><h1>Titel</h1><p class="date">10/05/2022</p></body></html>"""
    assert _day(shown) == "2022-05-10"
    assert _day(shown.replace('lang="es"', 'lang="en-US"')) == "2022-10-05"
    head = '<meta property="article:published_time" content="11/01/2023 12:43:42">'
    declared = f"<html lang='de'><head>{head}</head><body><h1>T</h1></body></html>"
    assert _day(declared) == "2023-11-01"


def test_microdata_author_in_the_page_beats_a_declared_publisher() -> None:
    html = """<html><head><meta name="author" content="Bayerische Landesanstalt für Wald - LWF">
    </head><body><h1>Der Holländerholzhandel</h1><p>Text.</p><p><strong>Autoren</strong><br>"""
    html += """<span itemprop="author">Joachim  Hamberger</span></p></body></html>"""
    assert _meta(html).author == "Joachim Hamberger"


def test_name_after_a_lone_by_element() -> None:
    for by in ("by", "Published By"):
        html = f"""<html><body><h1>Melas</h1><span> {by} </span>
        <h3><a href="/profile/142450">delta201</a></h3><p>Text.</p></body></html>"""
        assert _meta(html).author == "delta201", by
    for by, after in (("Posted by", "6 years ago"), ("Text:", "Fotos"), ("Di", "Mi")):
        html = f"""<html><body><h1>Titel</h1><span>{by}</span><a href="/x">{after}</a>
        <p>Text.</p></body></html>"""
        assert _meta(html).author is None, by


def test_chinese_labels_are_read_only_where_the_page_has_them() -> None:
    html = """<html><body><h1>标题</h1><div><span>来源：新华社</span></div><p>正文。</p>
    </body></html>"""
    assert _meta(html).source == "新华社"
    assert _meta(html.replace("来源", "出处")).source is None


def test_non_ascii_declared_headline_is_a_part_of_the_title() -> None:
    head = """<title>Ökologie: Grüne Dächer – Öko-Portal</title>
    <meta property="og:title" content="ÖKOLOGIE: GRÜNE DÄCHER">"""
    html = f"<html><head>{head}</head><body><h1>Ökologie: Grüne Dächer</h1></body></html>"
    assert _meta(html).title == "Ökologie: Grüne Dächer"


def test_generic_meta_date_yields_to_a_labelled_date_on_the_page() -> None:
    html = """<html lang="de"><head><meta name="date" content="2021-10-15"></head><body>
    <h1>Neue Präsidentin gewählt</h1><p>Text.</p>
    <div><span class="sub">Erschienen am:</span> <h2>13.10.2021</h2></div></body></html>"""
    assert _meta(html).published_at.date().isoformat() == "2021-10-13"
    without_label = html.replace("Erschienen am:", "Pressestelle")
    assert _meta(without_label).published_at.date().isoformat() == "2021-10-15"


def test_published_label_with_the_date_in_the_same_element() -> None:
    html = """<html lang="en"><head><meta property="og:updated_time" content="2023-05-10">
    </head><body><h1>Council passes budget</h1><p>Text.</p>
    <p>Published on May 3, 2023 by the press office</p></body></html>"""
    assert _meta(html).published_at.date().isoformat() == "2023-05-03"
    posted_in = html.replace("Published on", "Posted in News,")  # no date label
    assert _meta(posted_in).published_at.date().isoformat() == "2023-05-10"


def test_any_date_named_meta_is_a_last_declared_date() -> None:
    html = """<html><head><title>蔡健雅_百度百科</title>
    <meta itemprop="dateUpdate" content="2020-02-14 10:47:36"></head><body>
    <h1>蔡健雅</h1><ul><li>1975年1月28日</li></ul><p>华语流行乐女歌手。</p></body></html>"""
    assert _meta(html).published_at.date().isoformat() == "2020-02-14"


def test_a_date_shown_without_its_year_takes_the_declared_date_that_agrees() -> None:
    """Baidu's pages show "发布时间：10-08 12:00" and declare dateUpdate 2019-10-08 12:00:57:
    the year is the declared one, not a guess from the fetch time (2022-10-08 here)."""
    head = '<meta itemprop="dateUpdate" content="2019-10-08 12:00:57">'
    html = f"""<html lang="zh-CN"><head>{head}</head><body><h1>英国美女转行当美人鱼</h1>
    <div class="author-txt"><p class="author-name">加拿大必读</p>
    <div class="article-source"><span class="date">发布时间：{{shown}}</span></div></div>
    <p>英国汉普郡的一位女士放弃了她在殡仪馆的工作。</p></body></html>"""
    assert _meta(html.format(shown="10-08 12:00")).published_at.isoformat() \
        == "2019-10-08T12:00:57+08:00"
    assert _meta(html.format(shown="12:00")).published_at.year == 2019
    # a declared date that disagrees with the shown day is another moment: the shown one stays
    assert _meta(html.format(shown="10-09 12:00")).published_at.isoformat() \
        == "2022-10-09T12:00:00+08:00"


def test_a_teaser_lists_time_of_day_far_below_is_not_the_articles_date() -> None:
    """A related-articles list far below the headline shows "00:33" (today, of another
    article); the unnamed date line under the headline is the article's."""
    teasers = "".join(f'<li><a href="/n{i}">相关新闻第{i}条</a><span class="p_time">00:33</span>'
                      f'</li>' for i in range(3))
    filler = "".join(f"<p>第{i}段：此前，发烧、咳嗽被认为是新冠病毒感染的最主要症状。</p>"
                     for i in range(40))
    html = f"""<html lang="zh-CN"><body><h1>味觉嗅觉丧失是最强预测指标</h1>
    <div class="news_about"><p>澎湃新闻记者 贺梨萍</p><p>2020-06-06 10:08 来源：澎湃新闻</p></div>
    {filler}<ul class="related">{teasers}</ul></body></html>"""
    assert _meta(html).published_at.isoformat() == "2020-06-06T10:08:00+08:00"


def test_url_month_picks_the_day_written_anywhere_on_the_page() -> None:
    html = """<html lang="de"><body><h1>Literatur und Typografie</h1><p>Text ohne Datum.</p>
    <div class="sidebar">Über diesen Artikel: Literatur und Typografie (Entwurf vom 3. April
    2010) wurde am 19. Mai 2010 um 23:03 Uhr gepostet und unter Lesenswert abgelegt.</div>
    </body></html>"""
    url = "https://example.de/2010/05/literatur-und-typografie/"
    assert _meta(html, url).published_at.date().isoformat() == "2010-05-19"
    assert _meta(html, "https://example.de/literatur/").published_at is None


def test_breadcrumb_title_ends_at_the_page_item() -> None:
    html = """<html><head><title>Spielerverein e.V. - Neuigkeiten » Die Events der letzten
    Zeit</title></head><body><h1>Neuigkeiten</h1><h2>Die Events der letzten Zeit</h2>
    <p>Text.</p></body></html>"""
    assert _meta(html, "https://example.de/news/111").title == "Die Events der letzten Zeit"


def test_h1_child_named_headline_or_kicker() -> None:
    html = """<html><head><title>Strompreisbremse: Regierung drosselt Bioenergie</title></head>
    <body><h1><span class="green">Strompreisbremse</span><span class="headline">Regierung
    drosselt Bioenergie, Branche protestiert</span></h1><p>Text.</p></body></html>"""
    assert _meta(html).title == "Regierung drosselt Bioenergie, Branche protestiert"
    kicker = """<html><head><title>Handwerk Magazin</title></head><body><h1><span
    class="entry-title__toptitle">Investitionen</span> 20 Prozent des Budgets für Sicherheit
    </h1></body></html>"""
    assert _meta(kicker).title == "20 Prozent des Budgets für Sicherheit"


def test_h1_holding_section_and_site_name_is_a_banner() -> None:
    html = """<html><head><title>Enchufla Figuren - Salsa-Figuren - Rueda in Berlin</title>
    </head><body><h1>Salsa-Figuren - Rueda in Berlin</h1><p>Text.</p></body></html>"""
    assert _meta(html, "http://rueda.example.com/enchufla").title == "Enchufla Figuren"


def test_site_name_between_headline_and_slogan() -> None:
    html = """<html><head><title>Haubenfahrzeuge Teil 49 - BOS-Fahrzeuge - Wachen weltweit
    </title></head><body><p>Text.</p></body></html>"""
    assert _meta(html, "https://bos-fahrzeuge.info/news/1").title == "Haubenfahrzeuge Teil 49"


def test_heading_right_after_the_h1_continues_it() -> None:
    html = """<html><head><title>Haubenfahrzeuge - Teil 49 | Fahrzeuge</title></head><body>
    <h1>Haubenfahrzeuge - Teil 49</h1><div><em>2. November 2021</em>
    <h2>Haubenfahrzeuge - Teil 49 – Büssing-NAG (1931 – 1945)</h2></div><p>Text.</p>
    <h2>Haubenfahrzeuge - Teil 50 – Magirus</h2></body></html>"""
    assert _meta(html).title == "Haubenfahrzeuge - Teil 49 – Büssing-NAG (1931 – 1945)"
    unrelated = html.replace("<h2>Haubenfahrzeuge - Teil 49 –", "<h2>Mehr zum Thema –")
    assert _meta(unrelated).title == "Haubenfahrzeuge - Teil 49"


def _with_text(html: str, url: str) -> str | None:
    tree = lxml.html.document_fromstring(html)
    text = "\n".join(" ".join(p.text_content().split()) for p in tree.iter("p", "h4"))
    return extract_metadata(tree, tree.find("body"), url, NOW, text).title


def test_site_only_title_takes_the_heading_in_the_article_opening() -> None:
    html = """<html><head><title>示例市文化协会</title></head><body>
    <div class="nav"><h3>最新动态</h3><a href="/">首页</a></div>
    <div><p>2021-10-16 | 通知<br><h4>关于举办秋季文化节的通知</h4></p>
    <p>本协会将于十月下旬举办秋季文化节，欢迎市民参加各项活动。</p></div></body></html>"""
    assert _with_text(html, "https://www.example.cn/detail.php?id=765") \
        == "关于举办秋季文化节的通知"


def test_unconfirmed_title_yields_to_the_heading_above_the_text() -> None:
    html = """<html><head><title>Schwimmen - Aktuelles | Verband</title></head><body>
    <h1>Quicklinks</h1><h1>Unsere Partner</h1>
    <h2>Levelpässe können ab sofort bestellt werden</h2><div><span>01.02.2022</span></div>
    <p>Seesterne sind nicht nur wunderschön anzuschauen, sie bewegen sich geschickt.</p>
    </body></html>"""
    meta = _meta(html)
    assert meta.title == "Schwimmen - Aktuelles"  # without the article text: the <title>
    assert _with_text(html, "https://www.example.de/a") == (
        "Levelpässe können ab sofort bestellt werden")


BEIJING = ZoneInfo("Asia/Shanghai")
CN_DATED = """<html><head><title>市场改造全面完成</title></head><body>
<h1>市场改造全面完成</h1><div class="info">发布时间：{when}　来源：示例日报</div>
<p>本市的便民菜市场改造工作已经全面完成，市民买菜更加方便了，各项指标总体平稳。</p>
</body></html>"""


def test_a_chinese_page_writes_beijing_time() -> None:
    """A time without a zone on a Chinese page is Beijing time (stored without one,
    PostgreSQL would read it as the session's UTC: eight hours late)."""
    tree = lxml.html.document_fromstring(CN_DATED.format(when="2023-05-01 10:00"))
    text = tree.findtext(".//p")  # the article text tells the language: Chinese
    meta = extract_metadata(tree, tree.find("body"), "https://example.com/a.html", NOW, text)
    assert meta.published_at == datetime(2023, 5, 1, 10, 0, tzinfo=BEIJING)
    assert meta.published_at.utcoffset() == timedelta(hours=8)


def test_relative_days_are_the_pages_days() -> None:
    """Fetched 2023-05-10 20:00 UTC, already 05-11 04:00 in Beijing: 昨天 is the 10th."""
    tree = lxml.html.document_fromstring(CN_DATED.format(when="昨天 10:00"))
    late = datetime(2023, 5, 10, 20, 0, tzinfo=UTC)
    meta = extract_metadata(tree, tree.find("body"), "https://news.example.cn/a.html", late)
    assert meta.published_at == datetime(2023, 5, 10, 10, 0, tzinfo=BEIJING)


def test_a_time_no_domain_or_language_places_stays_without_a_zone() -> None:
    meta = _meta(PAGE.format(head="").replace("2 May 2023", "2 May 2023 10:00"),
                 "https://example.com/a.html")
    assert meta.published_at == datetime(2023, 5, 2, 10, 0)


def test_a_headline_set_in_a_named_div_cuts_the_section_from_the_title() -> None:
    """Older Chinese CMS templates: no <h1>, the headline in <div class="arc-title">, and a
    <title> of headline, section and site joined by bare hyphens."""
    html = """<html><head><title>接待游客同比增长10.8%-本地-江城在线</title></head><body>
    <div class="nav"><a href="/">首页</a><a href="/local/">本地</a></div>
    <div class="arc-title">接待游客同比增长10.8%</div><div class="arc-info">作者：江浩</div>
    <div class="arc-body"><p>数据显示，十月份接待游客人次同比增长百分之十点八，增速加快。</p></div>
    </body></html>"""
    assert _meta(html, "http://127.0.0.1:8000/news/local/1.html").title == "接待游客同比增长10.8%"
    # "tit" is how such templates often name it ("l_tit"), and "_" joins the parts
    html = html.replace("arc-title", "l_tit").replace("-本地-", "_教育频道_")
    assert _meta(html, "http://127.0.0.1:8000/news/local/1.html").title == "接待游客同比增长10.8%"


CN_STOCK = """<html><head><title>午间公告 - 示例网</title>
<meta name="author" content="证券时报网"></head><body><h1>午间公告</h1>
<div class="info">2019-09-26 12:11来源：证券时报网作者：李在山</div>
<p>当升科技：9614.5万元竞得常州市工业用地使用权，用于建设新的生产基地。</p>
<div class="source">（责任编辑：王五）</div></body></html>"""


def test_chinese_fields_run_together_and_an_outlet_declared_as_author() -> None:
    """A value ends where the next label starts, spaces or not; an outlet (…网) declared as
    the author yields to the person the page names."""
    meta = _meta(CN_STOCK, "https://www.example.com/a.html")
    assert (meta.author, meta.source) == ("李在山", "证券时报网")


def test_a_reporters_spaced_byline_names_the_author_before_the_editor() -> None:
    """Print news sets "澎湃新闻记者 贺梨萍", "新华社记者 李四 王五 报道": no colon. The
    editor (责任编辑) stands in only where no reporter is named; prose is no byline."""
    html = """<html lang="zh-CN"><body><h1>味觉嗅觉丧失是最强预测指标</h1>
    <div class="news_about"><p>{byline}</p><p>2020-06-06 10:08 来源：澎湃新闻</p></div>
    <p>据记者了解，此前发烧、咳嗽被认为是新冠病毒感染的最主要症状。</p>
    <div class="news_infor"><div>责任编辑：李跃群</div></div></body></html>"""
    assert _meta(html.format(byline="澎湃新闻记者 贺梨萍")).author == "贺梨萍"
    assert _meta(html.format(byline="新华社记者 李四 王五 报道")).author == "李四、王五"
    assert _meta(html.format(byline="【文/观察者网专栏作者 王文】")).author == "王文"
    assert _meta(html.format(byline="记者通过电子邮件联系了富士康")).author == "李跃群"


def test_a_placeholder_author_yields_to_the_bracketed_editor() -> None:
    html = CN_STOCK.replace("来源：证券时报网作者：李在山", "").replace(
        'content="证券时报网"', 'content="name, email@gmail.com"')
    assert _meta(html, "https://www.example.com/a.html").author == "王五"


def test_a_follow_button_and_a_counter_run_into_a_name_are_cut() -> None:
    html = CN_STOCK.replace("来源：证券时报网作者：李在山", "来源：东森新闻云4人参与2评论").replace(
        '<meta name="author" content="证券时报网">', "").replace(
        "</h1>", '</h1><div class="author"><div class="name">中国广州发布</div><a>关注</a></div>')
    meta = _meta(html, "https://www.example.com/a.html")
    assert (meta.author, meta.source) == ("中国广州发布", "东森新闻云")


def test_a_headline_in_a_named_span_cuts_a_section_after_a_space() -> None:
    html = """<html><head><title>潘卓辉一行到众创金融街开展调研工作 东区办事处_中山网</title></head>
    <body><div class="nav"><a href="/">首页</a></div>
    <span class="Title">潘卓辉一行到众创金融街开展调研工作</span>
    <p>2019年2月27日下午，佛山顺德区大良街道党工委委员一行八人到众创金融街进行实地考察调研。</p>
    </body></html>"""
    title = _meta(html, "http://www.example.com/a.html").title
    assert title == "潘卓辉一行到众创金融街开展调研工作"


def test_clean_name_keeps_names_that_start_like_a_prefix() -> None:
    """"Byron" is no "By" glued to "ron"; "Ann says:" is Ann; initials are a name."""
    clock = Clock(datetime(2023, 5, 10, tzinfo=UTC))
    assert clean_name("Byron York", clock) == "Byron York"
    assert clean_name("ByAlex Bozarjian", clock) == "Alex Bozarjian"
    assert clean_name("Ann Lee says:", clock) == "Ann Lee"
    assert clean_name("Emily said...", clock) == "Emily"
    assert clean_name("S.W.", clock) == "S.W."
    assert clean_name("@ckdozi", clock) is None
    assert clean_name("@ckdozi", clock, handles=True) == "@ckdozi"


def test_publication_metas_of_chinese_portals_beat_a_bare_clock_time() -> None:
    """Tencent's pages declare the day only in apub:time and show just "19:02" under the
    headline; the shown clock time must not become today's date."""
    page = """<html lang="zh-CN"><head><meta name="{name}" content="2019-9-7 21:30:50">
    </head><body><h1>儿歌被改编 原作者女儿回应</h1><div class="info"><span>19:02</span></div>
    <p>正文第一段，讲述了事情的经过。</p></body></html>"""
    for name in ("apub:time", "pubtime", "OriginalPublicationDate"):
        meta = _meta(page.format(name=name))
        assert meta.published_at.date().isoformat() == "2019-09-07", name
        assert meta.published_raw == "2019-9-7 21:30:50"
    assert _meta(page.format(name="apub:other")).published_at.date() == NOW.date()


def test_an_h1_linking_home_is_the_logo_not_the_headline() -> None:
    """The logo <h1> holds a slogan, not the site's name, so only its link tells; a lone
    widget <h1> beside it is no headline either."""
    page = """<html><head><title>明日股市预测--联合国贸发报告：全球经济增长率降至2.3%</title></head>
    <body><h1><a class="navbar-brand" href="{href}"><img alt="logo">今日股市行情_明日大盘 -
    权威股市行情资讯网站</a></h1><div class="art">
    <p>联合国贸发会议发布报告，预计全球经济增长率降至2.3%。</p></div>{widget}</body></html>"""
    for href in ("/", "http://www.example.cn", "/index.html"):
        title = _meta(page.format(href=href, widget=""), "http://www.example.cn/a/1.html").title
        assert title == "联合国贸发报告：全球经济增长率降至2.3%", href
    widget = "<h1>More On This Site!</h1>"
    assert "贸发报告" in _meta(page.format(href="/", widget=widget)).title
    deep = _meta(page.format(href="/news/list.html", widget=""), "http://www.example.cn/a/1.html")
    assert deep.title.startswith("今日股市行情")  # a link elsewhere: the <h1> stays a candidate


def test_the_logo_names_the_site_in_the_title_and_an_empty_link_is_no_logo() -> None:
    page = """<html><head><title>Web Ink Now: Outlaw the phrase at work</title></head><body>
    <h1><a href="{href}">Web Ink Now</a></h1><h2>Outlaw the phrase at work</h2>
    <p>Some text of the post that runs on for a while.</p></body></html>"""
    assert _meta(page.format(href="/")).title == "Outlaw the phrase at work"
    headline = """<html><head><title>Chipset vulnerable to attack | Electronista</title></head>
    <body><h1><a href="">Chipset vulnerable to attack</a></h1><p>Text.</p></body></html>"""
    assert _meta(headline).title == "Chipset vulnerable to attack"


def test_declared_times_that_disagree_are_settled_by_most_of_them() -> None:
    # An SEO plugin's JSON-LD writes the UTC wall-clock time with the local offset; the
    # page's Open Graph and microdata give the true instant, one on the page's own clock.
    head = ('<script type="application/ld+json">{"@type": "Article", "headline": "可视化编程",'
            ' "datePublished": "2014-02-21T16:27:10+08:00"}</script>'
            '<meta property="article:published_time" content="2014-02-21T16:27:10+00:00">'
            '<meta itemprop="datePublished" content="2014-02-22T00:27:10+08:00">')
    html = ("<html lang='zh-CN'><head><title>可视化编程 | 酷壳</title>" + head + "</head><body>"
            "<h1>可视化编程</h1><p>本文来自一篇介绍可视化编程工具的文章，我都转过来了。</p></body></html>")
    meta = _meta(html, "https://blog.example.cn/articles/11094.html")
    assert meta.published_raw == "2014-02-22T00:27:10+08:00"
    assert meta.published_at == datetime(2014, 2, 21, 16, 27, 10, tzinfo=UTC)
    two = html.replace('<meta itemprop="datePublished" content="2014-02-22T00:27:10+08:00">', "")
    assert _meta(two).published_raw == "2014-02-21T16:27:10+08:00"  # no majority: JSON-LD's


def test_two_declared_times_that_disagree_are_settled_by_the_one_the_page_shows() -> None:
    head = ('<script type="application/ld+json">{"@type": "Article", "headline": "可视化编程",'
            ' "datePublished": "2014-08-05T23:47:50+08:00"}</script>'
            '<meta itemprop="datePublished" content="2014-08-06T07:47:50+08:00">')
    html = ("<html lang='zh-CN'><head><title>可视化编程</title>" + head + "</head><body>"
            "<h1>可视化编程</h1><h5 class='entry-date'><time datetime='2014-08-06T07:47:50+08:00'>"
            "2014年08月06日</time></h5><p>本文来自一篇介绍可视化编程工具的文章。</p></body></html>")
    meta = _meta(html, "https://blog.example.cn/articles/11847.html")
    assert meta.published_raw == "2014-08-06T07:47:50+08:00"


def test_an_identifier_in_a_title_is_not_parted_at_its_underscores() -> None:
    html = ("<html><head><title>Question DCL_FORM_GETCONTROLS · Example Forums Archive</title>"
            "</head><body><h1>Question DCL_FORM_GETCONTROLS</h1><p>How do I get them?</p>"
            "</body></html>")
    assert _meta(html, "https://forum.example.org/topics/1009.html").title == (
        "Question DCL_FORM_GETCONTROLS")
    assert strip_site_name("经济运行总体平稳_新浪新闻") == "经济运行总体平稳"
