"""A register corpus of the project's own (issue 46): the building blocks of letters,
e-mails, forms and shop text, combined with varied content into sentence pairs, as
translation teams build translation memories.

Each template is a German sentence and its English with slots; each slot fills from a
list of German/English pairs (names, weekdays, dates, times, amounts, documents, goods,
counts). Everything is deterministic for a seed. The corpus is training data only: the
register dev and test sets (testsets/register) are never built from it, and
scripts/prepare_data.py removes every pair that matches one of their sentences.

    python -m trainer.register_corpus --pairs 8000 --seed 1 > register.tsv
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Iterator


# ------------------------------------------------------------------ slot fillers
def _words(text: str) -> list[str]:
    return text.split()


def _rows(text: str) -> list[tuple[str, ...]]:
    """A table written as lines of " | "-separated columns."""
    return [tuple(c.strip() for c in line.split(" | ")) for line in text.strip().splitlines()]


SURNAMES = _words(
    """
Albrecht Arnold Bach Baumann Berger Brandt Busch Dietrich Ebert Engel Falk Frank
Friedrich Fuchs Graf Günther Haas Hahn Hartmann Heinrich Herrmann Horn Huber Jäger
Kaiser Kraus Kuhn Lange Lorenz Ludwig Maier Marx Möller Nowak Otto Peters Pohl Ritter
Roth Sauer Schubert Schuster Seidel Simon Sommer Stein Thomas Ulrich Vogt Walter Weiß
Winkler Ziegler Zimmermann
"""
)
WOMEN = _words(
    """
Anja Birgit Carina Doris Elena Franziska Greta Hanna Ines Jana Katrin Lea Marie Nina
Paula Rita Sophie Tanja Ute Vera
"""
)
MEN = _words(
    """
Andreas Bernd Christian Daniel Erik Felix Georg Holger Jan Jonas Kai Lukas Matthias
Niklas Oliver Paul Ralf Stefan Tim Uwe
"""
)


WEEKDAYS = _rows(
    """
Montag | Monday
Dienstag | Tuesday
Mittwoch | Wednesday
Donnerstag | Thursday
Freitag | Friday
Samstag | Saturday
"""
)
MONTHS = _rows(
    """
Januar | January
Februar | February
März | March
April | April
Mai | May
Juni | June
Juli | July
August | August
September | September
Oktober | October
November | November
Dezember | December
"""
)
COUNTS = _rows(
    """
zwei | two
drei | three
vier | four
fünf | five
sechs | six
sieben | seven
acht | eight
zehn | ten
zwölf | twelve
zwanzig | twenty
"""
)
# What letters send, ask for and confirm (German accusative with article | English).
DOCUMENTS = _rows(
    """
die Rechnung | the invoice
das Angebot | the quotation
den Vertrag | the contract
die Unterlagen | the documents
das Protokoll | the minutes
die Auftragsbestätigung | the order confirmation
den Lieferschein | the delivery note
die Gutschrift | the credit note
den Kostenvoranschlag | the cost estimate
die Bescheinigung | the certificate
die Vollmacht | the power of attorney
den Mietvertrag | the tenancy agreement
die Preisliste | the price list
den Bericht | the report
die Präsentation | the presentation
"""
)
# What one thanks for (German after "für" | English).
THANKS_FOR = _rows(
    """
Ihre Nachricht | your message
Ihre E-Mail | your e-mail
Ihre Anfrage | your enquiry
Ihre Bestellung | your order
Ihre Bewerbung | your application
Ihr Interesse | your interest
Ihre Geduld | your patience
Ihren Anruf | your call
Ihre Rückmeldung | your feedback
Ihre Unterstützung | your support
"""
)
MEETINGS = _rows(
    """
unseren Termin | our appointment
das Treffen | the meeting
die Besprechung | the meeting
das Gespräch | the conversation
die Telefonkonferenz | the conference call
den Besichtigungstermin | the viewing
"""
)
# Goods: German plural | English plural | German singular with its accusative article | English singular.
GOODS = _rows(
    """
