"""The words the extraction reads, by concept, in one place (simplified and traditional
Chinese forms and the Western languages side by side): what a byline, a date label, a
comment heading, a pager or a page-type cue is written as."""

from __future__ import annotations

import re

from pipelines.hanzi import both, either
from pipelines.page_text import by_first_letter

# --- article route (bylines, sources, date labels, comments, boilerplate, titles) ---

# Page furniture (article.boilerplate)

# Words that name an article container: a furniture name holding one wraps the body.
ARTICLE_CONTAINER_WORDS = ("article", "body", "content", "main", "entry", "story", "text", "post",
                           "detail", "zhengwen")
# A post's reprint or copyright notice ("原创文章如转载，请注明：转载自…", "版权声明：…",
# "All rights reserved"): the site's line under every post, no part of its text.
REPRINT_NOTICE = re.compile(
    r"(?:转载|轉載).{0,16}(?:注明|註明|出处|出處|链接|鏈接)|(?:注明|註明).{0,6}(?:转载|轉載|出处|出處)|"
    r"未经.{0,10}(?:允许|许可|授权|同意).{0,6}转载|(?:版权|版權)(?:声明|聲明|所有)|"
    r"all rights reserved", re.I)
# A theme's notice to readers of an old browser ("Internet Explorer is no longer supported.
# Please use a modern web browser", "请升级您的浏览器"), shown above every page's text.
BROWSER_NOTICE = re.compile(
    r"(?:please|kindly)\s+(?:use|upgrade|update|switch to|download|install)\b.{0,30}\bbrowser|"
    r"upgrade your browser|(?:your browser|internet explorer) is (?:out of date|outdated|"
    r"no longer supported|not supported|unsupported)|请(?:使用|升级|更新|更换|下载).{0,12}浏览器|"
    r"(?:您|你)的浏览器(?:版本)?(?:过低|太旧|过旧|不受支持)", re.I)
# Class/id words of page furniture (matched as whole tokens, split on - _ and case changes).
FURNITURE_WORDS = (
    "nav", "navbar", "navigation", "menu", "submenu", "breadcrumbs?", "crumbs?", "sidebar",
    "rail", "footer", "masthead", "share", "sharing", "social", "sns", "follow", "related",
    "recommend(?:ed|ations?)?", "popular", "trending", "promo", "promotion", "advert",
    "advertisement", "ads?", r"ad\w*slot", "sponsor(?:ed)?", "banner", "newsletter",
    "subscribe", "subscription", "signup", "login", "cookies?", "consent", "gdpr", "tagcloud",
    "pagination", "pager", "paging", "toolbar", "outbrain", "taboola", "modal", "popup",
    "overlay", "caption", "credits?", "copyright", "tuijian", "xiangguan", "fenxiang",
    "pinglun", "guanggao", "daohang",
)
# Matched against " " + lowercased words (re.I makes it three times slower): a pattern that
# starts with a separator lets the regex engine skip to the separators instead of trying
# every word at every position; the words grouped by first letter make this busiest regex of
# the page cheaper than a plain (?:^|[\s_\-])(?:nav|navbar|…).
FURNITURE_NAME = re.compile(rf"[\s_\-](?:{by_first_letter(FURNITURE_WORDS)})(?=$|[\s_\-\d])")
FURNITURE_ROLES = ("navigation", "complementary", "contentinfo", "banner")

# Class words of the blocks near the headline (article.blocks)

BYLINE_CLASS_WORDS = ("author", "byl", "writer", "reporter", "zuozhe", "作者")  # "byl": byline, byl
BYLINE_CLASS = re.compile("|".join(BYLINE_CLASS_WORDS), re.I)
BYLINE_CLASS_LOWER = re.compile("|".join(BYLINE_CLASS_WORDS))
DATE_CLASS = re.compile(r"date|datum|fecha|time|publish|posted|pubtime|meta|info|source|riqi|"
                        r"created|updated|submitted|author|byline", re.I)
COMMENT_CLASS = re.compile(r"comment|kommentar|reply|replies|respond|discuss|disqus", re.I)

# Headlines (article.metadata.titles)

# Parts of an <h1> named by their class: the headline's own element ("articleheadline"), a
# kicker or subtitle beside it ("entry-title__toptitle", "articleoverline", "dachzeile").
# Chinese CMS templates shorten title to a word "tit" ("l_tit", "art-tit").
HEADLINE_CLASS = re.compile(r"headline|title|(?:^|[\s_-])tit(?:$|[\s_-])", re.I)
KICKER_CLASS = re.compile(r"kicker|overline|over-?title|top-?title|top-?line|dachzeile|"
                          r"roofline|eyebrow|super-?title|pre-?title|sub-?title|sub-?headline|"
                          r"spitzmarke", re.I)

# Declared metadata: JSON-LD types and <meta> names (article.metadata.structured)

ARTICLE_LD_TYPES = ("article", "posting", "report", "review", "blog", "creativework", "qapage",
                  "discussionforum")
