"""Hand-written forum thread pages in the markup of common forum themes, for the thread
tests: phpBB 3 (prosilver), Discuz! X3, vBulletin 4, Discourse's no-JS view and SMF 2
(Curve). Each theme writes a post as its poster's cell, a header line with the time and
the message; the texts are ours. `thread(theme, replies, page)` builds a page with the
opening post and `replies` replies, or a continuation page `page` > 1 whose posts are all
replies."""

from __future__ import annotations

from collections.abc import Callable

STARTER = "iulian"
OPENING = ("I try to use a slider control for the first time. The value should show in the "
           "textbox next to it while the slider moves, but the textbox stays empty until I "
           "release the mouse button. How can I link the two controls?")
OPENING_ZH = ("周末想去西山爬山，路线大概十五公里，有没有一起的朋友？"
              "我们早上七点在地铁站集合，中午在山顶吃饭。")
REPLIERS = ("owen", "fred_t", "kerry")
REPLIES = ("Handle the OnScroll event of the slider and set the text of the textbox there.",
           "The OnChanged event only fires once the mouse button is released, use OnScroll.",
           "Thank you for the answer, OnScroll works exactly as I wanted it to.")
REPLIERS_ZH = ("小明", "老王", "阿花")
REPLIES_ZH = ("算我一个，我也想去西山看看风景，顺便锻炼身体。",
              "路线太长了吧，新手能走下来吗？有点担心。",
              "我去过一次，风景很好，记得多带水和吃的。")
MINUTES = (21, 37, 52, 58)  # the posts' times on the day of the thread, in order


def _phpbb(post_id: int, name: str, minute: int, text: str) -> str:
    return f"""<div id="p{post_id}" class="post has-profile bg{post_id % 2 + 1}"><div class="inner">
<dl class="postprofile" id="profile{post_id}"><dt class="has-profile-rank">
<a href="./memberlist.php?mode=viewprofile&amp;u={post_id}" class="username">{name}</a></dt>
<dd class="profile-rank">Member</dd><dd class="profile-posts"><strong>Posts:</strong> 12</dd>
</dl>
<div class="postbody"><div id="post_content{post_id}">
<h3><a href="#p{post_id}">Re: Linking a slider control with a textbox</a></h3>
<p class="author"><a href="./viewtopic.php?p={post_id}#p{post_id}">Post</a> by <strong>
<a href="./memberlist.php?mode=viewprofile&amp;u={post_id}" class="username">{name}</a></strong>
» <time datetime="2012-01-31T10:{minute}:00+00:00">Tue Jan 31, 2012 10:{minute} am</time></p>
<div class="content">{text}</div></div></div>
<div class="back2top"><a href="#top" class="top" title="Top">Top</a></div></div></div>
<hr class="divider">"""


def _phpbb_page(posts: str, page: int) -> str:
    start = (page - 1) * 10
    pager = (f'<div class="pagination">13 posts • Page <strong>{page}</strong> of 2 '
             f'<a href="./viewtopic.php?t=17&amp;start={10 - start}">{3 - page}</a></div>')
    return f"""<html><head><title>Linking a slider control with a textbox - Example Forum</title>
</head><body id="phpbb"><div id="wrap"><div class="headerbar"><h1>Example Forum</h1>
<p>Questions and answers about dialog controls</p></div>
<div class="navbar"><ul class="nav-breadcrumbs"><li><a href="./index.php">Board index</a> ‹
<a href="./viewforum.php?f=2">Dialogs</a></li></ul></div>
<div id="page-body"><h2 class="topic-title"><a href="./viewtopic.php?t=17">Linking a slider
control with a textbox</a></h2>
<div class="action-bar bar-top"><a href="./posting.php?mode=reply&amp;t=17" class="button">Post
Reply</a>{pager}</div>
{posts}
<div class="action-bar bar-bottom">{pager}</div></div>
<div class="copyright">Powered by phpBB® Forum Software © phpBB Limited</div></div></body></html>"""


def _discuz(post_id: int, name: str, minute: int, text: str) -> str:
    floor = "楼主" if post_id == 1 else f"{post_id}#"
    return f"""<div id="post_{500 + post_id}"><table id="pid{500 + post_id}" class="plhin"
summary="pid{500 + post_id}" cellspacing="0" cellpadding="0"><tr>
<td class="pls" rowspan="2"><div class="pi"><div class="authi"><a href="space-uid-{post_id}.html"
class="xw1">{name}</a></div></div><dl class="pil cl"><dt>积分</dt><dd>1{post_id}3</dd></dl></td>
<td class="plc"><div class="pi"><strong><a href="#" id="postnum{500 + post_id}">{floor}</a>
</strong><div class="pti"><div class="authi"><em id="authorposton{500 + post_id}">发表于
2023-5-6 10:{minute}</em><span class="pipe">|</span><a href="#">只看该作者</a></div></div></div>
<div class="pct"><div class="pcb"><div class="t_fsz"><table cellspacing="0" cellpadding="0"><tr>
<td class="t_f" id="postmessage_{500 + post_id}">{text}</td></tr></table></div></div></div>
<div class="po"><a href="#" class="fastre">回复</a> <a href="#">举报</a></div></td></tr>
</table></div>"""


