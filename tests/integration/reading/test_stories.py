"""Reposts grouped into stories on PostgreSQL and SQLite: copies edited as portals edit
wire copy share a story, other articles do not (a band key many articles share gives only
its newest as candidates); pages of one site sharing its template (a
licence footer, a notice, a renumbered changelog) are no story, nor is a text published
again a year later; search collapses a story; a watch alerts once per story."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from models.db import get_engine
from models.page import Article, Page
from models.store import save_pages
from models.story import ArticleStory, StoryBand
from models.watch import Alert
from reading import stories
from reading.search import Filters, search
from reading.stories import COPY_WINDOW, group_new, members, published_day
from reading.watches import WatchSpec, add_watch, match_new
from tests.factories import article_page

WIRE = ["国务院总理李强27日主持召开国务院常务会议，研究推进经济高质量发展的若干措施，"
        "听取关于前三季度重点工作督查情况的汇报，讨论通过有关法规草案。",
        "会议指出，今年以来各地区各部门认真贯彻落实党中央决策部署，经济运行总体平稳、"
        "稳中有进，就业和物价保持基本稳定，新动能加快成长，发展质量持续提升。",
        "会议强调，要进一步扩大有效需求，稳定和扩大就业，切实保障和改善民生，"
        "加力推动消费增长，积极扩大有效投资，稳住外贸外资基本盘。",
        "会议部署进一步做好冬季安全生产工作，要求压实各方责任，加强隐患排查整治，"
        "严防道路交通、燃气、建筑施工等领域重特大事故发生，切实保障人民群众生命财产安全。",
        "会议还研究了其他事项，要求各地抓好落实，确保各项政策措施落地见效，"
        "及时总结推广好经验好做法，以实际行动推动经济持续回升向好。"]
OTHER = ["本市今日迎来入冬以来首场降雪，气象部门发布道路结冰黄色预警信号，"
         "提醒各单位做好防范准备，部分山区道路已经实施临时交通管制措施。",
         "交通管理部门提醒市民减少不必要的出行，驾车注意保持车距并降低车速，"
         "公交公司增加了早晚高峰的运力，地铁运营时间也相应延长一个小时。",
         "多所学校调整了上学时间，环卫工人连夜清扫主干道积雪，保障道路畅通，"
         "社区志愿者走访独居老人，送去御寒物资并检查取暖设备的使用安全。",
         "预计降雪将持续到明天中午，随后气温下降明显，请市民注意防寒保暖，"
         "农业部门也提醒种植户加固大棚设施，防止积雪压垮造成损失。"]


# A blog's footer, on every post: longer than a post's own text.
LICENCE = ["本文为博主原创文章，遵循知识共享署名—非商业性使用—相同方式共享四点零国际许可协议，"
           "转载请附上原文出处链接及本声明，未经许可不得用于任何商业用途。",
           "文中观点仅代表作者个人立场，与作者所在单位无关，读者据此操作风险自担，"
           "如有错漏之处欢迎在评论区指正，作者会在看到后第一时间更正并致谢。",
           "博客程序基于开源静态站点生成器构建，主题经过作者修改，源代码托管在公共代码仓库，"
           "欢迎提交问题报告与合并请求，也欢迎订阅本站的全文输出频道获取更新。",
           "联系作者请发送电子邮件，一般会在三个工作日内回复，恕不接受电话采访与商业推广合作，"
           "友情链接交换请先阅读本站的链接政策页面，满足条件后在留言板提出申请。",
           "本站不使用任何第三方统计与广告脚本，评论系统仅保存昵称与评论内容，"
           "不会收集读者的电子邮件地址，旧文章的评论区会在发布一年后自动关闭。"]
# A release list: each release puts its new item first and numbers the list again.
CHANGES = ["修复了在高分辨率屏幕上工具栏图标模糊不清的问题", "改进了大文件打开时的内存占用",
           "新增了按修改时间排序文件列表的选项", "修正了中文路径下无法保存配置文件的错误",
           "更新了简体中文和繁体中文界面翻译", "命令行模式支持一次处理多个输入目录",
           "修复了退出程序时偶尔崩溃的问题", "日志文件改为按日期自动分割保存",
           "安装程序可以选择不创建桌面快捷方式", "打印预览窗口支持缩放和翻页",
           "设置对话框增加了恢复默认值的按钮", "修复了拖放文件到窗口时没有反应的问题",
           "自动更新检查改为每周进行一次", "帮助文档补充了常见问题的解答"]


def _page(url: str, title: str, paragraphs: list[str], hours: int,
          credit: str | None = None) -> dict:
    page = article_page(url, body="\n\n".join(paragraphs), comments=())
    page["article"].update(title=title, source=credit, published_at=(
        datetime(2026, 11, 27, tzinfo=UTC) + timedelta(hours=hours)).isoformat())
    return page


def _reprints() -> list[dict]:
    return [
        _page("http://www.news.cn/politics/1.htm", "李强主持召开国务院常务会议", WIRE, 2),
        _page("http://portal-a.example.cn/1.html", "国常会部署经济工作（图）",
              ["新华社北京11月27日电 记者 王五"] + WIRE + ["（责任编辑：李四）"], 3, "新华社"),
        _page("http://portal-b.example.cn/2.html", "重磅！国常会最新部署",
              [WIRE[2], WIRE[0], WIRE[1], WIRE[3]], 1, "新华社"),  # reordered, trimmed
        _page("http://portal-c.example.cn/3.html", "国务院常务会议召开",
              WIRE[:4] + ["来源：新华网 编辑：赵六 本文仅代表作者观点"], 5, "新华社"),
        _page("http://city.example.cn/snow.html", "首场降雪", OTHER, 4),
    ]


def _story_of(session: Session, url: str) -> int:
    return session.scalar(select(ArticleStory.story_id).join(Article, Article.id ==
                                                             ArticleStory.article_id)
                          .join(Page).where(Page.url == url))


def test_copies_share_a_story_and_the_credited_outlet_is_its_origin(session: Session) -> None:
    save_pages(session, _reprints())
    assert group_new(session) == 5
    session.commit()
    stories = {page["url"]: _story_of(session, page["url"]) for page in _reprints()}
    wire = {stories[url] for url in stories if "snow" not in url}
    assert len(wire) == 1 and stories["http://city.example.cn/snow.html"] not in wire
    copies = members(session, wire.pop())
    assert len(copies) == 4
    assert copies[0].url == "http://www.news.cn/politics/1.htm"  # the credited outlet's own
    assert copies[1].url == "http://portal-b.example.cn/2.html"  # then the earliest
    assert group_new(session) == 0


def test_search_collapses_a_story_and_a_watch_alerts_it_once(session: Session) -> None:
    add_watch(session, WatchSpec("国常会", "国务院常务会议", {"kinds": ["article"]}))
    session.commit()
    save_pages(session, _reprints())
    group_new(session)
    assert match_new(session) == 1
    session.commit()
    assert len(session.scalars(select(Alert)).all()) == 1
    flat = search(session, "国务院常务会议", Filters(kinds=("article",)))
    collapsed = search(session, "国务院常务会议", Filters(kinds=("article",)), collapse=True)
    assert len(flat.hits) == 4
    assert [hit.copies for hit in collapsed.hits] == [4]
    assert collapsed.hits[0].url == "http://portal-c.example.cn/3.html"  # the newest copy


def test_a_crawl_pass_looks_among_the_newest_articles_and_the_backfill_at_all(
        session: Session) -> None:
    """An ungrouped article older than the lookback is left to the backfill's full pass."""
    save_pages(session, _reprints()[:1])
    save_pages(session, _reprints()[4:])
    assert group_new(session, lookback=1) == 1  # the newest article only
    session.commit()
    assert _story_of(session, "http://www.news.cn/politics/1.htm") is None
    assert _story_of(session, "http://city.example.cn/snow.html") is not None
    assert group_new(session, lookback=1) == 0
    assert group_new(session) == 1
    assert _story_of(session, "http://www.news.cn/politics/1.htm") is not None