Bürostühle | office chairs | einen Bürostuhl | an office chair
Schreibtischlampen | desk lamps | eine Schreibtischlampe | a desk lamp
Druckerpatronen | printer cartridges | eine Druckerpatrone | a printer cartridge
Aktenordner | lever arch files | einen Aktenordner | a lever arch file
Sonnenschirme | sunshades | einen Sonnenschirm | a sunshade
Gartenstühle | garden chairs | einen Gartenstuhl | a garden chair
Wasserkocher | kettles | einen Wasserkocher | a kettle
Kaffeemaschinen | coffee machines | eine Kaffeemaschine | a coffee machine
Bettdecken | duvets | eine Bettdecke | a duvet
Regale | shelves | ein Regal | a shelf
Laptoptaschen | laptop bags | eine Laptoptasche | a laptop bag
Winterjacken | winter jackets | eine Winterjacke | a winter jacket
Fahrradhelme | bicycle helmets | einen Fahrradhelm | a bicycle helmet
Handtücher | towels | ein Handtuch | a towel
Küchenwaagen | kitchen scales | eine Küchenwaage | a set of kitchen scales
Staubsauger | vacuum cleaners | einen Staubsauger | a vacuum cleaner
"""
)
CRATES = _rows(
    """
Mineralwasser | mineral water
Apfelschorle | apple spritzer
Orangensaft | orange juice
Bier | beer
Limonade | lemonade
"""
)
DEPARTMENTS = _rows(
    """
die Buchhaltung | the accounts department
die Personalabteilung | the human resources department
den Kundenservice | customer service
die Geschäftsleitung | the management
den Vertrieb | the sales department
die Hausverwaltung | the property management
"""
)
SALUTATIONS = _rows(
    """
Sehr geehrte Frau {surname}, | Dear Ms {surname},
Sehr geehrter Herr {surname}, | Dear Mr {surname},
Sehr geehrte Damen und Herren, | Dear Sir or Madam,
Liebe {woman}, | Dear {woman},
Lieber {man}, | Dear {man},
Hallo {woman}, | Hi {woman},
Hallo Herr {surname}, | Hello Mr {surname},
Guten Tag Frau {surname}, | Hello Ms {surname},
Liebe Kolleginnen und Kollegen, | Dear colleagues,
"""
)
CLOSINGS = _rows(
    """
Mit freundlichen Grüßen | Kind regards
Mit freundlichen Grüßen | Yours sincerely
Freundliche Grüße | Kind regards
Viele Grüße | Best wishes
Beste Grüße | Best regards
Liebe Grüße | Love
Herzliche Grüße | Warm regards
Mit besten Grüßen | Best regards
"""
)
# Sentences of letters, e-mails, forms and shops: German | English, slots in braces.
TEMPLATES = _rows(
    """
