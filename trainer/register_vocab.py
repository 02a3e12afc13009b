"""Everyday words of letters, forms, shops and services in sentences (issue 46).

The bundled model still guesses at words a user writes every day: „Versandkosten“ came
out as "charges", „Lebenslauf“ as "life", „Störung“ as "deterioration". The Ding
dictionary teaches them as bare words, which a small model does not carry into a
sentence. Here each word comes in the sentences it lives in: things one sends, receives,
checks and pays for (with German nominative and accusative and English number), and
what one asks to do (German infinitive phrases), each in a set of plain templates.

    python -m trainer.register_vocab --pairs 6000 --seed 1 > register-vocab.tsv

Training data only; scripts/prepare_data.py removes every pair that matches a sentence
of a dev or test set, and none of these templates writes a sentence of the register dev
or test set (tests/trainer/test_register_corpus.py).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator

from trainer.register_corpus import capitalised, pairs_command
from trainer.register_tables import WEEKDAYS, _rows

# German nominative | German accusative | English | s (singular) or p (plural) | kind:
# d documents, c cards and passes, g goods, n numbers and data, k accounts and contracts, p costs
# and payments, o offices and people, f fixtures and devices, a the rest. A template
# names the kinds it makes sense for (no one brings the lift to an appointment).
THINGS = _rows(
    """