def _stories(session: Session, pages: list[dict]) -> list[int]:
    save_pages(session, pages)
    group_new(session)
    session.commit()
    return [_story_of(session, page["url"]) for page in pages]


def test_posts_sharing_only_their_site_s_footer_are_no_story_but_a_double_post_is(
        session: Session) -> None:
    posts = [OTHER[:2], OTHER[2:], WIRE[3:], OTHER[:2]]  # the last posted twice
    stories = _stories(session, [_page(f"http://blog.example.org/{number}.html", f"文章{number}",
                                       text + LICENCE, number)
                                 for number, text in enumerate(posts)])
    assert len(set(stories[:3])) == 3
    assert stories[3] == stories[0]


def test_a_wire_copy_on_a_portal_with_its_own_template_is_one_story_with_the_wire(
        session: Session) -> None:
    footer = ["（责任编辑：李四）", "本网站所刊载信息不代表本站观点，转载请注明来源，"
              "如涉及作品内容、版权和其它问题请与本网联系，我们将在第一时间删除内容。"]
    pages = [_page("http://www.news.cn/politics/1.htm", "李强主持召开国务院常务会议", WIRE, 2),
             _page("http://portal-a.example.cn/1.html", "重磅！国常会最新部署",
                   ["新华社北京11月27日电 记者 王五"] + WIRE[:4] + footer, 3),
             _page("http://portal-a.example.cn/2.html", "首场降雪", OTHER[:2] + footer, 4),
             _page("http://portal-a.example.cn/3.html", "降雪续报", OTHER[2:] + footer, 5)]
    stories = _stories(session, pages)
    assert stories[1] == stories[0]
    assert len({stories[0], stories[2], stories[3]}) == 3