META_TITLE = ("og:title", "twitter:title", "dc.title", "headline")
META_AUTHOR = ("author", "article:author", "og:article:author", "byl", "dc.creator",
                "sailthru.author", "parsely-author", "citation_author")
META_DATE = ("article:published_time", "og:published_time", "og:article:published_time",
              "datepublished", "pubdate", "publishdate", "publish-date", "publish_date",
              "sailthru.date", "parsely-pub-date", "dc.date.issued", "article.published",
              "published_time", "release_date", "citation_date",
              # names Chinese portals and their publishing systems use (GNE's list of
              # publication metas): Tencent's apub:time, pubtime, og:time …
              "article:publish_time", "og:pubdate", "og:release_date", "og:time", "apub:time",
              "pubtime", "_pubtime", "originalpublicationdate", "article_date_original",
              "publication_date", "date_published", "published_at", "published-date",
              "rnews:datepublished", "bt:pubdate", "weibo: article:create_at",
              "shareaholic:article_published_time", "cxenseparse:recs:publishtime")
# Dates that do not say they are the publication's (a page's "date" is often its build
# time): the page's own itemprop=datePublished, and a date the page marks, beat them.
META_OTHER_DATE = ("dc.date", "date", "article:modified_time", "og:updated_time", "lastmod")
# Any other <meta> named as a date ("dateUpdate", "last-modified", "dcterms.date"): weaker
# still, and not the many that only contain "date" in passing ("validate", "update-rate").
META_DATE_KEY = re.compile(r"(?:^|[^a-z])(?:date|modified|updated)(?:[^a-z]|$)|^date|date$")

# Bylines (article.metadata.byline)

# Words that lead into "by": "Posted by", "Erstellt von".
BY_LEADS = (r"written|posted|published|erstellt|geschrieben|verfasst|veröffentlicht|publié|"
             r"publicado|escrito|started|submitted")
# "By", "Von", "Erstellt von", "View all posts by", optionally a role ("FOCUS-Online-Experte").
BY_PREFIX = re.compile(
    r"^\s*(?:about the author|über (?:den autor|die autorin))\s*[-–:]?\s*|"
    r"^\s*(?-i:(?:By|Von)(?=[A-ZÄÖÜ][a-zäöüß]))|"  # "ByAlex Bozarjian": no space (not "Byron")
    rf"^\s*[-–—]*\s*(?:(?:{BY_LEADS}|ein artikel|(?:zeige |show |view )?(?:alle |all )?"
    r"(?:beiträge|posts|articles|artikel))\s+)?(?:by|von|par|por|di|door|av|af|"
    r"autor(?:in|en)?|authors?|text|texto)\s*[:：]?(?:\s+|$)(?:(?:\S*(?:redakteur|redaktor|"
    r"experte|expertin|reporter|korrespondent|correspondent)\w*)\s+)?", re.I)
# A Western labelled byline anywhere in a short line: "Datum: 03.11.2021 Autor: Peter Maahn".
LABELLED_AUTHOR = re.compile(r"(?:^|\s)(?:autor(?:in)?|author|von|by|text|par|por)\s*[:：]\s*(.+)$",
                             re.I)
# "06.11.2023 13:30 von Olga": a name after a date.
BY_AFTER_DATE = re.compile(r"\s(?:by|von|par|por|di)\s+(\S.*)$", re.I)
# Words that bylines show without a name, or that end a name ("Stand: …", "Updated …").
NOT_NAMES = frozenset({"posted", "by", "von", "veröffentlicht", "published", "no author",
                        "admin", "anonymous", "author", "autor", "name"})
# What a comment header sets after a name ("Ann says:"), cut from names here and read as a
# header word by the comment reader.
SAID_WORDS = ("says", "said", "wrote", "schreibt", "sagt")
WEEKDAY = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:montag|dienstag|mittwoch|donnerstag|"
    r"freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|"
    r"miércoles|jueves|viernes|sábado|domingo)\b,?", re.I)
# A weekday run into the name where a <br> parted them ("by Jeff Foust<br>Monday, …").
GLUED_WEEKDAY = re.compile(r"(?<=[a-zäöüß])(?=(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b|"
                            r"(?:Mon|Diens|Donners|Frei|Sams|Sonn)tag\b|Mittwoch\b)")
# … or a next label ("Text: A Fotos: B", "Author: A, Datum: …").
# A count after a name, the author's posts on an author link: "Jo Hinchliffe (77)".
NAME_COUNT = re.compile(r"\s*[(\[（]\s*\d[\d,.]*\s*[)\]）]$")
NAME_END = re.compile(
    r"\s+(?:stand|updated|aktualisiert|mis à jour|actualizado|published|posted|veröffentlicht|"
    r"erschienen)\b.*$|\s+(?:am|on|le|el|il|um|at)$|"
    r"\s+(?:(?:posted|filed)\s+)?(?:in|to|under)\s+\S.*$|"  # "Henry in Aktuell": a category
    r"\s*[|,\-–—·:→»›]+\s*$|\s*/.*$|\s+\d.*$|[,|]?\s+[^\W\d_]+\s*:.*$|\s+" + WEEKDAY.pattern + "$|"
    r"\s+(?:\d+\s+|ein\s+|one\s+|no\s+|keine\s+)?(?:kommentare?|comments?)\b.*$|"
    # a follow button beside an account
    r"\s*\+?(?:" + either("已?关注|订阅") + r")$|\s+\+?follow$|"
    rf"\s+(?:{'|'.join(SAID_WORDS)})\.*$|"  # a comment header: "Ann says:"
    + NAME_COUNT.pattern, re.I)
