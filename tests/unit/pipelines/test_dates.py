"""Date forms as Chinese and Western pages write them."""

import random
import re
from datetime import UTC, datetime, timedelta, timezone
from email import _parseaddr

import pytest

from pipelines.article.dates import parse as dates
from pipelines.article.dates.parse import _may_be_rfc2822, find_date, parse_date
from pipelines.lexicon import RFC_DAYS, RFC_MONTHS

NOW = datetime(2023, 5, 10, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "expected"), [
    ("发布时间：2023年5月1日 10:00", datetime(2023, 5, 1, 10, 0)),
    ("2023-05-01 10:00:00 来源：新华社", datetime(2023, 5, 1, 10, 0, 0)),
    ("2023/5/1", datetime(2023, 5, 1)),
    ("05-01 10:00", datetime(2023, 5, 1, 10, 0)),
    ("5月1日 08:30", datetime(2023, 5, 1, 8, 30)),
    ("Published May 1, 2023 at 10:00 pm", datetime(2023, 5, 1, 22, 0)),
    ("1. Mai 2023", datetime(2023, 5, 1)),
    ("01.05.2023, 14:30", datetime(2023, 5, 1, 14, 30)),
])
def test_absolute_forms(text: str, expected: datetime) -> None:
    assert parse_date(text, NOW) == expected


def test_iso_with_zone_is_aware() -> None:
    assert parse_date("2023-05-01T10:00:00+08:00", NOW).utcoffset() == timedelta(hours=8)


@pytest.mark.parametrize(("text", "delta"), [
    ("3小时前", timedelta(hours=3)), ("10分钟前", timedelta(minutes=10)),
    ("2天前", timedelta(days=2)), ("5 hours ago", timedelta(hours=5)),
])
def test_relative_to_fetch_time(text: str, delta: timedelta) -> None:
    assert parse_date(text, NOW) == NOW - delta


def test_yesterday_with_time() -> None:
    assert parse_date("昨天 10:30", NOW) == datetime(2023, 5, 9, 10, 30, tzinfo=UTC)


def test_short_date_in_the_future_means_last_year() -> None:
    assert parse_date("12-30 09:00", NOW) == datetime(2022, 12, 30, 9, 0)


def test_raw_substring_is_kept() -> None:
    assert find_date("编辑：张三 2023年5月1日", NOW)[1] == "2023年5月1日"
    assert find_date("no date here", NOW) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("28.01.22", datetime(2022, 1, 28)),
    ("Stand: 03.11.2021 um 09:15", datetime(2021, 11, 3, 9, 15)),
    ("1 de mayo de 2023", datetime(2023, 5, 1)),
    ("12 марта 2023", datetime(2023, 3, 12)),
    ("14:05", datetime(2023, 5, 10, 14, 5)),
])
def test_more_european_forms_and_bare_clock(text: str, expected: datetime) -> None:
    assert parse_date(text, NOW) == expected


def test_version_numbers_are_not_dates() -> None:
    assert parse_date("version 1.2.34", NOW) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("2023/05/01 下午 03:20", datetime(2023, 5, 1, 15, 20)),  # Taiwan: afternoon
    ("2023年5月1日 上午10:05", datetime(2023, 5, 1, 10, 5)),
    ("2023年5月1日 10時30分", datetime(2023, 5, 1, 10, 30)),  # Japanese
    ("3小時前", datetime(2023, 5, 10, 9, 0, tzinfo=UTC)),  # traditional characters
    ("5分鐘前", datetime(2023, 5, 10, 11, 55, tzinfo=UTC)),
    ("兩天前", datetime(2023, 5, 8, 12, 0, tzinfo=UTC)),
    ("2時間前", datetime(2023, 5, 10, 10, 0, tzinfo=UTC)),  # Japanese
    ("5分前", datetime(2023, 5, 10, 11, 55, tzinfo=UTC)),
    ("昨日 10:00", datetime(2023, 5, 9, 10, 0, tzinfo=UTC)),
    ("剛剛", NOW),
])
def test_traditional_chinese_and_japanese_forms(text: str, expected: datetime) -> None:
    """Big5 pages (Taiwan, Hong Kong) write 小時, 分鐘, 兩 and 下午 before an afternoon time;
    Japanese pages 時 in a time, 時間前 and 分前."""
    assert parse_date(text, NOW) == expected