der Lebenslauf | den Lebenslauf | the CV | s | d
die Zeugnisse | die Zeugnisse | the references | p | d
die Versandkosten | die Versandkosten | the shipping costs | p | p
die Lieferadresse | die Lieferadresse | the delivery address | s | n
die Rechnungsadresse | die Rechnungsadresse | the billing address | s | n
der Gutschein | den Gutschein | the voucher | s | d
der Rabattcode | den Rabattcode | the discount code | s | d
die Reklamation | die Reklamation | the complaint | s | d
die Beschwerde | die Beschwerde | the complaint | s | d
die Gehaltsabrechnung | die Gehaltsabrechnung | the payslip | s | d
die Lohnsteuerbescheinigung | die Lohnsteuerbescheinigung | the wage tax certificate | s | d
die Krankmeldung | die Krankmeldung | the sick note | s | d
der Urlaubsantrag | den Urlaubsantrag | the holiday request | s | d
die Reisekostenabrechnung | die Reisekostenabrechnung | the travel expense claim | s | d
die Belege | die Belege | the receipts | p | d
der Kassenbon | den Kassenbon | the receipt | s | d
die Quittung | die Quittung | the receipt | s | d
die Mahnung | die Mahnung | the reminder | s | d
die Mahngebühr | die Mahngebühr | the reminder fee | s | p
die Überweisung | die Überweisung | the bank transfer | s | p
der Dauerauftrag | den Dauerauftrag | the standing order | s | k
das Girokonto | das Girokonto | the current account | s | k
das Sparkonto | das Sparkonto | the savings account | s | k
die Bankkarte | die Bankkarte | the bank card | s | c
die Kreditkarte | die Kreditkarte | the credit card | s | c
der Kontoauszug | den Kontoauszug | the bank statement | s | d
die Kontonummer | die Kontonummer | the account number | s | n
die Zugangsdaten | die Zugangsdaten | the login details | p | n
das Passwort | das Passwort | the password | s | n
der Benutzername | den Benutzernamen | the user name | s | n
das Kundenkonto | das Kundenkonto | the customer account | s | k
die Kundennummer | die Kundennummer | the customer number | s | n
die Bestellnummer | die Bestellnummer | the order number | s | n
die Sendungsnummer | die Sendungsnummer | the tracking number | s | n
das Paket | das Paket | the parcel | s | g
die Lieferung | die Lieferung | the delivery | s | g
die Ware | die Ware | the goods | p | g
der Artikel | den Artikel | the item | s | g
die Ersatzteile | die Ersatzteile | the spare parts | p | g
die Bedienungsanleitung | die Bedienungsanleitung | the operating instructions | p | d
die Garantie | die Garantie | the guarantee | s | p
der Garantieschein | den Garantieschein | the guarantee certificate | s | d
das Rücksendeetikett | das Rücksendeetikett | the returns label | s | d
das Abonnement | das Abonnement | the subscription | s | k
die Mitgliedschaft | die Mitgliedschaft | the membership | s | k
der Mitgliedsausweis | den Mitgliedsausweis | the membership card | s | c
der Mietvertrag | den Mietvertrag | the tenancy agreement | s | k
die Nebenkostenabrechnung | die Nebenkostenabrechnung | the service charge statement | s | d
die Kaution | die Kaution | the deposit | s | p
die Wohnungsschlüssel | die Wohnungsschlüssel | the keys to the flat | p | g
der Hausausweis | den Hausausweis | the building pass | s | c
die Stromrechnung | die Stromrechnung | the electricity bill | s | p
der Zählerstand | den Zählerstand | the meter reading | s | n
die Mülltonnen | die Mülltonnen | the bins | p | f
der Sperrmüll | den Sperrmüll | the bulky waste | s | a
die Heizung | die Heizung | the heating | s | f
die Waschmaschine | die Waschmaschine | the washing machine | s | f
der Kühlschrank | den Kühlschrank | the fridge | s | f
der Briefkasten | den Briefkasten | the letterbox | s | f
die Klingel | die Klingel | the doorbell | s | f
der Aufzug | den Aufzug | the lift | s | f
der Personalausweis | den Personalausweis | the identity card | s | c
der Reisepass | den Reisepass | the passport | s | c
der Führerschein | den Führerschein | the driving licence | s | c
die Geburtsurkunde | die Geburtsurkunde | the birth certificate | s | d
die Meldebescheinigung | die Meldebescheinigung | the certificate of registration | s | d
der Antrag | den Antrag | the application | s | d
das Antragsformular | das Antragsformular | the application form | s | d
der Bescheid | den Bescheid | the decision | s | d
der Steuerbescheid | den Steuerbescheid | the tax assessment | s | d
die Steuererklärung | die Steuererklärung | the tax return | s | d
die Versichertenkarte | die Versichertenkarte | the health insurance card | s | c
die Überweisung zum Facharzt | die Überweisung zum Facharzt | the referral to the specialist | s | d
das Rezept | das Rezept | the prescription | s | d
der Impfpass | den Impfpass | the vaccination record | s | d
die Arbeitsunfähigkeitsbescheinigung | die Arbeitsunfähigkeitsbescheinigung | the doctor's certificate | s | d
die Stellenanzeige | die Stellenanzeige | the job advertisement | s | a
die Bewerbung | die Bewerbung | the application | s | d
das Anschreiben | das Anschreiben | the cover letter | s | d
der Arbeitsvertrag | den Arbeitsvertrag | the employment contract | s | d
die Kündigung | die Kündigung | the notice of termination | s | d
die Kündigungsfrist | die Kündigungsfrist | the notice period | s | a
die Tagesordnung | die Tagesordnung | the agenda | s | d
die Einladung | die Einladung | the invitation | s | d
die Teilnehmerliste | die Teilnehmerliste | the list of participants | s | d
der Dienstplan | den Dienstplan | the duty roster | s | d
die Dienstreise | die Dienstreise | the business trip | s | a
die Fahrkarte | die Fahrkarte | the ticket | s | c
die Platzreservierung | die Platzreservierung | the seat reservation | s | d
der Anschlusszug | den Anschlusszug | the connecting train | s | a
die Bordkarte | die Bordkarte | the boarding pass | s | c
das Gepäck | das Gepäck | the luggage | s | g
die Zimmerreservierung | die Zimmerreservierung | the room reservation | s | d
die Buchungsbestätigung | die Buchungsbestätigung | the booking confirmation | s | d
die Stornierung | die Stornierung | the cancellation | s | d
die Stornogebühr | die Stornogebühr | the cancellation fee | s | p
die Selbstbeteiligung | die Selbstbeteiligung | the excess | s | p
der Versicherungsschein | den Versicherungsschein | the insurance policy | s | d
die Schadensmeldung | die Schadensmeldung | the claim form | s | d
der Kostenvoranschlag | den Kostenvoranschlag | the quote | s | d
der Handwerker | den Handwerker | the tradesman | s | o
der Hausmeister | den Hausmeister | the caretaker | s | o
die Hausverwaltung | die Hausverwaltung | the property management | s | o
die Buchhaltung | die Buchhaltung | the accounts department | s | o
die Personalabteilung | die Personalabteilung | the HR department | s | o
der Kundenservice | den Kundenservice | the customer service | s | o
die Öffnungszeiten | die Öffnungszeiten | the opening hours | p | a
die Sprechzeiten | die Sprechzeiten | the consulting hours | p | a
der Stundenplan | den Stundenplan | the timetable | s | d
das Zeugnis | das Zeugnis | the school report | s | d
die Elternzeit | die Elternzeit | the parental leave | s | a
die Einverständniserklärung | die Einverständniserklärung | the consent form | s | d
die Datenschutzerklärung | die Datenschutzerklärung | the privacy policy | s | a
die Geschäftsbedingungen | die Geschäftsbedingungen | the terms and conditions | p | a
die Startseite | die Startseite | the home page | s | a
der Warenkorb | den Warenkorb | the shopping basket | s | a
die Tüte | die Tüte | the bag | s | g
die Störung | die Störung | the fault | s | a
"""
)

# German infinitive phrase (verb last) | English
ACTIONS = _rows(
    """