# A link to an author's page names the author ("/author/jane-doe/", "/autoren/Clara-Loew").
AUTHOR_HREF = re.compile(r"/(?:authors?|autor(?:en|in|innen)?)/[^/?#]", re.I)
# What may stand between the names of a list of author links.
AUTHOR_LINK_SEPARATORS = re.compile(r"[\s,;&/|·]*(?:(?:und|and|y|et|by|von|par|por)\b[\s,;&/|·]*)*",
                                    re.I)
# Words that lead into a date: "Posted on …", "veröffentlicht am …".
DATE_LEAD_WORDS = frozenset({"posted", "published", "veröffentlicht", "erschienen", "erstellt",
                              "publié", "publicado", "updated", "aktualisiert"})
# What may stand around a date besides the date itself: "Posted on …, 13:30 Uhr" (no name).
ONLY_DATE = re.compile(r"[\W\d_]*(?:(?:" + "|".join(sorted(DATE_LEAD_WORDS))
                        + r"|uhr|um|am|at|on|le|el)\b[\W\d_]*)*", re.I)
# What may stand beside a relative time that is the page's own ("发布于 3小时前", "Posted
# today"): a date's lead-in, nothing of a sentence (article.dates.publish).
ONLY_RELATIVE_DATE = re.compile(
    ONLY_DATE.pattern + r"|[\W_]*(?:" + either("发布|发表|更新|编辑|时间") + r")*[于：:]?[\W_]*",
    re.I)
# A "by" standing alone, its name in the next element.
LONE_BY = re.compile(rf"(?:(?:{BY_LEADS})\s+)?(?:by|von|par|por)\s*[:：]?", re.I)
# A word that one of those byline patterns needs, as they need it: after the start (the " "
# put before the line), a space or a dash, and, but for a name run on ("ByAlex"), before a
# space, a colon or the end. Starting with the separator lets the search skip to them.
# The words grouped by first letter: the engine then tries one branch per letter at each
# space.
BYLINE_WORDS_AFTER_SPACE = by_first_letter(
    ("by", "von", "par", "por", "di", "door", "av", "af", "autor(?:in|en)?", "authors?", "texto?"))
BYLINE_WORD = re.compile(
    rf"[\s\-–—](?:(?i:(?:{BYLINE_WORDS_AFTER_SPACE})(?=[\s:：]|$)"
    r"|about|über)|(?:By|Von)(?=[A-ZÄÖÜ]))")
# Lower-case words that stand inside names ("Ludwig van Beethoven", "Ursula von der Leyen"):
# any other lower-case word makes a "By …" line prose ("By default, this option is …").
NAME_PARTICLES = frozenset({"van", "von", "der", "den", "de", "del", "della", "di", "da", "du",
                            "le", "la", "dos", "das", "bin", "ibn", "al", "el", "ten", "ter",
                            "zu", "y", "e", "and", "und", "et"})
NAME_LIST = re.compile(r"\s*(?:[,;&]|\b(?:und|and|y|et)\b)\s*", re.I)
CREDIT_CLASS = re.compile(r"licen[cs]e|credit|copyright|caption|bildnachweis", re.I)
NAME_CLASS = re.compile(r"\bfn\b|vcard|name", re.I)
# Publishers, not people: "Deutscher Caritasverband e. V.", "Bayerische Landesanstalt … - LWF".
ORGANISATION = re.compile(r"\b(?:e\.\s?V|GmbH|AG|Inc|Ltd|LLC|Verband|Verlag|Redaktion|"
                           r"Landesanstalt|Institut|Universität|University|Agencies|Ministerium)\b"
                           # a Chinese outlet: …网 (website), …报 (paper), …社 (agency), …台
                           r"|[\u4e00-\u9fff]{2,}(?:" + either("网|报|社|台|新闻|频道") + ")$",
                           re.I)
EDITOR_CREDIT = re.compile(r"\bedit(?:ed|or|ors)\b|\bhrsg\b|herausgegeben", re.I)
NAME_CONJUNCTION = re.compile(r"\s+(?:und|and|y|et|&)\s+(?=\S+\s+\S)", re.I)

# Chinese labelled lines: 作者：/来源：/发布时间： (article.dates.cn_fields)

# A field's value ends at a space, a separator, a bracket ("（责任编辑：系统管理员）") or the
# next label run into it ("来源：证券时报网作者：李在山", "李跃群校对：刘威").
CN_NEXT_LABEL = "(?:" + either("作者|记者|来源|编辑|责任编辑|责编|校对|摄影|通讯员|实习生|审核|"
                              "发布时间|时间") + ")[:：]"