def _discuz_page(posts: str, page: int) -> str:
    pager = ('<div class="pg"><a href="thread-8812-1-1.html">1</a><strong>2</strong></div>'
             if page > 1 else '<div class="pg"><strong>1</strong><a href="thread-8812-2-1.html">2'
             '</a><a href="thread-8812-2-1.html" class="nxt">下一页</a></div>')
    return f"""<html><head><meta charset="utf-8"><title>周末去西山爬山，有人一起吗 - 户外运动 -
示例社区</title></head><body><div id="hd"><div class="wp"><h2><a href="./">示例社区</a></h2>
<ul><li><a href="forum.php">论坛</a></li><li><a href="home.php">家园</a></li></ul></div></div>
<div id="pt" class="bm cl"><div class="z"><a href="./">首页</a> <em>›</em>
<a href="forum.php">论坛</a> <em>›</em> <a href="forum-2-1.html">户外运动</a></div></div>
<div id="ct" class="wp cl"><div id="pgt" class="pgs mbm cl">{pager}</div>
<div id="postlist" class="pl bm"><table cellspacing="0" cellpadding="0"><tr>
<td class="pls ptn pbn"><div class="hm ptn"><span class="xg1">查看:</span> <span>4982</span>
<span class="pipe">|</span><span class="xg1">回复:</span> <span>13</span></div></td>
<td class="plc ptm pbn vwthd"><h1 class="ts"><span id="thread_subject">周末去西山爬山，有人一起吗
</span></h1></td></tr></table>
{posts}</div></div>
<div id="ft" class="wp cl">Powered by Discuz! X3.4 © 2001-2023 Comsenz Inc. 京ICP备00000000号</div>
</body></html>"""


def _vbulletin(post_id: int, name: str, minute: int, text: str) -> str:
    return f"""<li class="postbitlegacy postbitim postcontainer old" id="post_{1200 + post_id}">
<div class="posthead"><span class="postdate old"><span class="date">31.01.2012,&nbsp;<span
class="time">10:{minute}</span></span></span><span class="nodecontrols"><a
name="post{1200 + post_id}" href="showthread.php?t=345&amp;p={1200 + post_id}"
class="postcounter">#{post_id}</a></span></div>
<div class="postdetails"><div class="userinfo"><div class="username_container"><a
class="username offline popupctrl" href="member.php?u={post_id}"><strong>{name}</strong></a>
</div><span class="usertitle">Junior Member</span><dl class="userinfo_extra"><dt>Posts</dt>
<dd>12</dd></dl></div>
<div class="postbody"><div class="postrow"><div class="content"><div
id="post_message_{1200 + post_id}"><blockquote class="postcontent restore">{text}</blockquote>
</div></div></div></div></div>
<div class="postfoot"><span class="postcontrols"><a href="newreply.php?p={1200 + post_id}">Reply
With Quote</a></span></div><hr></li>"""


def _vbulletin_page(posts: str, page: int) -> str:
    here = f'<span class="selected"><a href="javascript://">{page}</a></span>'
    other = f'<span><a href="showthread.php?t=345&amp;page={3 - page}">{3 - page}</a></span>'
    links = here + other if page == 1 else other + here
    pager = f'<div class="pagination"><span>{links}</span></div>'
    return f"""<html><head><title>Linking a slider control with a textbox</title></head><body>
<div class="above_body"><div id="header"><a href="forum.php">Example Forums</a></div>
<div id="navbar" class="navbar"><a href="forum.php">Home</a> <a href="search.php">Search</a>
</div></div><div class="body_wrapper"><div id="breadcrumb" class="breadcrumb"><ul><li><a
href="forum.php">Forum</a></li><li><a href="forumdisplay.php?f=2">Dialogs</a></li></ul></div>
<div id="pagetitle"><h1>Thread: <span class="threadtitle"><a href="showthread.php?t=345">Linking a
slider control with a textbox</a></span></h1></div>
<div id="above_postlist" class="above_postlist">{pager}</div>
<div id="postlist" class="postlist restrain"><ol id="posts" class="posts">{posts}</ol></div>
<div id="below_postlist" class="noinlinemod below_postlist">{pager}</div></div>
<div id="footer">Powered by vBulletin® Version 4.2.5 Copyright © 2023 vBulletin Solutions</div>
</body></html>"""


def _discourse(post_id: int, name: str, minute: int, text: str) -> str:
    return f"""<div itemscope itemtype="http://schema.org/DiscussionForumPosting"
class="topic-body crawler-post" id="post_{post_id}"><div class="crawler-post-meta">
<span class="creator" itemprop="author" itemscope itemtype="http://schema.org/Person"><a
itemprop="url" href="/u/{name}"><span itemprop="name">{name}</span></a></span>
<span class="crawler-post-infos"><time itemprop="datePublished"
datetime="2012-01-31T10:{minute}:00Z" class="post-time">January 31, 2012, 10:{minute}am</time>
<span itemprop="position">{post_id}</span></span></div>
<div class="post" itemprop="text"><p>{text}</p></div>
<div itemprop="interactionStatistic" itemscope itemtype="http://schema.org/InteractionCounter">
<span class="post-likes"></span></div></div>"""