den Newsletter abbestellen | unsubscribe from the newsletter
mein Abonnement kündigen | cancel my subscription
meinen Vertrag verlängern | extend my contract
mein Konto schließen | close my account
das Passwort zurücksetzen | reset the password
eine Rechnung reklamieren | dispute an invoice
die Ware umtauschen | exchange the goods
die Ware zurückschicken | send the goods back
einen Termin vereinbaren | make an appointment
den Termin verschieben | postpone the appointment
den Termin absagen | cancel the appointment
mich krankmelden | call in sick
Urlaub beantragen | apply for leave
meine Anfrage weiterleiten | forward my enquiry
die Rechnung in Raten bezahlen | pay the invoice in instalments
per Lastschrift bezahlen | pay by direct debit
bar bezahlen | pay in cash
mit Karte bezahlen | pay by card
die Lieferung verfolgen | track the delivery
meine Bestellung stornieren | cancel my order
einen Gutschein einlösen | redeem a voucher
den Zählerstand melden | report the meter reading
einen Schaden melden | report damage
Widerspruch einlegen | lodge an objection
einen Antrag stellen | submit an application
das Formular ausfüllen | fill in the form
das Formular unterschreiben | sign the form
die Unterlagen nachreichen | submit the documents later
mich für den Kurs anmelden | sign up for the course
mich vom Kurs abmelden | withdraw from the course
mich um die Stelle bewerben | apply for the position
einen Tisch reservieren | book a table
ein Zimmer buchen | book a room
die Reise stornieren | cancel the trip
meinen Sitzplatz reservieren | reserve my seat
einen Ausweis beantragen | apply for an identity card
meinen Wohnsitz anmelden | register my address
den Sperrmüll anmelden | arrange a bulky waste collection
die Kaution zurückbekommen | get the deposit back
den Mietvertrag kündigen | give notice on the tenancy
eine Quittung bekommen | get a receipt
eine Tüte dazunehmen | take a bag with it
die Zugangsdaten ändern | change the login details
eine Überweisung tätigen | make a bank transfer
Geld abheben | withdraw money
die Störung melden | report the fault
die Heizung reparieren lassen | have the heating repaired
"""
)

# kinds | German | English. {de}: nominative, {acc}: accusative; {ist}, {wurde}, {is},
# {has}: the verb forms of its number.
THING_TEMPLATES = _rows(
    """
