"""Which months get a partition of the search table of their own."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

from models.search.partitions import month_of, months_for, partition_name

NOW = datetime(2026, 12, 31, 23, 0, tzinfo=UTC)


def test_a_month_is_the_utc_calendar_month() -> None:
    beijing = timezone(timedelta(hours=8))
    assert month_of(datetime(2026, 12, 1, 3, 0, tzinfo=beijing)) == date(2026, 11, 1)
    assert month_of(datetime(2026, 12, 1, 3, 0)) == date(2026, 12, 1)  # naive: UTC
    assert partition_name(date(2026, 3, 1)) == "search_document_y2026m03"


def test_months_from_the_oldest_to_the_next_and_the_current_always() -> None:
    moments = [datetime(2019, 5, 10, tzinfo=UTC), datetime(1970, 1, 1, tzinfo=UTC),
               datetime(1999, 12, 31, tzinfo=UTC), datetime(2000, 1, 1, tzinfo=UTC),
               datetime(2027, 1, 15, tzinfo=UTC), datetime(2027, 2, 1, tzinfo=UTC), None]
    assert months_for(moments, NOW) == {date(2019, 5, 1), date(2000, 1, 1), date(2027, 1, 1),
                                        date(2026, 12, 1)}
    assert months_for([], NOW) == {date(2026, 12, 1)}