# … or at a counter run into it ("来源：东森新闻云4人参与2评论").
CN_COUNTER = r"\d+(?:" + either("人|条|次") + ")?(?:" + either("参与|评论|阅读|浏览") + ")"
CN_FIELD = re.compile("(" + either("作者|记者|来源|编辑|责任编辑|发布时间|发表时间|时间|日期")
                      + r")\s*[:：]\s*"
                      rf"((?:(?!{CN_NEXT_LABEL}|{CN_COUNTER})[^\s|丨｜/（）()【】\[\]])+"
                      r"(?:\s\d{1,2}:\d{2}(?::\d{2})?)?)")
CN_DATE_LABELS = ("发布时间", "发表时间", "时间", "日期")
# The labels (simplified, as cn_fields gives them) that name an author, the outlet, an editor.
CN_AUTHOR_LABELS = ("作者", "记者")
CN_SOURCE_LABEL = "来源"
CN_EDITOR_LABELS = ("编辑", "责任编辑")
# A reporter's byline as print news sets it, a space and no colon after the label, an outlet
# often before it: "本报记者 张三", "新华社记者 李四 王五", "澎湃新闻记者 贺梨萍",
# "【文/观察者网专栏作者 王文】". The names are 2–6 Chinese characters (a "·" inside foreign
# ones) and end the line, but for a word after them that is none (CN_AFTER_NAMES); a label
# run into the text ("据记者了解") is prose.
CN_SPACED_BYLINE = re.compile(r"(?:^|[\s【\[（(])[^\s【\[（(]{0,12}?(" + either("记者|作者")
                            + r")[ \u3000]+"
                            r"([\u4e00-\u9fff·]{2,6}(?:[ \u3000、，,]+[\u4e00-\u9fff·]{2,6}){0,3})"
                            r"\s*(?:$|[】\]）)])")
CN_SPACED_LABELS = both(("记者", "作者"))
CN_NAME_SEPARATORS = re.compile(r"[ \u3000、，,]+")
# What follows the names on such a line and is none ("新华社记者 李四 王五 报道").
CN_AFTER_NAMES = frozenset({"报道", "报道称", "报导", "综合报道", "编译", "整理", "摄影", "通讯员",
                          "实习生", "发自"})
CN_LABEL_ENDS = "者源辑輯间間期"  # the last character of every CN_FIELD label
CN_BREADCRUMB = re.compile("(?:" + either("您现在的|您所在的|您的|当前|所在") + r")位置\s*[:：]")

# Date words: months, relative forms (article.dates.parse)

MONTHS = {
    name: number
    for number, names in enumerate(
        # English, German, French, Spanish, Italian and Russian (genitive, as dates write
        # them) names.
        [("jan", "january", "januar", "jän", "jänner", "janvier", "enero", "ene", "gennaio",
          "января"),
         ("feb", "february", "februar", "février", "fevrier", "febrero", "febbraio", "февраля"),
         ("mar", "march", "märz", "maerz", "mars", "marzo", "марта"),
         ("apr", "april", "avril", "abril", "abr", "aprile", "апреля"),
         ("may", "mai", "mayo", "maggio", "мая"),
         ("jun", "june", "juni", "juin", "junio", "giugno", "июня"),
         ("jul", "july", "juli", "juillet", "julio", "luglio", "июля"),
         ("aug", "august", "août", "aout", "agosto", "ago", "августа"),
         ("sep", "sept", "september", "septembre", "septiembre", "setiembre", "settembre",
          "сентября"),
         ("oct", "october", "okt", "oktober", "octobre", "octubre", "ottobre", "октября"),
         ("nov", "november", "novembre", "noviembre", "ноября"),
         ("dec", "december", "dez", "dezember", "décembre", "decembre", "diciembre", "dic",
          "dicembre", "декабря")],
        start=1,
    )
    for name in names
}
# The month and weekday names the e-mail date parser (email.utils) reads, lowercased.
RFC_MONTHS = frozenset({
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    "january", "february", "march", "april", "june", "july", "august", "september",
    "october", "november", "december"})
RFC_DAYS = frozenset({"mon", "tue", "wed", "thu", "fri", "sat", "sun"})
# What every English relative form holds (every Chinese and Japanese one holds 前, 天, 刚,
# 剛, 今日 or 昨日: see _may_be_relative).
RELATIVE_WORDS = ("ago", "today", "yesterday", "just now")
RELATIVE_UNIT_SECONDS = {
    "秒": 1, "second": 1, "sec": 1, "分钟": 60, "分": 60, "minute": 60, "min": 60,
    "小时": 3600, "个小时": 3600, "时间": 3600, "hour": 3600, "hr": 3600, "天": 86400,
    "day": 86400, "周": 604800, "星期": 604800, "week": 604800, "个月": 2592000,
}  # by the simplified form of what _RELATIVE matched
DAY_WORD_OFFSET = {"刚刚": 0, "just now": 0, "今天": 0, "今日": 0, "today": 0, "昨天": 1, "昨日": 1,
               "yesterday": 1, "前天": 2}  # simplified keys, as RELATIVE_UNIT_SECONDS