def test_a_full_date_pairs_its_separators_and_a_month_range_is_no_date() -> None:
    """"2019年1-7月" is January to July (a statistic in an article), read as 2019-01-07 before."""
    assert parse_date("2019年1-7月，东莞规模以上工业增加值同比增长6.8%", NOW) is None
    assert parse_date("1-7月累计", NOW) is None
    for text in ("2019年9月7日", "2019-09-07", "2019/9/7", "2019.09.07"):
        assert parse_date(text, NOW) == datetime(2019, 9, 7), text
    assert parse_date("2019-09.07", NOW) is None


def test_slashed_dates_read_month_first_unless_the_first_number_cannot_be_a_month() -> None:
    assert find_date("Posted 10/19/2019 09:30")[0] == datetime(2019, 10, 19, 9, 30)
    assert find_date("19/10/2019")[0] == datetime(2019, 10, 19)
    assert find_date("2023/5/1")[0] == datetime(2023, 5, 1)


@pytest.mark.parametrize(("text", "expected"), [
    ("von lupa am 26/10/13, 03:48 pm", datetime(2013, 10, 26, 15, 48)),
    ("10/19/2019 05:22 pm", datetime(2019, 10, 19, 17, 22)),
])
def test_slashed_two_digit_years_and_afternoon(text: str, expected: datetime) -> None:
    assert parse_date(text, NOW) == expected


def test_slashed_two_digit_year_in_the_future_is_no_date() -> None:
    assert parse_date("01/02/30", NOW) is None and parse_date("1/2/13", NOW) is None


def test_slashed_dates_day_first_when_the_page_says_so() -> None:
    assert find_date("10/05/2022 17:22", NOW, day_first=True)[0] == datetime(2022, 5, 10, 17, 22)
    assert find_date("10/05/2022", NOW)[0] == datetime(2022, 10, 5)
    # A second number above 12 cannot be the month: the page's habit yields.
    assert find_date("10/19/2019", NOW, day_first=True)[0] == datetime(2019, 10, 19)


def test_text_without_digits_reads_only_relative_words() -> None:
    assert find_date("yesterday", NOW)[0].day == 9
    assert find_date("半小时前", NOW)[0] == NOW - timedelta(minutes=30)
    assert find_date("By Jane Doe", NOW) is None
    assert find_date("Posted ５月１日", NOW)[0].day == 1  # full-width digits are digits too


def test_italian_month_names() -> None:
    assert find_date("Notizia del 14 Gennaio 2020", NOW)[0] == datetime(2020, 1, 14)
    assert find_date("3 dicembre 2021", NOW)[0] == datetime(2021, 12, 3)


def test_email_dates_are_read_and_only_texts_with_a_month_name_are_tried_as_such() -> None:
    assert parse_date("Wed, 10 May 2023 08:15:00 +0200", NOW) == datetime(
        2023, 5, 10, 8, 15, tzinfo=timezone(timedelta(hours=2)))
    assert parse_date("10 MAY 2023 08:15 GMT", NOW) == datetime(2023, 5, 10, 8, 15, tzinfo=UTC)
    assert _may_be_rfc2822("Wed, 10 Dec 2023 08:15:00") and _may_be_rfc2822("10 SEP 2023 9:00")
    assert not _may_be_rfc2822("2023-05-10 08:15:00 +0200")
    assert _may_be_rfc2822("Wed,10-May-23 08:15:00 GMT") and _may_be_rfc2822("x,10 Dec 2023 1:00")
    assert not _may_be_rfc2822("I think you may be right, 10 Dec 2023")
    assert not _may_be_rfc2822("July 10th, 2012, 2:12 am")  # the parser fails on all these
    assert not _may_be_rfc2822("11. Jul, 2012 / ") and not _may_be_rfc2822("11 July 2012")


