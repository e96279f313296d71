"""Reposts grouped into stories on PostgreSQL and SQLite: copies edited as portals edit
wire copy share a story, other articles do not; search collapses a story; a watch alerts
once per story."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.page import Article, Page
from models.store import save_pages
from models.story import ArticleStory
from models.watch import Alert
from reading.search import Filters, search
from reading.stories import group_new, members
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