COUNT_WORDS = {"半": 0.5, "一": 1, "两": 2, "几": 3}
AFTERNOON_WORDS = ("下午", "晚上")

# Publication date labels (article.dates.publish, article.dates.clock)

# A Western label that says the date after it is the publication's: "Erschienen am:",
# "Published on", "Veröffentlicht:", "Datum:" (a bare "date" word needs its colon).
PUBLISHED_LABEL = re.compile(
    r"\s*(?:(?:erschienen|veröffentlicht|publiziert|published|posted|publié|publicado|pubblicato)"
    r"(?:\s+(?:am|on|le|el|il))?|(?:datum|date|fecha|data)(?=\s*:))\s*:?\s*"
    r"(?:$|\d|[^\W\d_]{3,}\.?\s+\d)", re.I)  # then nothing, a digit or a month and a digit
# English-language countries that write the day first.
DAY_FIRST_ENGLISH = frozenset({"gb", "uk", "ie", "au", "nz", "in", "za"})

# Comments: item parts, cues and forum furniture (article.comments.items)

COMMENT_CUE = re.compile(r"\b(?:says|said|wrote|schreibt|reply|antworten|répondre)\b|"
                  + either("回复|说：") + "|[0-9]+" + either("楼"), re.I)
# Class words of a comment's parts, matched on lowercased words (see _parts).
COMMENT_AUTHOR_CLASS = re.compile(  # authi: Discuz's poster cell ("author info")
    r"author|authi|user|name|nick|poster|commenter|(?:^|\s)fn(?:\s|$)|作者|用户")
# A link to a member's profile page (phpBB memberlist, SMF action=profile, vBulletin member.php,
# Discuz space-uid, Discourse /u/NAME): a heading holding one names the poster, not a title.
PROFILE_LINK = re.compile(r"profile|memberlist|member\.php|space-uid|/u(?:ser)?s?/|[?&;]u=",
                          re.I)
# Class or id words of an element that is one whole forum post (vBulletin's
# <li class="postcontainer" id="post_12">, Discuz's <div id="post_12">).
POST_CLASS = re.compile(r"(?:^|[\s_-])post(?:container|bit\w*)?(?:$|\s|[_-]\d)", re.I)
COMMENT_TIME_CLASS = re.compile(r"date|time|when|posted|meta|published|info")
COMMENT_CHROME_CLASS = re.compile(
    r"reply|meta|actions?|vote|like|report|share|avatar|footer|toolbar|"
    r"quote-?btn|signature|sign")
# Words that stand beside a comment's author and time in its header ("Ann says:", "on July
# 3, 2012 at 9:14 am", "Antworten").
COMMENT_HEADER_WORDS = frozenset({*SAID_WORDS, "on", "at", "am", "pm", "um", "uhr", "by", "von",
                           "posted", "reply", "antworten", "permalink", "quote", "zitieren",
                           "report", "melden", "edit", "link"})
# What a header adds to a name, which the byline cleaner then cuts: a time or a number, a
# label's colon, a dash or bar, "by"/"on" before it, "says" after it.
COMMENT_HEADER_HINT = re.compile(
    rf"[\d:|—–]|^(?:by|von|on)\s|\s(?:{'|'.join(SAID_WORDS)})\W*$", re.I)
# A post's furniture in Chinese forums (Discuz, phpwind): floor labels, the post-header
# verb, the author's counters; and what marks a text that may hold some.
FORUM_FURNITURE = re.compile(r"(?:[\W\d_]|" + either(
    "楼主|沙发|板凳|地板|楼|发表于|积分|帖子|主题|精华|金币|威望|注册时间|最后登录|只看该作者|"
    "倒序浏览|电梯直达|回复|引用|举报") + ")*")
FORUM_FURNITURE_CUES = both(("楼", "沙发", "板凳", "地板", "发表于", "积分"))

# Comment sections: names, headings, notices (article.comments.sections)

# On " " + lowercased words, as boilerplate._NOISE (a leading separator makes the regex fast).
COMMENT_SECTION = re.compile(
    r"[\s_\-](?:comments?|commentlist|comment\w*list|respond|replies|discussion|disqus|"
    r"pinglun|huifu|talk|feedback|reactions)(?=$|[\s_\-\d])")
# Every word of COMMENT_SECTION holds one of these stems.
COMMENT_SECTION_STEMS = (
    "comment", "respond", "replies", "discussion", "disqus", "pinglun", "huifu",
    "talk", "feedback", "reactions")
COMMENT_SECTION_CJK = both(("评论", "回复", "留言"))
# Named like a comment section but only a counter, a link, a sidebar list of recent comments
# or the bar of who liked a post ("reactionsBar": names, no comments).
NOT_COMMENT_SECTION = re.compile(
    r"widget|recent|latest|count|icon|link|btn|button|number|num\b|total|"
    r"reactions[\s_-]?bar|likes?[\s_-]?bar", re.I)