def test_every_text_the_email_parser_reads_passes_its_pretest() -> None:
    """_may_be_rfc2822 repeats the parser's first steps: on random texts built as an e-mail
    date is (weekday, day, month, year, time, zone: each slot often something else, the
    slots often swapped or left out), every one that _parsedate_tz reads passes it, and most
    that it does not read are stopped."""
    assert set(_parseaddr._monthnames) == RFC_MONTHS
    assert set(_parseaddr._daynames) == RFC_DAYS
    slots = [  # (what the parser reads there, what else pages write there)
        (["", "Wed", "wed,", "Sun,", "x,"], ["Ann", "on", "by Ann on", ","]),
        (["10", "10,", "1_0", "+5", "-3", "٣"], ["²", "10th", "10.", "x,10", "", "Jul"]),
        (["Jul", "JULY", "jul,", "july,"], ["Sept", "Mai", "10", "", "Jul 10"]),
        (["2012", "2012,", "12"], [",", "", "08:15", "PM"]),
        (["08:15", "08:15:00", "8.15", "8:15,"], ["at", "", "2012", "1:2:3:4"]),
        (["GMT", "+0200", "-0000", "EST", "am", ""], ["08:15", "Reply"]),
        ([""], ["Reply", "x y"]),
    ]
    chance = random.Random(2)
    read = stopped = 0
    for _ in range(60000):
        words = [chance.choice(read_there if chance.random() < 0.8 else other)
                 for read_there, other in slots]
        if chance.random() < 0.3:
            first, second = chance.sample(range(len(words)), 2)
            words[first], words[second] = words[second], words[first]
        if chance.random() < 0.2:
            words[1:4] = ["-".join(words[1:4])]
        text = chance.choice((" ", "  ", "\t", "\n ")).join(w for w in words if w)
        if _parseaddr._parsedate_tz(text) is not None:
            read += 1
            assert _may_be_rfc2822(text), text
        elif not _may_be_rfc2822(text):
            stopped += 1
    assert read > 5000 and stopped > 40000


def test_a_two_digit_year_run_into_its_time_is_no_year_1912() -> None:
    """Elements side by side (<span>28.09.19</span><span>12:44</span>) give "28.09.1912:44"."""
    assert parse_date("28.09.1912:44") == datetime(2019, 9, 28, 12, 44)
    assert parse_date("macbacchi28.09.1912:44") == datetime(2019, 9, 28, 12, 44)
    assert parse_date("28.09.1912") == datetime(1912, 9, 28)
    assert parse_date("Datum: 28.09.2019: neu") == datetime(2019, 9, 28)


def test_the_digit_first_patterns_and_the_cues_read_what_the_plain_forms_read() -> None:
    """_SHORT and _EN_DMY test for \\b / a lookbehind after their first digit, and the cues
    that spare a pattern's search never skip a text it matches: compared with the plain
    forms on random texts of date-like pieces."""
    plain_short = re.compile(dates._SHORT.pattern.replace(
        r"(?P<m>\d(?<![\d/.-]\d)\d?)", r"(?<![\d/.-])(?P<m>\d{1,2})"))
    plain_en_dmy = re.compile(dates._EN_DMY.pattern.replace(
        r"(?P<d>\d(?<!\w\d)\d?)", r"\b(?P<d>\d{1,2})"), re.I)
    assert plain_short.pattern != dates._SHORT.pattern
    assert plain_en_dmy.pattern != dates._EN_DMY.pattern
    pieces = [*"0123456789./-_ ,:\n", "٣", "ſ", "a", "é", "月", "日", "st", "de ", "May ",
              "mai", "Jan", "2019", "1999", "20", "19", "º", "junio", "at "]
    chance = random.Random(1)
    for _ in range(20000):
        text = "".join(chance.choice(pieces) for _ in range(chance.randint(1, 30)))
        for new, old in ((dates._SHORT, plain_short), (dates._EN_DMY, plain_en_dmy)):
            assert ([(m.span(), m.groupdict()) for m in new.finditer(text)]
                    == [(m.span(), m.groupdict()) for m in old.finditer(text)]), text
        for pattern, cue in dates._ABSOLUTE:
            assert cue is None or not pattern.search(text) or cue.search(text), text
