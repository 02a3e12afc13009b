"""The faithful-translation test set of bench/bench_faithful.py (issue 30).

    .venv/bin/python bench/faithful_set.py    # rewrites bench/faithful.jsonl

Office and everyday sentences, written for this bench, each with the facts its English
must keep: names (many of them surnames that are German words: Schneider, Koch, Richter),
numbers in German format, prices, times, dates, places with and without English names,
phone and invoice numbers, units. Templates are filled from the lists below with a fixed
seed, so the file is the same on every run; it is committed so that a change shows in a
diff. A required item is a list of accepted spellings in English conventions (12.50,
1,150, Munich, "9 a.m." or "9 o'clock"); it is kept if one of them appears.

Keep this set out of training: its names and places partly differ from the lists of the
training augmentation and the translator's protection (translator_app/core/faithful/entity_lists.py)
on purpose, so that the bench measures copying that generalises.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from translator_app.core.faithful.number_check import CARDINALS, MONTHS_DE, MONTHS_EN

OUT = Path(__file__).with_name("faithful.jsonl")

SURNAMES = [
    "Schneider",
    "Fischer",
    "Koch",
    "Richter",
    "Wolf",
    "Braun",
    "Hoffmann",
    "Müller",
    "Schmidt",
    "Weber",
    "Becker",
    "Wagner",
    "Schäfer",
    "Bauer",
    "Vogel",
    "Jäger",
    "Krause",
    "Zimmermann",
    "Kaiser",
    "König",
    "Fuchs",
    "Lang",
    "Krüger",
    "Neumann",
    "Schwarz",
    "Schreiber",
    "Schuster",
    "Hartmann",
    "Sommer",
    "Kellner",
    "Töpfer",
    "Glaser",
    "Seiler",
    "Drechsler",
    "Lindner",
    "Hofer",
    "Wendt",
    "Kessler",
    "Zöllner",
    "Pfarrer",
    "Bäumer",
    "Sattler",
    "Kürschner",
    "Stellmacher",
]
FIRST = [
    "Sabine",
    "Thomas",
    "Katharina",
    "Jürgen",
    "Ute",
    "Lars",
    "Inge",
    "Björn",
    "Heike",
    "Matthias",
    "Franziska",
    "Rainer",
    "Gudrun",
    "Till",
    "Antje",
    "Hauke",
    "Mareike",
    "Volker",
    "Dörte",
    "Henrik",
    "Wiebke",
    "Torben",
    "Svenja",
    "Malte",
]
# (German, English); the first group has English exonyms.
EXONYMS = (
    ("München", "Munich"),
    ("Köln", "Cologne"),
    ("Wien", "Vienna"),
    ("Nürnberg", "Nuremberg"),
    ("Zürich", "Zurich"),
    ("Genf", "Geneva"),
    ("Mailand", "Milan"),
    ("Venedig", "Venice"),
    ("Prag", "Prague"),
    ("Brüssel", "Brussels"),
    ("Lüttich", "Liège"),
    ("Den Haag", "The Hague"),
)
PLACES = [
    "Stuttgart",
    "Regensburg",
    "Osnabrück",
    "Göttingen",
    "Konstanz",
    "Lübeck",
    "Trier",
    "Bamberg",
    "Passau",
    "Koblenz",
    "Ingolstadt",
    "Bielefeld",
    "Paderborn",
    "Heilbronn",
    "Wolfsburg",
    "Dortmund",
    "Leipzig",
    "Dresden",
]
MONTHS = tuple(zip(MONTHS_DE, MONTHS_EN, strict=True))
HOURS_EN = CARDINALS[1:13]  # one .. twelve
HOURS_DE = [
    "eins",
    "zwei",
    "drei",
    "vier",
    "fünf",
    "sechs",
    "sieben",
    "acht",
    "neun",
    "zehn",
    "elf",
    "zwölf",
]


def de_num(n: int | float, decimals: int = 0) -> str:
    """German format: 1.150 and 12,50."""
    s = f"{n:,.{decimals}f}"
    return s.replace(",", "_").replace(".", ",").replace("_", ".")


def en_num(n: int | float, decimals: int = 0) -> str:
    return f"{n:,.{decimals}f}"


def name_items(rng: random.Random) -> list[dict]:
    S, F = SURNAMES, FIRST
    templates = [
        ("Frau {s} hat heute Morgen angerufen.", "s"),
        ("Herr {s} kommt morgen ins Büro.", "s"),
        ("Bitte leiten Sie die E-Mail an Frau {s} weiter.", "s"),
        ("Ich habe gestern mit Herrn {s} gesprochen.", "s"),
        ("{f} {s} arbeitet seit drei Jahren in unserer Abteilung.", "fs"),
        ("Die Firma {s} GmbH hat die Rechnung bezahlt.", "s"),
        ("Sehr geehrte Frau {s}, vielen Dank für Ihre Nachricht.", "s"),
        ("Sehr geehrter Herr {s}, anbei finden Sie den Vertrag.", "s"),
        ("{f} hat das Protokoll an Herrn {s} geschickt.", "fs"),
        ("Können Sie bitte Frau {s} einen Termin geben?", "s"),
        ("Mit freundlichen Grüßen, {f} {s}", "fs"),
        ("Das Angebot von {s} & Partner ist günstiger.", "s"),
        ("{f} und {f2} treffen sich mit Frau {s}.", "ff2s"),
        ("Herr Dr. {s} ist heute nicht im Haus.", "s"),
        ("Ich habe {f} {s} auf der Messe getroffen.", "fs"),
        ("Die Praxis von Frau Dr. {s} ist am Freitag geschlossen.", "s"),
    ]
    out = []
    for template, slots in templates:
        for _ in range(6):
            s, f, f2 = rng.choice(S), rng.choice(F), rng.choice(F)
            while f2 == f:
                f2 = rng.choice(F)
            de = template.format(s=s, f=f, f2=f2)
            req = [
                [s]
                + (
                    [s.replace("ü", "ue").replace("ö", "oe").replace("ä", "ae")]
                    if any(c in s for c in "äöü")
                    else []
                )
            ]
            if "f" in slots.replace("f2", ""):
                req.append([f])
            if "f2" in slots:
                req.append([f2])
            out.append({"category": "names", "de": de, "require": req})
    return out


def number_items(rng: random.Random) -> list[dict]:
    out = []
    units = [
        ("Kilogramm", ["kilogram", "kilograms", "kilogrammes", "kilogramme", "kg"]),
        ("Kilometer", ["kilometre", "kilometres", "kilometer", "kilometers", "km"]),
        ("Liter", ["litre", "litres", "liter", "liters"]),
        ("Meter", ["metre", "metres", "meter", "meters", "m"]),
        ("Prozent", ["percent", "per cent", "%"]),
    ]
    for _ in range(30):
        unit, en_units = rng.choice(units)
        v = rng.randrange(11, 999) / 10
        de = rng.choice(
            [
                "Das Paket wiegt {n} {u}.",
                "Die Strecke ist {n} {u} lang.",
                "Der Wert ist im letzten Jahr um {n} {u} gestiegen.",
                "Laut Bericht waren es genau {n} {u}.",
            ]
        )
        if unit in ("Prozent",) and "wiegt" in de:
            de = "Die Kosten sind um {n} {u} gesunken."
        if unit == "Prozent" and "lang" in de:
            de = "Der Anteil liegt bei {n} {u}."
        out.append(
            {
                "category": "numbers",
                "de": de.format(n=de_num(v, 1), u=unit),
                "require": [[en_num(v, 1)], en_units],
            }
        )
    for _ in range(30):
        n = rng.choice([rng.randrange(1001, 9999), rng.randrange(10_000, 999_999)])
        de = rng.choice(
            [
                "Die Stadt hat {n} Einwohner.",
                "Wir haben {n} Bestellungen erhalten.",
                "Im Lager liegen noch {n} Stück.",
                "Die Konferenz hatte {n} Besucher.",
                "Der Bericht nennt {n} betroffene Kunden.",
            ]
        )
        out.append({"category": "numbers", "de": de.format(n=de_num(n)), "require": [[en_num(n)]]})
    return out


def price_items(rng: random.Random) -> list[dict]:
    out = []
    templates = [
        "Das Buch kostet {p}.",
        "Die Reparatur kostet {p} ohne Steuer.",
        "Bitte überweisen Sie {p} bis Ende des Monats.",
        "Der Preis wurde auf {p} gesenkt.",
        "Wir bieten Ihnen das Gerät für {p} an.",
        "Die Rechnung beträgt insgesamt {p}.",
        "Für die Anmeldung zahlen Sie {p}.",
        "Das Ticket kostet nur noch {p}.",
    ]
    for _ in range(50):
        kind = rng.randrange(3)
        if kind == 0:
            v, dec = rng.randrange(100, 9999) / 100, 2
        elif kind == 1:
            v, dec = rng.randrange(5, 999), 0
        else:
            v, dec = rng.randrange(1001, 99_999), 0
        amount = de_num(v, dec)
        p = rng.choice([f"{amount} €", f"{amount} Euro", f"{amount} EUR"])
        out.append(
            {
                "category": "prices",
                "de": rng.choice(templates).format(p=p),
                "require": [[en_num(v, dec)], ["€", "euro", "euros", "EUR"]],
            }
        )
    return out


def _clock_items(h24: int, m: int) -> list[str]:
    h12 = h24 % 12 or 12
    suffix = ["a.m.", "am", "a. m."] if h24 < 12 else ["p.m.", "pm", "p. m."]
    forms = [f"{h24}:{m:02d}", f"{h24:02d}:{m:02d}", f"{h24}.{m:02d}"]
    forms += [f"{h12}:{m:02d} {s}" for s in suffix] + [f"{h12}:{m:02d}{s}" for s in suffix]
    if m == 0:
        forms += [f"{h12} {s}" for s in suffix] + [f"{h12}{s}" for s in suffix]
        if h24 <= 12:
            forms += [f"{h24} o'clock"]
    return forms


def time_items(rng: random.Random) -> list[dict]:
    out = []
    for _ in range(16):  # "um 9 Uhr": morning hours, o'clock or a.m.
        h = rng.randrange(7, 12)
        de = rng.choice(
            [
                "Das Meeting beginnt um {h} Uhr.",
                "Ich bin morgen um {h} Uhr im Büro.",
                "Der Zug fährt um {h} Uhr ab.",
                "Wir treffen uns um {h} Uhr am Eingang.",
            ]
        ).format(h=h)
        out.append({"category": "times", "de": de, "require": [_clock_items(h, 0)]})
    for _ in range(16):  # "bis 14 Uhr": afternoon, 24-hour German
        h = rng.randrange(13, 20)
        de = rng.choice(
            [
                "Der Laden ist bis {h} Uhr geöffnet.",
                "Bitte schicken Sie die Unterlagen bis {h} Uhr.",
                "Die Sprechstunde endet um {h} Uhr.",
                "Ich komme am Freitag um {h} Uhr nach Hause.",
            ]
        ).format(h=h)
        out.append({"category": "times", "de": de, "require": [_clock_items(h, 0)]})
    for _ in range(12):  # "14:35 Uhr"
        h, m = rng.randrange(6, 23), rng.randrange(1, 60)
        de = rng.choice(
            [
                "Der Flug landet um {t} Uhr.",
                "Die Besprechung wurde auf {t} Uhr verschoben.",
                "Der Bus kommt um {t} Uhr an.",
            ]
        ).format(t=f"{h}:{m:02d}")
        out.append({"category": "times", "de": de, "require": [_clock_items(h, m)]})
    for _ in range(10):  # "halb acht": half past the hour before
        k = rng.randrange(6, 12)  # halb sieben .. halb zwölf
        h = k - 1
        de = rng.choice(
            [
                "Wir essen um halb {w}.",
                "Der Film fängt um halb {w} an.",
                "Ich hole dich um halb {w} ab.",
            ]
        ).format(w=HOURS_DE[k - 1])
        forms = [f"half past {HOURS_EN[h - 1]}", f"half {HOURS_EN[h - 1]}"]
        forms += [f"{h}:30", f"{h}.30", f"{h + 12}:30"]
        out.append({"category": "times", "de": de, "require": [forms]})
    return out


def _date_forms(d: int, month_en: str) -> list[str]:
    suf = "th" if 10 <= d % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")
    return [
        f"{d} {month_en}",
        f"{month_en} {d}",
        f"{d}{suf} {month_en}",
        f"{month_en} {d}{suf}",
        f"{d}{suf} of {month_en}",
    ]


def date_items(rng: random.Random) -> list[dict]:
    out = []
    for _ in range(24):  # "am 3. Mai"
        d, (m_de, m_en) = rng.randrange(1, 29), rng.choice(MONTHS)
        de = rng.choice(
            [
                "Die Lieferung kommt am {d}. {m}.",
                "Unser Büro ist am {d}. {m} geschlossen.",
                "Die Frist endet am {d}. {m}.",
                "Ich habe am {d}. {m} Geburtstag.",
            ]
        ).format(d=d, m=m_de)
        out.append({"category": "dates", "de": de, "require": [_date_forms(d, m_en)]})
    for _ in range(16):  # "am 14. März 2024"
        d, (m_de, m_en), y = rng.randrange(1, 29), rng.choice(MONTHS), rng.randrange(2019, 2028)
        de = rng.choice(
            [
                "Der Vertrag wurde am {d}. {m} {y} unterschrieben.",
                "Am {d}. {m} {y} feiern wir unser Jubiläum.",
                "Die Rechnung vom {d}. {m} {y} ist noch offen.",
            ]
        ).format(d=d, m=m_de, y=y)
        out.append({"category": "dates", "de": de, "require": [_date_forms(d, m_en), [str(y)]]})
    for _ in range(10):  # "am 24.12."
        m = rng.randrange(1, 13)
        d = rng.randrange(1, 29)
        m_en = MONTHS[m - 1][1]
        de = rng.choice(
            [
                "Ich bin ab dem {d}.{m}. im Urlaub.",
                "Die Messe findet am {d}.{m}. statt.",
            ]
        ).format(d=d, m=m)
        forms = _date_forms(d, m_en) + [f"{d}.{m}.", f"{m}/{d}", f"{d}/{m}"]
        out.append({"category": "dates", "de": de, "require": [forms]})
    return out


def place_items(rng: random.Random) -> list[dict]:
    out = []
    templates = [
        "Ich fahre morgen nach {p}.",
        "Wir wohnen seit zehn Jahren in {p}.",
        "Der Kunde sitzt in {p}.",
        "Die Konferenz findet dieses Jahr in {p} statt.",
        "Unser neues Büro in {p} eröffnet im Frühjahr.",
    ]
    for de_place, en_place in EXONYMS:
        for template in rng.sample(templates, 2):
            out.append(
                {"category": "places", "de": template.format(p=de_place), "require": [[en_place]]}
            )
    for place in rng.sample(PLACES, 16):
        out.append(
            {
                "category": "places",
                "de": rng.choice(templates).format(p=place),
                "require": [[place]],
            }
        )
    return out


def code_items(rng: random.Random) -> list[dict]:
    out = []
    for _ in range(12):
        phone = f"0{rng.randrange(151, 179)} {rng.randrange(1_000_000, 9_999_999)}"
        de = rng.choice(
            [
                "Sie erreichen mich unter {x}.",
                "Meine Telefonnummer ist {x}.",
                "Bitte rufen Sie {x} an.",
            ]
        ).format(x=phone)
        out.append({"category": "codes", "de": de, "require": [[phone]]})
    for _ in range(12):
        inv = f"{rng.randrange(2019, 2027)}-{rng.randrange(1, 9999):04d}"
        de = rng.choice(
            [
                "Bitte geben Sie die Rechnungsnummer {x} an.",
                "Die Rechnung {x} ist noch nicht bezahlt.",
                "Ihre Bestellnummer lautet {x}.",
            ]
        ).format(x=inv)
        out.append({"category": "codes", "de": de, "require": [[inv]]})
    for _ in range(8):
        room, floor = rng.randrange(101, 499), rng.randrange(2, 9)
        de = f"Das Meeting ist in Raum {room} im {floor}. Stock."
        floor_en = [
            f"{floor}{'nd' if floor == 2 else 'rd' if floor == 3 else 'th'}",
            HOURS_EN[floor - 1],
        ] + [["second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"][floor - 2]]
        out.append({"category": "codes", "de": de, "require": [[str(room)], floor_en]})
    return out


def build(seed: int = 30) -> list[dict]:
    rng = random.Random(seed)
    items = []
    for make in (
        name_items,
        number_items,
        price_items,
        time_items,
        date_items,
        place_items,
        code_items,
    ):
        items += make(rng)
    seen, unique = set(), []
    for item in items:
        if item["de"] not in seen:
            seen.add(item["de"])
            unique.append(item)
    return unique


def main() -> None:
    items = build()
    with open(OUT, "w", encoding="utf-8") as f:
        for item in items:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
    cats: dict[str, int] = {}
    for item in items:
        cats[item["category"]] = cats.get(item["category"], 0) + 1
    print(f"{len(items)} sentences written to {OUT}: {cats}")


if __name__ == "__main__":
    main()