# Class words of a comment list's items that are no reader's comment: another site's link
# back to the post (WordPress writes li.pingback / li.trackback among the comments).
NOT_READER_COMMENT = re.compile(r"(?:^|[\s_-])(?:pingback|trackback)(?=$|[\s_-])", re.I)
# The subject line of a forum reply or mail answer ("Re: …", "回复：…"): a thread's post
# titled so is no entry of a list.
REPLY_SUBJECT = re.compile(r"\s*(?:re|aw|sv|antw)\s*(?:\[\d+\])?\s*[:：]|\s*(?:"
                           + either("回复|答复") + r")\s*[:：]", re.I)
# A whole heading that announces comments: "3 Responses to “X”", "Comments (3)", 网友评论(12).
COMMENT_HEADING = re.compile(
    r"(?:(?:\d+|no|one|two|three)\s+)?(?:comments?|responses?|replies|thoughts|reactions|"
    r"kommentare?|commentaires?|comentarios?|reacties|reader comments|discussion)"
    r"(?:\s+(?:to|on|zu|sur|a|for)\s+.+)?\s*(?:[(\[]\d+[)\]])?\s*[:»]?|"
    r"(?:leave|post|add|write) (?:a|your) (?:reply|comment|response)|join the discussion|"
    r"(?:共有?\s*\d+\s*" + either("条") + ")?(?:" + either("网友|读者|热门|最新|全部|发表|精彩")
    + ")?(?:" + either("评论|回复|留言|跟帖") + r")\s*[(（]?\d*[)）]?(?:" + either("条") + ")?",
    re.I)
# What a comment section shows where there is no comment to show, or a spam filter's notice.
COMMENT_NOTICE = re.compile(
    r"no comments|comments? (?:are|is) (?:now )?closed|be the first to comment|akismet|"
    r"keine kommentare|kommentare sind geschlossen|anzahl der kommentare|aucun commentaire|"
    r"commentaires sont fermés|sin comentarios|no hay comentarios|"
    + either("暂无评论|还没有评论|评论已关闭"), re.I)

# Repeated shapes: class words that alternate between items (article.comments.shapes)

# Class words (lowercased) that alternate between items of one list, or name the item's
# author: a set and two string tests, not a regex with re.I and .*author.* per word.
ALTERNATING_CLASS_WORDS = frozenset({"odd", "even", "alt", "first", "last", "alternate", "byuser",
                          "bypostauthor", "clearfix", "highlighted", "parent"})

# Code in an article's body: no evidence of its prose's language (article.metadata)
CODE_TAGS = ("pre", "code", "kbd", "samp", "tt", "math", "var")

# Stopwords (pipelines.language)

STOPWORDS = {
    "en": {"the", "and", "of", "to", "is", "in", "that", "for"},
    "de": {"der", "die", "und", "das", "ist", "nicht", "mit", "sich"},
    "fr": {"le", "la", "les", "et", "des", "est", "une", "pour"},
    "es": {"el", "los", "las", "y", "que", "del", "por", "una"},
    "pt": {"o", "os", "as", "e", "que", "do", "da", "uma"},
    "it": {"il", "di", "che", "e", "della", "per", "una", "sono"},
    "nl": {"de", "het", "een", "en", "van", "niet", "dat", "zijn"},
    "pl": {"i", "w", "nie", "na", "się", "jest", "że", "do"},
}


# --- page type, records, template diff, node labelling ---

# Page-type classification: the words its features count (matched as substrings, so no
# segmentation is needed; Chinese and Western markers side by side).

# URL type keywords per class; "list" also stands for "other".
URL_KEYWORDS: dict[str, tuple[str, ...]] = {
    "news": ("story", "article", "content", "news", "xinwen"),
    "forum": ("detail", "thread_", "viewthread", "read-", "tid", "forum", "luntan", "bbs",
              "tieba", "guba", "shequ", "tiezi", "huitie", "post", "showtopic"),
    "blog": ("blog", "static", "boke"),
    "list": ("node", "main", "list", "index", "more", "category", "item", "default", "brief",
             "catid", "special", "data", "club", "group", "rss", "board", "formblogger",
             "profile", "link", "search", "login", "front", "class", "forum-", "channel",
             "fid", "tag",
             # archive, category and author pages of blog themes ("categories" lacks "category")
             "categor", "archive", "author"),
}

# URL path segments of reference pages (documentation, wikis, help, about), which are
# neither articles nor lists: a segment that is one of them or starts with one and "-", "_", ".".
OTHER_URL_SEGMENTS = ("wiki", "docs", "doc", "manual", "help", "faq", "about")

# Root elements of feeds and sitemaps (RSS, Atom, RSS 1.0's rdf:RDF, sitemaps), lower-cased,
# without their namespace prefix (pipelines.feeds).
FEED_ROOTS = frozenset(("rss", "feed", "rdf", "urlset", "sitemapindex"))
# The media types of <link rel="alternate"> that declare a page's feed.
FEED_MEDIA_TYPES = frozenset(("application/rss+xml", "application/atom+xml",
                              "application/rdf+xml"))