def _discourse_page(posts: str, page: int) -> str:
    pager = ('<div role="navigation" itemscope itemtype="http://schema.org/SiteNavigationElement"'
             ' class="topic-body crawler-post"><span itemprop="name"><a rel="prev" itemprop='
             '"url" href="/t/linking-a-slider/345">← previous page</a></span></div>'
             if page > 1 else
             '<div role="navigation" class="topic-body crawler-post"><span itemprop="name"><a '
             'rel="next" itemprop="url" href="/t/linking-a-slider/345?page=2">next page →</a>'
             '</span></div>')
    return f"""<html lang="en"><head><title>Linking a slider control with a textbox - Support -
Example Community</title></head><body class="crawler"><header><a href="/">Example
Community</a></header><div id="main-outlet" class="wrap" role="main">
<div id="topic-title"><h1><a href="/t/linking-a-slider/345">Linking a slider control with a
textbox</a></h1><div class="topic-category"><span class="category-name">Support</span></div></div>
{posts}{pager}</div>
<footer class="noscript-footer-nav"><a href="/">Home</a> <a href="/categories">Categories</a>
<a href="/guidelines">Guidelines</a> <a href="/tos">Terms of Service</a> <a href="/privacy">Privacy
Policy</a><p>Powered by Discourse, best viewed with JavaScript enabled</p></footer></body></html>"""


def _smf(post_id: int, name: str, minute: int, text: str) -> str:
    said = "on:" if post_id == 1 else f"Reply #{post_id - 1} on:"
    return f"""<div class="windowbg{'' if post_id % 2 else '2'}" id="msg{900 + post_id}">
<span class="topslice"><span></span></span><div class="post_wrapper"><div class="poster"><h4><a
href="index.php?action=profile;u={post_id}" title="View the profile of {name}">{name}</a></h4>
<ul class="reset smalltext"><li class="membergroup">Member</li><li class="postcount">Posts: 12
</li></ul></div><div class="postarea"><div class="flow_hidden"><div class="keyinfo"><h5
id="subject_{900 + post_id}"><a href="index.php?topic=345.msg{900 + post_id}">Re: Linking a
slider control</a></h5><div class="smalltext">« <strong>{said}</strong> January 31, 2012,
10:{minute}:00 AM »</div></div></div><div class="post"><div class="inner"
id="msg_{900 + post_id}">{text}</div></div></div></div><span class="botslice"><span></span>
</span></div><hr class="post_separator">"""


def _smf_page(posts: str, page: int) -> str:
    pages = ('<a class="navPages" href="index.php?topic=345.0">1</a> [<strong>2</strong>]'
             if page > 1 else '[<strong>1</strong>] <a class="navPages" href="index.php?topic='
             '345.10">2</a>')
    return f"""<html><head><title>Linking a slider control with a textbox</title></head><body>
<div id="header"><h1 class="forumtitle"><a href="index.php">Example Forum</a></h1></div>
<div class="navigate_section"><ul><li><a href="index.php">Example Forum</a> »</li><li><a
href="index.php?board=2.0">Dialogs</a> »</li></ul></div>
<div class="pagesection"><div class="pagelinks floatleft">Pages: {pages}</div></div>
<div id="forumposts"><div class="cat_bar"><h3 class="catbg">Author Topic: Linking a slider
control with a textbox (Read 1234 times)</h3></div><form action="#" method="post">
{posts}</form></div>
<div class="pagesection"><div class="pagelinks floatleft">Pages: {pages}</div></div>
<div id="footer_section">SMF 2.0.19 © 2021, Simple Machines</div></body></html>"""


Theme = tuple[Callable[[int, str, int, str], str], Callable[[str, int], str], bool]
THEMES: dict[str, Theme] = {  # post, page, Chinese
    "phpbb": (_phpbb, _phpbb_page, False),
    "discuz": (_discuz, _discuz_page, True),
    "vbulletin": (_vbulletin, _vbulletin_page, False),
    "discourse": (_discourse, _discourse_page, False),
    "smf": (_smf, _smf_page, False),
}


def thread(theme: str, replies: int = 3, page: int = 1) -> str:
    """A thread page: the opening post and `replies` replies, or on a continuation page
    (`page` > 1) replies only."""
    post, frame, chinese = THEMES[theme]
    names, texts = (REPLIERS_ZH, REPLIES_ZH) if chinese else (REPLIERS, REPLIES)
    opening = [] if page > 1 else [(STARTER, OPENING_ZH if chinese else OPENING)]
    posts = (opening + list(zip(names, texts, strict=True)))[:replies + len(opening)]
    first = 1 if page == 1 else 11
    return frame("\n".join(post(first + i, name, MINUTES[i], text)
                           for i, (name, text) in enumerate(posts)), page)