def test_a_renumbered_changelog_is_no_copy_signal(session: Session) -> None:
    releases = [_page(f"http://tool.example.org/releases/{version}.html", f"版本 1.{version}",
                      [f"版本 1.{version} 发布。"] + [f"{number}、{change}" for number, change in
                                                     enumerate(CHANGES[2 - version:], 1)],
                      24 * version) for version in range(3)]
    assert len(set(_stories(session, releases))) == 3


def test_the_same_text_published_again_a_year_later_is_another_story(session: Session) -> None:
    pages = [_page("http://www.news.cn/politics/1.htm", "通知", WIRE, 0),
             _page("http://portal-a.example.cn/1.html", "通知", WIRE, 48),
             _page("http://portal-b.example.cn/1.html", "通知", WIRE, 24 * 365)]
    stories = _stories(session, pages)
    assert stories[1] == stories[0] != stories[2]


def test_notices_whose_own_text_is_one_short_line_are_no_story(session: Session) -> None:
    notice = ["本帖已被管理员移动到软件交流版块，因为它讨论的是软件的使用问题，"
              "而不是本地化翻译工作。",
              "我们建议大家把软件使用相关的问题发在对应的版块，这样能有更多的网友看到并参与讨论。",
              "请点击下面的链接查看原帖并继续讨论，给您带来的不便敬请谅解，谢谢合作。",
              "发帖之前请先使用论坛的搜索功能，看看是否已经有人问过同样的问题，"
              "并在标题中写明软件版本和操作系统，方便其他网友帮助您分析问题。"]
    lines = ["原帖：安装失败求助", "原帖：安装失败求助", "原帖：界面乱码"]  # the first two alike
    pages = [_page(f"http://forum.example.org/{number}.html", "已移动", notice + [line], number)
             for number, line in enumerate(lines)]
    assert len(set(_stories(session, pages))) == 3


def test_one_notice_filled_for_two_topics_is_no_story_but_a_double_post_with_numbers_is(
        session: Session) -> None:
    notice = ["This topic has been moved to the runtime board because it is a runtime related "
              "topic and not a local language related topic.",
              "We advise you to add runtime related and studio related topics in the defined "
              "boards to allow a bigger community to participate.",
              "Das Thema wurde in das Unterforum verschoben, weil es sich um ein Problem der "
              "Laufzeitumgebung und nicht der länderspezifischen Anpassung handelt."]
    pages = [_page(f"http://forum.example.org/topics/{number}.html", "MOVED", notice + [
        f"You'll find the topic here: http://forum.example.org/index.php?topic={topic}.0"],
        number) for number, topic in ((397, 395), (398, 393))]
    pages += [_page(f"http://forum.example.org/topics/{number}.html", "5.0 安装失败",
                    ["版本 5.0.0.14 安装到第 3 步失败。"] + OTHER[:2], number)
              for number in (401, 402)]  # posted twice
    stories = _stories(session, pages)
    assert stories[0] != stories[1]
    assert stories[2] == stories[3]