Vielen Dank für {thanks_de}. | Thank you for {thanks_en}.
Herzlichen Dank für {thanks_de}! | Many thanks for {thanks_en}!
Anbei erhalten Sie {doc_de}. | Please find attached {doc_en}.
Im Anhang finden Sie {doc_de}. | You will find {doc_en} attached.
Könnten Sie mir {doc_de} bis {weekday_de} schicken? | Could you send me {doc_en} by {weekday_en}?
Bitte senden Sie {doc_de} unterschrieben zurück. | Please return {doc_en} signed.
Leider muss ich {meeting_de} am {weekday_de} um {hour_de} Uhr absagen. | Unfortunately I have to cancel {meeting_en} on {weekday_en} at {hour_en}.
Können wir {meeting_de} auf {weekday_de} verschieben? | Can we move {meeting_en} to {weekday_en}?
Passt Ihnen {weekday_de} um {hour_de} Uhr? | Does {weekday_en} at {hour_en} suit you?
Hiermit bestätige ich {meeting_de} am {date_de}. | I hereby confirm {meeting_en} on {date_en}.
Ich bin vom {date_de} bis zum {date2_de} nicht im Büro. | I am out of the office from {date_en} to {date2_en}.
Ab dem {date_de} bin ich wieder erreichbar. | I can be reached again from {date_en}.
In dringenden Fällen wenden Sie sich bitte an Frau {surname}. | In urgent cases, please contact Ms {surname}.
Während meiner Abwesenheit vertritt mich Herr {surname}. | Mr {surname} is standing in for me during my absence.
Ich leite Ihre Anfrage an {dept_de} weiter. | I will forward your enquiry to {dept_en}.
Bitte wenden Sie sich an {dept_de}. | Please contact {dept_en}.
Bitte überweisen Sie {amount_de} bis zum {date_de}. | Please transfer {amount_en} by {date_en}.
Der Rechnungsbetrag von {amount_de} ist bis zum {date_de} fällig. | The invoice amount of {amount_en} is due by {date_en}.
Leider haben wir Ihre Zahlung von {amount_de} noch nicht erhalten. | Unfortunately we have not yet received your payment of {amount_en}.
Der Preis von {amount_de} versteht sich zuzüglich Mehrwertsteuer. | The price of {amount_en} is exclusive of VAT.
Der Preis beträgt {amount_de} inklusive Mehrwertsteuer. | The price is {amount_en} including VAT.
Wir haben {count_de} {goods_pl_de} bestellt. | We have ordered {count_en} {goods_pl_en}.
Ich möchte {goods_sg_de} zurückschicken. | I would like to return {goods_sg_en}.
Bitte liefern Sie {count_de} {goods_pl_de} bis {weekday_de}. | Please deliver {count_en} {goods_pl_en} by {weekday_en}.
Die Lieferung dauert etwa {count_de} Werktage. | Delivery takes about {count_en} working days.
Die {goods_pl_de} sind leider erst in {count_de} Wochen lieferbar. | Unfortunately the {goods_pl_en} will not be available for {count_en} weeks.
Bitte bestellen Sie {count_de} Kisten {crate_de}. | Please order {count_en} crates of {crate_en}.
Ihre Bestellung Nr. {order} wurde heute versandt. | Your order no. {order} was dispatched today.
Bitte geben Sie bei Rückfragen Ihre Kundennummer {order} an. | Please quote your customer number {order} if you have any questions.
Das Paket wurde am {date_de} bei Ihrem Nachbarn abgegeben. | The parcel was left with your neighbour on {date_en}.
Der Techniker kommt am {weekday_de} zwischen {hour_de} und {hour2_de} Uhr. | The technician will come on {weekday_en} between {hour_en} and {hour2_en}.
Wir haben am {weekday_de} von {hour_de} bis {hour2_de} Uhr geöffnet. | On {weekday_en} we are open from {hour_en} to {hour2_en}.
Die Besprechung findet am {date_de} um {hour_de} Uhr statt. | The meeting will take place on {date_en} at {hour_en}.
Bitte melden Sie sich bis spätestens {weekday_de} an. | Please register by {weekday_en} at the latest.
Ich melde mich am {weekday_de} wieder bei Ihnen. | I will get back to you on {weekday_en}.
Frau {surname} ruft Sie am {weekday_de} zurück. | Ms {surname} will call you back on {weekday_en}.
Herr {surname} ist bis {weekday_de} im Urlaub. | Mr {surname} is on holiday until {weekday_en}.
Kannst du am {weekday_de} die Kinder abholen? | Can you pick up the children on {weekday_en}?
Hast du am {weekday_de} Zeit für einen Kaffee? | Do you have time for a coffee on {weekday_en}?
Wir treffen uns am {weekday_de} um {hour_de} Uhr am Bahnhof. | We'll meet at the station on {weekday_en} at {hour_en}.
Vergiss bitte nicht, {goods_sg_de} zu kaufen. | Please don't forget to buy {goods_sg_en}.
Die Wohnungsübergabe ist am {date_de} um {hour_de} Uhr. | The handover of the flat is on {date_en} at {hour_en}.
Die Frist endet am {date_de}. | The deadline is {date_en}.
Der Antrag muss bis zum {date_de} eingereicht werden. | The application must be submitted by {date_en}.
Bitte reichen Sie {doc_de} bis zum {date_de} ein. | Please submit {doc_en} by {date_en}.
Ich habe {doc_de} noch nicht erhalten. | I have not yet received {doc_en}.
Ich habe {doc_de} unterschrieben zurückgeschickt. | I have returned {doc_en} signed.
Entschuldigen Sie bitte die Verspätung. | Please excuse the delay.
Ich freue mich auf Ihre Antwort. | I look forward to your reply.
Für Fragen zu Ihrer Bestellung Nr. {order} stehe ich Ihnen gerne zur Verfügung. | I am happy to answer any questions about your order no. {order}.
"""
)


def _date(rng: random.Random) -> tuple[str, str]:
    day, (month_de, month_en) = rng.randint(1, 28), rng.choice(MONTHS)
    return f"{day}. {month_de}", f"{day} {month_en}"


def _hour(rng: random.Random, after: int = 6) -> tuple[str, str, int]:
    h = rng.randint(after + 1, 19)
    en = f"{h} a.m." if h < 12 else ("12 noon" if h == 12 else f"{h - 12} p.m.")
    return str(h), en, h


def _amount(rng: random.Random) -> tuple[str, str]:
    euros, cents = (
        rng.choice((rng.randint(5, 99), rng.randint(100, 2500))),
        rng.choice((0, 50, 90, 99)),
    )
    if cents:
        return f"{euros},{cents:02d} €", f"€{euros}.{cents:02d}"
    return f"{euros} Euro", f"{euros} euros"


def _fill(rng: random.Random) -> dict[str, str]:
    """One value for every slot (German and English together)."""
    slots: dict[str, str] = {"surname": rng.choice(SURNAMES)}
    slots["woman"], slots["man"] = rng.choice(WOMEN), rng.choice(MEN)
    for key, table in (
        ("thanks", THANKS_FOR),
        ("doc", DOCUMENTS),
        ("meeting", MEETINGS),
        ("weekday", WEEKDAYS),
        ("count", COUNTS),
        ("crate", CRATES),
        ("dept", DEPARTMENTS),
    ):
        slots[f"{key}_de"], slots[f"{key}_en"] = rng.choice(table)
    pl_de, pl_en, sg_de, sg_en = rng.choice(GOODS)
    slots |= {
        "goods_pl_de": pl_de,
        "goods_pl_en": pl_en,
        "goods_sg_de": sg_de,
        "goods_sg_en": sg_en,
    }
    slots["date_de"], slots["date_en"] = _date(rng)
    slots["date2_de"], slots["date2_en"] = _date(rng)
    slots["hour_de"], slots["hour_en"], first = _hour(rng)
    slots["hour2_de"], slots["hour2_en"], _ = _hour(rng, after=min(first, 18))
    slots["amount_de"], slots["amount_en"] = _amount(rng)
    slots["order"] = str(rng.randint(10_000, 999_999))
    return slots


_SLOT = re.compile(r"\{(\w+)\}")


def _render(template: str, slots: dict[str, str]) -> str:
    return _SLOT.sub(lambda m: slots[m.group(1)], template)


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


# First words that keep their capital after a salutation's comma: German nouns and the
# polite pronoun, English "I", titles and names of days.
_KEEP_CAPITAL = {"Frau", "Herr", "Ihre", "Ihr", "Ihren", "Ihnen", "I", "Mr", "Ms"} | {
    en for _, en in WEEKDAYS
}


_INFORMAL = re.compile(r"\b(?:du|dich|dir|dein\w*|Kannst|Hast|Vergiss)\b")
_FORMAL = re.compile(r"\b(?:Sie|Ihnen|Ihr\w*)\b")
_FIRST_NAME_ONLY = re.compile(r"^(?:Liebe|Lieber|Hallo) \{(?:woman|man)\},$")
_DOUBLE_STOP = re.compile(r"(?<=[ap]\.m\.)\.")  # "at 8 a.m.." -> "at 8 a.m."


def _fits(salutation: str, sentence: str) -> bool:
    """ "Liebe Jana" goes with "du", "Sehr geehrte Frau Keller" with "Sie"."""
    first_name_only = bool(_FIRST_NAME_ONLY.match(salutation))
    if _INFORMAL.search(sentence):
        return first_name_only
    if _FORMAL.search(sentence):
        return not first_name_only
    return True


def _after_comma(sentence: str) -> str:
    """A sentence continuing after "Dear Ms Keller,": its first word in lower case
    unless that word keeps its capital."""
    first = sentence.split(" ", 1)[0]
    return sentence if first in _KEEP_CAPITAL else sentence[:1].lower() + sentence[1:]


def register_pairs(n: int, seed: int = 1) -> Iterator[tuple[str, str]]:
    """``n`` distinct pairs: body sentences, most alone, some after a salutation on the
    same line (as in e-mails), and closings with a name."""
    rng = random.Random(seed)
    seen: set[tuple[str, str]] = set()
    tries = 0
    while len(seen) < n and tries < n * 20:
        tries += 1
        slots = _fill(rng)
        kind = rng.random()
        if kind < 0.08:  # a closing with the sender's name (alone, it is a test line)
            de, en = rng.choice(CLOSINGS)
            name = f"{rng.choice(WOMEN + MEN)} {slots['surname']}"
            de, en = f"{de}, {name}", f"{en}, {name}"
        else:
            de, en = (_render(t, slots) for t in rng.choice(TEMPLATES))
            if kind < 0.25:
                fitting = [s for s in SALUTATIONS if _fits(s[0], de)]
                sal_de, sal_en = (_render(t, slots) for t in rng.choice(fitting))
                de, en = f"{sal_de} {_after_comma(de)}", f"{sal_en} {_after_comma(en)}"
        pair = (_capitalised(de), _capitalised(_DOUBLE_STOP.sub("", en)))
        if pair not in seen:
            seen.add(pair)
            yield pair


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    for de, en in register_pairs(args.pairs, args.seed):
        sys.stdout.write(f"{de}\t{en}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