dgc | Ich habe {acc} noch nicht erhalten. | I have not received {en} yet.
dc | Könnten Sie mir bitte {acc} schicken? | Could you please send me {en}?
d | Anbei sende ich Ihnen {acc}. | Please find attached {en}.
dgnoac | Wo finde ich {acc}? | Where can I find {en}?
dgop | {de} {ist} leider noch nicht angekommen. | Unfortunately, {en} {has} not arrived yet.
dgc | Wir haben {acc} heute erhalten. | We received {en} today.
dc | Bitte bringen Sie {acc} zum Termin mit. | Please bring {en} to the appointment.
d | Ich brauche {acc} bis {weekday_de}. | I need {en} by {weekday_en}.
da | Haben Sie {acc} schon gesehen? | Have you seen {en} yet?
dnp | Könnten Sie {acc} bitte noch einmal prüfen? | Could you please check {en} again?
dn | {de} {stimmt} nicht mehr. | {en} {is} no longer correct.
dc | Ich schicke Ihnen {acc} morgen per Post. | I will send you {en} by post tomorrow.
dg | Vielen Dank für {acc}. | Thank you for {en}.
dk | {de} {ist} noch in Bearbeitung. | {en} {is} still being processed.
dgkc | Wann bekomme ich {acc}? | When will I get {en}?
d | Wir haben {acc} an Sie weitergeleitet. | We have forwarded {en} to you.
da | {de} {ist} ab sofort online verfügbar. | {en} {is} now available online.
dgc | Ich habe {acc} leider verloren. | Unfortunately, I have lost {en}.
dfkp | Wer ist für {acc} zuständig? | Who is responsible for {en}?
d | Bitte geben Sie {acc} bis spätestens {weekday_de} ab. | Please hand in {en} by {weekday_en} at the latest.
dgnc | Ich finde {acc} nicht mehr. | I can't find {en} any more.
dgnkpofac | Meine Frage betrifft {acc}. | My question concerns {en}.
d | Kann ich {acc} auch später nachreichen? | Can I submit {en} later?
n | Ich habe {acc} leider vergessen. | Unfortunately, I have forgotten {en}.
n | Bitte geben Sie {acc} an. | Please state {en}.
n | Wo kann ich {acc} ändern? | Where can I change {en}?
k | Ich möchte {acc} kündigen. | I would like to cancel {en}.
kc | {de} {wurde} gesperrt. | {en} {has} been blocked.
kc | {de} läuft Ende des Monats aus. | {en} expires at the end of the month.
p | Wer übernimmt {acc}? | Who pays {en}?
p | Wie hoch {ist} {de}? | How much {is} {en}?
p | {de} {ist} schon bezahlt. | {en} {has} already been paid.
o | Bitte wenden Sie sich an {acc}. | Please contact {en}.
o | Ich habe {acc} schon informiert. | I have already informed {en}.
f | {de} {wurde} gestern repariert. | {en} {was} repaired yesterday.
f | Wann wird {de} repariert? | When will {en} be repaired?
f | Könnten Sie sich {acc} bitte ansehen? | Could you please take a look at {en}?
a | Bitte lesen Sie {acc} sorgfältig. | Please read {en} carefully.
"""
)
ACTION_TEMPLATES = _rows(
    """