# Words in <title> and <meta content>, per type.
HEAD_WORDS: dict[str, tuple[str, ...]] = {
    "news": ("新闻", "资讯", "快讯", "日报", "晚报", "news", "article", "times", "post"),
    "forum": ("论坛", "社区", "贴吧", "帖子", "bbs", "forum", "thread", "board", "discussion"),
    "blog": ("博客", "博文", "blog", "wordpress", "blogger", "diary"),
    "list": ("列表", "栏目", "频道", "首页", "第", "页", "category", "archive", "page", "index",
             "search", "results", "shop"),
}

TYPE_CLASSES = ("news", "forum", "blog", "list")

# Names (property, name, itemprop) of <meta> tags in <head>, per meta feature: publishing
# software dates the page it publishes (see docs/DECISIONS.md, "Declared
# publication date").
META_NAME_WORDS: dict[str, tuple[str, ...]] = {
    "published": ("published", "pubdate"),
    "modified": ("modified",),
    "author": ("author",),
}

# Open Graph page types (og:type) that are features: "article" on posts, "website" on indexes.
OG_TYPES = ("article", "website")

# Link texts of pagers ("next page", "last page"…); page numbers are counted apart.
PAGER_WORDS = ("下一页", "下页", "上一页", "上页", "尾页", "末页", "下一頁", "next", "prev",
               "older", "newer", "»", "›", "次へ", "weiter", "suivant")

# Link texts of a post's buttons: a forum thread repeats them once per post.
ACTION_WORDS = ("reply", "quote", "回复", "引用", "举报", "report", "zitieren", "antworten",
                "répondre", "citer", "responder", "citar")

# Href parts of links to a member's profile (vBulletin, phpBB, XenForo, Discuz, WordPress).
USER_HREF_WORDS = ("member", "user", "profile", "author", "uid=", "/u/")

# Text under these tags is not visible page text.
IGNORED_TAGS = frozenset((
    "script", "style", "object", "iframe", "textarea", "noscript", "noembed", "marquee",
    "frame", "frameset", "noframes", "form", "input", "button", "select", "option", "label",
    "fieldset", "applet", "optgroup", "legend", "isindex", "param",
))

# The common tags whose shares of all elements are features.
COMMON_TAGS = (
    "a", "abbr", "article", "aside", "b", "blockquote", "br", "button", "caption", "cite",
    "code", "dd", "div", "dl", "dt", "em", "figcaption", "figure", "footer", "form", "h1",
    "h2", "h3", "h4", "header", "hr", "i", "img", "input", "label", "li", "link", "main",
    "meta", "nav", "ol", "option", "p", "pre", "section", "select", "small", "span", "strong",
    "table", "td", "th", "time", "tr", "ul",
)

# A reply's number in a Chinese thread, as in "3楼" (floor).
FLOOR_WORD = "楼"

# Page-type training: blog platforms whose subdomains are separate sites, and domains that
# pages of every kind of site link to (sharing, feeds, ads, image hosts), which say nothing
# about a page's own site.
BLOG_PLATFORMS = ("wordpress.com", "typepad.com", "tumblr.com", "posterous.com")
HUB_DOMAINS = frozenset((
    "addthis.com", "amazon.com", "apple.com", "bit.ly", "blogger.com", "bp.blogspot.com",
    "creativecommons.org", "del.icio.us", "delicious.com", "digg.com", "disqus.com",
    "doubleclick.net", "facebook.com", "feedburner.com", "flickr.com", "google.com",
    "gravatar.com", "linkedin.com", "pinterest.com", "reddit.com", "stumbleupon.com", "t.co",
    "technorati.com", "twitter.com", "wordpress.org", "wp.me", "youtube.com"))

# Record mining: class and id words of navigation, footer, sidebar and ranking blocks,
# whose record sets are menus rather than the page's list.
NOISE_BLOCK_WORDS = frozenset((
    "nav", "navbar", "navigation", "menu", "menus", "submenu", "topbar", "header", "footer",
    "foot", "breadcrumb", "breadcrumbs", "sidebar", "side", "aside", "widget", "widgets",
    "pagination", "pager", "pages", "paging", "hot", "hots", "rank", "ranking", "popular",
    "most", "recommend", "related", "tag", "tags", "tagcloud", "share", "social", "friend",
    "friends", "links", "flink", "copyright", "login", "search", "banner", "ad", "ads",
    "advert"))
# Class or id words that mark a page's main block even when a noise word names what the page
# is about ("main-inner tag": a tag page's content). <html>, <body> and <main> are never noise.
MAIN_BLOCK_WORDS = frozenset(("main", "primary"))
# The sure ones among them: a set inside such a block is a page's list only when the page has
# no other (a tag page's sidebar is often longer than its list).
STRONG_NOISE_BLOCK_WORDS = frozenset((
    "nav", "navbar", "navigation", "menu", "menus", "submenu", "footer", "breadcrumb",
    "breadcrumbs", "sidebar", "aside", "widget", "widgets", "tagcloud"))
