"""German amounts given to the model in figures (core/language/amounts.py), and the
English that says them in words: checked on values written by an independent writer
(num2words, test only, for the numbers; the German and English around them written
here from a table) in carrier sentences."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from num2words import num2words

from conftest import MONTHS_DE
from translator_app.core.language.amounts import amounts_in, english_amounts, in_figures


def _german(value: int, in_words: bool) -> str:
    """``value`` in digits, or in German words as num2words writes them, with „ein“
    where German counts one before a noun („ein Euro“, „ein Uhr“)."""
    if not in_words:
        return str(value)
    return "ein" if value == 1 else num2words(value, lang="de").replace("einstausend", "eintausend")


def _read_back(text: str) -> list[str]:
    return [figures for _, _, figures in amounts_in(text)]


def _spans_hold(text: str) -> None:
    """Every character of the text given to the model stands in ``text``, in order."""
    read, origins = in_figures(text)
    assert origins is not None and len(origins) == len(read) + 1
    assert list(origins) == sorted(origins) and origins[-1] == len(text)


@settings(max_examples=600, deadline=None)
@given(
    st.integers(1, 999), st.sampled_from(("Es dauert {} Stunden.", "Wir brauchen {} Liter Milch."))
)
def test_a_number_and_a_half_is_read_as_its_value(whole, carrier):
    word = "ein" if whole == 1 else _german(whole, True)
    text = carrier.format(word + "einhalb")
    assert _read_back(text) == [f"{whole},5"]
    assert in_figures(text)[0] == carrier.format(f"{whole},5")
    _spans_hold(text)


@settings(max_examples=1500, deadline=None)
@given(st.integers(0, 23), st.integers(1, 59), st.booleans(), st.booleans())
def test_a_clock_time_with_minutes_is_read_as_hours_and_minutes(hour, minute, h_words, m_words):
    text = f"Das Konzert beginnt um {_german(hour, h_words)} Uhr {_german(minute, m_words)}."
    assert _read_back(text) == [f"{hour}:{minute:02d} Uhr"]
    _spans_hold(text)


@settings(max_examples=1500, deadline=None)
@given(
    st.integers(0, 99_999),
    st.integers(1, 99),
    st.booleans(),
    st.booleans(),
    st.sampled_from(("Euro", "€")),
    st.sampled_from(("", "und ")),
    st.sampled_from(("", " Cent")),
)
def test_a_price_with_cents_is_read_as_a_decimal(whole, cents, e_words, c_words, cur, und, cent):
    text = f"Das kostet {_german(whole, e_words)} {cur} {und}{_german(cents, c_words)}{cent}."
    assert _read_back(text) == [f"{whole},{cents:02d} {cur}"]
    _spans_hold(text)


@settings(max_examples=1000, deadline=None)
@given(
    st.integers(1, 9998).flatmap(lambda a: st.tuples(st.just(a), st.integers(a + 1, 9999))),
    st.sampled_from(("-", "–", " - ", " – ")),
    st.sampled_from(("Werktage", "Uhr", "%", "€", "Personen")),
)
def test_a_range_in_digits_is_read_as_from_to(bounds, dash, noun):
    low, high = bounds
    text = f"Es sind {low}{dash}{high} {noun}."
    assert in_figures(text)[0] == f"Es sind {low} bis {high} {noun}."


@settings(max_examples=1000, deadline=None)
@given(
    st.integers(1, 31),
    st.integers(1, 12),
    st.booleans(),
    st.sampled_from(("am", "Am", "bis", "vom", "ab dem", "seit", "Montag,", "zum")),
    st.sampled_from((" ist der Laden zu.", "")),
)
def test_a_date_without_a_year_is_read_with_its_month(day, month, padded, opener, rest):
    written = f"{day:02d}.{month:02d}." if padded else f"{day}.{month}."
    text = f"{opener} {written}{rest}"
    expected = f"{day}. {MONTHS_DE[month - 1]}"
    # where the date's point closes the sentence too, the sentence keeps one
    assert in_figures(text)[0] == f"{opener} {expected}{rest or '.'}"
    _spans_hold(text)


@settings(max_examples=600, deadline=None)
@given(
    st.integers(1, 31),
    st.integers(1, 12),
    st.sampled_from(("am", "Am", "bis zum", "vom", "ab dem", "zum", "den", "der")),
)
def test_a_day_as_an_ordinal_in_words_before_a_month_is_read_in_digits(day, month, opener):
    word = num2words(day, lang="de", to="ordinal")  # „dritte“: the writer's form
    word += "" if opener == "der" else "n"  # „am dritten“, „der dritte“
    text = f"Wir kommen {opener} {word} {MONTHS_DE[month - 1]}."
    assert in_figures(text)[0] == f"Wir kommen {opener} {day}. {MONTHS_DE[month - 1]}."
    _spans_hold(text)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 31), st.sampled_from(("am", "Am", "zum", "bis zum", "vom")))
def test_a_day_said_as_a_noun_after_am_or_zum_is_read_in_digits(day, opener):
    word = num2words(day, lang="de", to="ordinal").capitalize() + "n"  # „zum Zwanzigsten“
    text = f"Die Miete ist {opener} {word} fällig."
    assert in_figures(text)[0] == f"Die Miete ist {opener} {day}. fällig."


@pytest.mark.parametrize(
    "text",
    [
        "Er sprach vom Zweiten Weltkrieg.",  # a noun after it: an ordinal, not a day
        "Zum ersten Mal war ich dort.",
        "Am zweiten Tag regnete es.",
        "Sie ist die Zweite.",  # not after „am“, „zum“, „vom“
        "Der dritte Mann kam.",
        "Wir sehen uns am letzten Mai-Wochenende.",
        "Wir achten auf den Mai.",  # a verb, and no ordinal before the month
        "Am Zweiunddreißigsten ist nichts.",  # no such day
    ],
)
def test_an_ordinal_that_is_no_day_is_left_alone(text):
    assert in_figures(text) == (text, None)


@pytest.mark.parametrize(
    "text, figures",
    [
        ("Die Sitzung dauert eine Dreiviertelstunde.", "45 Minuten"),
        ("Ich warte seit einer Viertelstunde.", "15 Minuten"),
        ("Ich wohne seit einem Dreivierteljahr hier.", "9 Monaten"),
        ("Es dauerte ein Dreivierteljahr.", "9 Monate"),
        ("Gib dreiviertel Liter Wasser dazu.", "0,75"),
        ("Anderthalb Stunden später kam er.", "1,5"),
        ("Es kostet ein Euro fünfzig.", "1,50 Euro"),
        ("Der Zug fährt um acht Uhr zehn ab.", "8:10 Uhr"),
        ("Kaum einer hat die Regeln verstanden.", "Fast keiner"),
        ("Ich habe kaum jemanden gesehen.", "fast niemanden"),
        ("Er hat kaum etwas gegessen.", "fast nichts"),
        ("Kaum eine hat Zeit.", "Fast keine"),
    ],
)
def test_quarters_and_words_read_from_a_table(text, figures):
    assert _read_back(text) == [figures]


@pytest.mark.parametrize(
    "text",
    [
        "Siehe Abschnitt 2.3.",  # a section, not a date: no preposition before it
        "Am 24.12.2026 ist zu.",  # a date with its year: the model keeps it
        "Am 24.12. 2026 ist zu.",
        "Um acht Uhr drei Kinder.",  # a count after the hour, not minutes
        "Das kostet 5 Euro 20 Tage lang.",
        "Die erste Viertelstunde war gut.",  # no „eine“: not the length of time
        "Ein Vierteljahr ist ein Quartal.",  # a quarter, which the model says
        "Dreiviertel der Leute kamen.",  # a share, not before a measure
        "Ruf 0221 9876-55 an.",  # a phone number
        "Es steht 5-3 für uns.",  # not a range: the first is larger
        "Um 25 Uhr 10.",  # no such hour
        "Um 24 Uhr 15.",  # the day ends at 24 Uhr: no minutes after it
        "Das kostet 5 Euro 120.",  # no such cents
        "Es sind dreiviertel voll.",
        "Es dauerte kaum eine Stunde.",  # an article: hardly an hour, not almost none
        "Das war kaum eine gute Idee.",
        "Er hat kaum etwas Brot.",
    ],
)
def test_what_is_no_such_amount_is_left_alone(text):
    assert in_figures(text) == (text, None)


@settings(max_examples=1000, deadline=None)
@given(st.integers(0, 99), st.integers(1, 99), st.booleans(), st.sampled_from(("euros", "dollars")))
def test_an_english_price_in_words_is_read_as_a_decimal(whole, cents, in_digits, currency):
    said = str(whole) if in_digits else num2words(whole, lang="en")
    text = f"The book costs {said} {currency} {num2words(cents, lang='en')}."
    assert [f for _, _, f in english_amounts(text)] == [f"{whole}.{cents:02d}"]


@pytest.mark.parametrize(
    "text, figures",
    [
        ("It lasts three quarters of an hour.", ["45"]),
        ("I waited for a quarter of an hour.", ["15"]),
        ("I waited a quarter-hour.", ["15"]),
        ("For the next hour and a half, I listened.", ["1.5"]),
        ("It took a year and a half.", ["1.5"]),
        ("It costs nineteen euros.", []),  # no cents: a price the digit reader reads
        ("It costs nineteen euros and some.", []),
        ("It starts at nineteen p.m.", []),
    ],
)
def test_english_amounts_from_a_table(text, figures):
    assert [f for _, _, f in english_amounts(text)] == figures


_WEEKDAYS = ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag")
# each time of day with „jeden“ or „jede“ as its gender asks (Nacht is feminine)
_DAYTIMES = {"morgen": "jeden", "vormittag": "jeden", "mittag": "jeden",
             "nachmittag": "jeden", "abend": "jeden", "nacht": "jede"}  # fmt: skip


@pytest.mark.parametrize("weekday", _WEEKDAYS)
@pytest.mark.parametrize("daytime", sorted(_DAYTIMES))
def test_a_weekday_and_a_time_of_day_as_one_adverb_is_read_as_every(weekday, daytime):
    adverb = f"{weekday.lower()}{daytime}s"
    every = f"{_DAYTIMES[daytime]} {weekday}{daytime}"
    assert in_figures(f"Das Museum ist {adverb} geschlossen.")[0] == (
        f"Das Museum ist {every} geschlossen."
    )
    opening = f"{adverb.title()} ist es still."
    assert in_figures(opening)[0] == f"{every[0].upper()}{every[1:]} ist es still."
    assert in_figures(f"Die {weekday}{daytime}srunde.") == (f"Die {weekday}{daytime}srunde.", None)