Ich möchte {de}. | I would like to {en}.
Wie kann ich {de}? | How can I {en}?
Wo kann ich {de}? | Where can I {en}?
Kann ich auch online {de}? | Can I also {en} online?
Ich muss leider {de}. | Unfortunately, I have to {en}.
Ist es möglich, {zu}? | Is it possible to {en}?
Ich habe vergessen, {zu}. | I forgot to {en}.
Ich versuche seit Tagen, {zu}. | I have been trying to {en} for days.
Können Sie mir helfen? Ich möchte {de}. | Can you help me? I would like to {en}.
"""
)
# Separable prefixes: „abbestellen“ -> „abzubestellen“, „krankmelden“ -> „krankzumelden“.
_SEPARABLE_PREFIXES = (
    "ab", "an", "auf", "aus", "ein", "nach", "um", "zurück", "weiter", "dazu", "krank"
)  # fmt: skip


def zu_infinitive(phrase: str) -> str:
    """„den Newsletter abbestellen“ -> „den Newsletter abzubestellen“; „Urlaub
    beantragen“ -> „Urlaub zu beantragen“; „die Heizung reparieren lassen“ -> „die
    Heizung reparieren zu lassen“."""
    head, _, verb = phrase.rpartition(" ")
    for prefix in _SEPARABLE_PREFIXES:
        if verb.startswith(prefix) and len(verb) > len(prefix) + 3:
            verb = f"{prefix}zu{verb[len(prefix) :]}"
            break
    else:
        verb = f"zu {verb}"
    return f"{head} {verb}".strip()


# The article of a thing, or a possessive in its place: (nominative, accusative, English).
DETERMINERS = {
    "the": {"der": "der", "die": "die", "das": "das", "den": "den", "en": "the"},
    "my": {"der": "mein", "die": "meine", "das": "mein", "den": "meinen", "en": "my"},
    "your": {"der": "Ihr", "die": "Ihre", "das": "Ihr", "den": "Ihren", "en": "your"},
}


def with_determiner(de_nom: str, de_acc: str, en: str, which: str) -> tuple[str, str, str]:
    """„der Lebenslauf“, „den Lebenslauf“, "the CV" with ``which`` ("the", "my",
    "your") as their determiner: „mein Lebenslauf“, „meinen Lebenslauf“, "my CV"."""
    forms = DETERMINERS[which]
    nom_article, nom_rest = de_nom.split(" ", 1)
    acc_article, acc_rest = de_acc.split(" ", 1)
    return (
        f"{forms[nom_article]} {nom_rest}",
        f"{forms[acc_article]} {acc_rest}",
        f"{forms['en']} {en.removeprefix('the ')}",
    )


def vocab_pairs(n: int, seed: int = 1) -> Iterator[tuple[str, str]]:
    """``n`` distinct pairs, two thirds of them about things, a third about actions."""
    rng = random.Random(seed)
    seen: set[tuple[str, str]] = set()
    tries = 0
    while len(seen) < n and tries < n * 20:
        tries += 1
        weekday_de, weekday_en = rng.choice(WEEKDAYS)
        if rng.random() < 2 / 3:
            de_nom, de_acc, en, number, kind = rng.choice(THINGS)
            which = rng.choice(("the", "the", "my", "your"))
            de_nom, de_acc, en = with_determiner(de_nom, de_acc, en, which)
            t_de, t_en = rng.choice([t[1:] for t in THING_TEMPLATES if kind in t[0]])
            plural = number == "p"
            slots = {
                "de": de_nom,
                "acc": de_acc,
                "en": en,
                "ist": "sind" if plural else "ist",
                "wurde": "wurden" if plural else "wurde",
                "stimmt": "stimmen" if plural else "stimmt",
                "is": "are" if plural else "is",
                "was": "were" if plural else "was",
                "has": "have" if plural else "has",
            }
        else:
            de, en = rng.choice(ACTIONS)
            t_de, t_en = rng.choice(ACTION_TEMPLATES)
            slots = {"de": de, "en": en, "zu": zu_infinitive(de)}
        slots |= {"weekday_de": weekday_de, "weekday_en": weekday_en}
        pair = (capitalised(t_de.format(**slots)), capitalised(t_en.format(**slots)))
        if pair not in seen:
            seen.add(pair)
            yield pair


def main(argv: list[str] | None = None) -> int:
    return pairs_command(vocab_pairs, __doc__.split("\n\n")[0], 8000, argv)


if __name__ == "__main__":
    sys.exit(main())
