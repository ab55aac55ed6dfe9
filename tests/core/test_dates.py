"""suji.core.dates: one way to write a date and a time, as a Japanese school does (12月2日, 2026年12月2日 11:43)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from suji.core.dates import date_text, day_text, moment_text

TOKYO = ZoneInfo("Asia/Tokyo")


def test_a_day_and_a_moment_in_japanese_and_english():
    assert date_text(date(2026, 12, 2), "ja") == "12月2日"
    assert date_text(date(2026, 12, 2), "en") == "2 Dec"
    moment = datetime(2026, 12, 2, 2, 43, tzinfo=UTC)  # 11:43 in Tokyo
    assert moment_text(moment, "ja", TOKYO) == "2026年12月2日 11:43"
    assert moment_text(moment, "en", TOKYO) == "2 Dec 2026 11:43"


def test_a_stored_naive_moment_is_utc_and_no_zone_name_or_iso_is_printed():
    text = moment_text(datetime(2026, 12, 31, 15, 5), "ja", TOKYO)
    assert text == "2027年1月1日 0:05"
    assert "JST" not in text and "-" not in text


def test_a_day_with_its_year_as_a_sentence_writes_it():
    assert day_text(date(2027, 6, 29), "ja") == "2027年6月29日" and day_text(date(2027, 6, 29), "en") == "29 Jun 2027"
