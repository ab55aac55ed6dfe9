"""Dates and times as a school reads them: one helper for every page, sheet and file that shows one.

Japanese: 12月2日, 2026年4月 and 2026年12月2日 11:43 (never ISO, never a zone's abbreviation such as JST: a school knows its
own time); English: 2 Dec, Apr 2026 and 2 Dec 2026 11:43. The patterns are Babel's CLDR skeletons, so each language gets
its own order. A stored moment is UTC (naive values are read as UTC) and is shown in the zone given, the app's.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, tzinfo

from babel.dates import format_skeleton, format_time

_LOCALES = {"ja": "ja", "en": "en_GB"}


def date_text(day: date, lang: str) -> str:
    """A day without its year: 12月2日 / 2 Dec."""
    return format_skeleton("MMMd", day, locale=_LOCALES.get(lang, "ja"))


def day_text(day: date, lang: str) -> str:
    """A day with its year, as a sentence writes it: 2027年6月29日 / 29 Jun 2027."""
    return format_skeleton("yMMMd", day, locale=_LOCALES.get(lang, "ja"))


def month_text(day: date, lang: str) -> str:
    """The month of a day, with its year: 2026年4月 / Apr 2026."""
    return format_skeleton("yMMM", day, locale=_LOCALES.get(lang, "ja"))


def moment_text(moment: datetime, lang: str, zone: tzinfo) -> str:
    """A moment with its date and time in `zone`: 2026年12月2日 11:43 / 2 Dec 2026 11:43."""
    aware = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(zone)
    locale = _LOCALES.get(lang, "ja")
    return f"{format_skeleton('yMMMd', aware, locale=locale)} {format_time(aware, 'H:mm', locale=locale)}"