def _grouped_in_own_pass(store_url: str) -> int:
    with sessionmaker(get_engine(store_url))() as session:
        grouped = group_new(session)
        session.commit()
        return grouped


def test_a_pass_waits_for_the_pass_in_flight_and_finds_its_articles_grouped(
        session: Session, store_url: str) -> None:
    """Two passes at once (two workers) would group the same articles twice."""
    save_pages(session, _reprints())
    session.commit()
    assert group_new(session) == 5  # the first pass's turn lasts to its commit
    with ThreadPoolExecutor(1) as pool:
        second = pool.submit(_grouped_in_own_pass, store_url)
        time.sleep(0.5)
        assert not second.done()
        session.commit()
        assert second.result(timeout=30) == 0
    assert len(session.scalars(select(ArticleStory)).all()) == 5


def test_a_bucket_s_candidates_are_its_newest_members_and_a_copy_still_finds_its_story(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """A band key many stored articles share costs no more than a rare one: only its newest
    CANDIDATES_PER_BUCKET are candidates, and a story's next copy still joins it."""
    monkeypatch.setattr(stories, "CANDIDATES_PER_BUCKET", 2)
    copies = [_page(f"http://portal-{n}.example.cn/wire.html", f"国常会 {n}", WIRE, n)
              for n in range(5)]
    assert len(set(_stories(session, copies))) == 1
    articles = sorted(session.scalars(select(ArticleStory.article_id)))
    buckets = session.scalars(select(StoryBand.bucket).where(
        StoryBand.article_id == articles[0])).all()
    stored = stories._stored_by_bucket(session, [buckets], np.array([np.nan]))
    newest: dict[int, list[int]] = {}
    for bucket, row in zip(stored.buckets.tolist(), stored.rows.tolist(), strict=True):
        newest.setdefault(bucket, []).append(int(stored.ids[row]))
    assert newest and all(sorted(ids) == articles[-2:] for ids in newest.values())
    later = _page("http://portal-9.example.cn/wire.html", "国常会", WIRE[:4], 9)
    assert _stories(session, [later]) == [_story_of(session, copies[0]["url"])]


def test_a_candidate_published_outside_the_window_is_left_before_its_signature_is_read(
        session: Session) -> None:
    """The band rows carry their article's day, so a pass leaves a stored copy published
    further than COPY_WINDOW from it before reading its signature, and still groups one
    within it."""
    near = COPY_WINDOW.days * 24 - 48
    old = [_page("http://portal-old.example.cn/wire.html", "国常会", WIRE, -3 * near),
           _page("http://portal-near.example.cn/wire.html", "国常会", WIRE, -near)]
    first, second = _stories(session, old)
    assert first != second  # too far apart to be one story
    days = dict(session.execute(select(StoryBand.article_id, StoryBand.published_day)
                                .distinct()).all())
    published = dict(session.execute(select(Article.id, Article.published_at)).all())
    assert days and all(day == published_day(published[id_]) for id_, day in days.items())

    new = _page("http://portal-new.example.cn/wire.html", "国常会", WIRE, 0)
    save_pages(session, [new])
    buckets = session.scalars(select(StoryBand.bucket).where(
        StoryBand.article_id == min(days))).all()
    today = published_day(datetime(2026, 11, 27, tzinfo=UTC))
    stored = stories._stored_by_bucket(session, [buckets], np.array([float(today)]))
    assert sorted(stored.ids.tolist()) == [max(days)]  # the near copy's signature alone
    unknown = stories._stored_by_bucket(session, [buckets], np.array([np.nan]))
    assert sorted(unknown.ids.tolist()) == sorted(days)  # no day: every candidate read
    group_new(session)
    session.commit()
    assert _story_of(session, new["url"]) == second