# Extra record fields by the label before them: name → (Chinese words, in simplified form;
# their traditional forms are read too, then Western words).
RECORD_FIELD_WORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "author": (("作者", "发帖人", "楼主", "发布人", "发布者"),
               ("author", "by", "posted by", "poster")),
    "replies": (("回复", "回帖", "评论"), ("replies", "reply", "comments", "answers")),
    "views": (("查看", "浏览", "阅读", "点击", "人气"), ("views", "hits", "reads")),
    "source": (("来源",), ("source",)),
}
# A date found outside a record's date slot counts when it holds one of these characters or
# words (or a year or a clock time).
RECORD_DATE_CHARS = "年月日前天"
RECORD_DATE_WORDS = ("ago", "today", "yesterday")
# Pager links: the label of a next-page link and of a previous-page one (regexes, matched
# whole and case-blind; "older" / "past" lead forward in a blog's list, "newer" / "future"
# back), the class words of each, and the title / aria-label of a pager's first or last link.
_NEXT_WORDS = (r"next(?:\s*page)?|older(?:\s*(?:posts|entries|articles|page))?|past|"
               r"earlier(?:\s*posts)?|nächste|suivant|siguiente")
_PREVIOUS_WORDS = (r"prev|previous(?:\s*page)?|newer(?:\s*(?:posts|entries|articles|page))?|"
                   r"future|later|vorherige|précédent|anterior")
NEXT_PAGE_LABEL = (r"[»›>]|>>|(?:[«‹←<]+\s*)?(?:下一页|下页|下一頁|后页|後頁|后一页|後一頁|"
                   + _NEXT_WORDS + r")(?:\s*[»›→>]+)?")
PREVIOUS_PAGE_LABEL = (r"[«‹<]|<<|(?:[«‹←<]+\s*)?(?:上一页|上页|上一頁|前页|前頁|前一页|前一頁|"
                       + _PREVIOUS_WORDS + r")(?:\s*[»›→>]+)?")
NEXT_PAGE_CLASS = r"(?:^|[\s_-])next(?:$|[\s_-])|nextpage|pagenext"
PREVIOUS_PAGE_CLASS = r"(?:^|[\s_-])prev(?:ious)?(?:$|[\s_-])|prevpage|pageprev"
PAGER_END_LABEL = r"(?:first|last)(?:\s*page)?|首页|尾页|末页|最后一页|第一页"
CURRENT_PAGE_CLASSES = ("current", "active", "cur", "on", "selected", "now", "thisclass")

# Node labelling: cue words in a block's own text (regexes, case-blind), one feature each.
TEXT_CUES = {
    "author": (r"^(?:by|von|par|por|door|written by|posted by|autor|author)\b|作者|记者|编辑|责编|"
               r"撰文|通讯员|^文\s*/|^\s*文[:：]"),
    "source": r"来源|出处|稿源|转载|\b(?:source|quelle)\s*[:：]",
    "time": (r"(?:发布|发表|更新|上传)(?:时间|日期|于)|时间[:：]|日期[:：]|"
             r"^(?:published|posted|updated|"
             r"veröffentlicht|aktualisiert|erschienen|publié|stand|am|on)\b"),
    "comment": (r"回复|评论|网友|楼主|沙发|\d+\s*楼|"
                r"\b(?:reply|replies|comments?|kommentare?|wrote|says)\b"),
    "copyright": r"©|copyright|版权|all rights reserved|备案|icp",
    "more": r"阅读全文|更多|相关|上一篇|下一篇|read more|related|more\b|weiterlesen",
}
# Cue words in class / id / itemprop / rel of a block and its ancestors (regexes).
ATTRIBUTE_CUES = {
    "comment": r"comment|reply|discuss|disqus|respond|pinglun|review",
    "author": r"author|byline|writer|zuozhe|editor|creator",
    "date": r"date|time|publish|posted|fabu|pubtime",
    "title": r"title|headline|biaoti|heading",
    "content": r"content|article|body|text|entry|story|zhengwen|post",
    "nav": r"nav|menu|breadcrumb|crumb|pagination|pager",
    "side": r"side|aside|widget|related|recommend|hot|rank|popular",
    "foot": r"foot|copyright|bottom",
    "share": r"share|social|tag|follow",
    "ad": r"\bads?\b|advert|sponsor|guanggao|promo|banner",
    "meta": r"info|meta|source|laiyuan|detail",
}
# Node-labeller training: <meta> names that declare a page's author and publication date,
# and the words joining several authors' names.
AUTHOR_META_NAMES = ("author", "byl", "dc.creator", "sailthru.author", "parsely-author",
                     "article:author", "og:article:author")
DATE_META_NAMES = ("article:published_time", "og:published_time", "date", "pubdate",
                   "publishdate", "publish-date", "dc.date", "dc.date.issued", "sailthru.date",
                   "parsely-pub-date", "datepublished")
NAME_JOINERS = ("and", "und", "et", "y")
