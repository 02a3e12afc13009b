"""The short text of screens, shops, forms, e-mails and signs (issue 46): buttons and menu
entries, form labels, status messages, notices, e-mail lines, each on its own and inside
a few frames ("Klicken Sie auf „Speichern“." -> 'Click "Save".').

The bundled model translates whole sentences of this register better than the fragments
around them: „Vorname“ came out as "previous name", „Zur Kasse gehen“ as "go to cash".
The LibreOffice and gettext catalogues are software strings; these are what a shop, an
office, an authority and a building write. Written for this project; none is a sentence
of the register dev or test set (tests/trainer/test_register_corpus.py: the eleven phrases that
were one, found by that check, are not here), and scripts/prepare_data.py removes any
pair that matches a dev or test sentence.

    python -m trainer.register_ui --pairs 3000 --seed 1 > register-ui.tsv
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator

from trainer.register_corpus import pairs_command
from trainer.register_tables import _rows

# Buttons and menu entries: German | English.
ACTIONS = _rows(
    """
Jetzt kaufen | Buy now
Warenkorb anzeigen | View basket
Weiter einkaufen | Continue shopping
Bestellung abschicken | Place order
Bestellung stornieren | Cancel order
Artikel entfernen | Remove item
Menge ändern | Change quantity
Gutschein einlösen | Redeem voucher
Rabattcode eingeben | Enter discount code
Passwort zurücksetzen | Reset password
Passwort ändern | Change password
Konto erstellen | Create account
Konto löschen | Delete account
Anmelden | Sign in
Abmelden | Sign out
Registrieren | Register
Speichern | Save
Abbrechen | Cancel
Zurück | Back
Weiter | Next
Schließen | Close
Bearbeiten | Edit
Löschen | Delete
Hochladen | Upload
Herunterladen | Download
Drucken | Print
Teilen | Share
Suchen | Search
Filter zurücksetzen | Reset filters
Alle auswählen | Select all
Mehr anzeigen | Show more
Weniger anzeigen | Show less
Details anzeigen | Show details
Änderungen speichern | Save changes
Änderungen verwerfen | Discard changes
Termin vereinbaren | Make an appointment
Termin absagen | Cancel the appointment
Termin verschieben | Reschedule the appointment
Rückruf anfordern | Request a call back
Angebot anfordern | Request a quote
Rechnung herunterladen | Download the invoice
Sendung verfolgen | Track the parcel
Rücksendung anmelden | Register a return
Lieferadresse ändern | Change the delivery address
Zahlungsart wählen | Choose a payment method
Zum Kundenkonto | Go to my account
Bewertung schreiben | Write a review
Frage stellen | Ask a question
Profil bearbeiten | Edit profile
Datei auswählen | Choose a file
Antrag absenden | Submit the application
Formular zurücksetzen | Reset the form
Eingaben prüfen | Check your entries
"""
)
# Form labels: German | English.
LABELS = _rows(
    """
Vor- und Nachname | First name and surname
Firma | Company
Straße | Street
Land | Country
Mobilnummer | Mobile number
E-Mail-Adresse | E-mail address
Geburtsname | Name at birth
Unterschrift | Signature
Datum | Date
Kundennummer | Customer number
Bestellnummer | Order number
Rechnungsnummer | Invoice number
Vertragsnummer | Contract number
Versicherungsnummer | Insurance number
Steuer-Identifikationsnummer | Tax identification number
Betrag in Euro | Amount in euros
Verwendungszweck | Payment reference
Pflichtfeld | Required field
Angaben zur Person | Personal details
Angaben zum Arbeitgeber | Details of the employer
Bemerkungen | Comments
Anlagen | Enclosures
Anschrift | Address
Lieferanschrift | Delivery address
Zahlungsart | Payment method
Benutzername | User name
Anzahl der Personen | Number of people
Gewünschter Termin | Preferred date
Grund des Besuchs | Reason for the visit
"""
)
# Status messages and shop notices: German | English (whole sentences or captions).
MESSAGES = _rows(
    """
Ihre Bestellung ist eingegangen. | Your order has been received.
Der Artikel ist derzeit nicht verfügbar. | The item is currently unavailable.
Nur noch wenige Exemplare vorrätig. | Only a few left in stock.
Ausverkauft | Sold out
Auf Lager | In stock
Kostenloser Versand ab 50 Euro | Free delivery on orders over 50 euros
Alle Preise inkl. MwSt. | All prices include VAT
zzgl. Versandkosten | plus shipping costs
Das Passwort ist falsch. | The password is incorrect.
Die E-Mail-Adresse ist ungültig. | The e-mail address is invalid.
Bitte füllen Sie alle Pflichtfelder aus. | Please fill in all required fields.
Die Datei ist zu groß. | The file is too large.
Die Sitzung ist abgelaufen. | The session has expired.
Bitte melden Sie sich erneut an. | Please sign in again.
Ein Fehler ist aufgetreten. | An error has occurred.
Bitte versuchen Sie es später noch einmal. | Please try again later.
Die Seite wurde nicht gefunden. | The page was not found.
Ihre Zahlung war erfolgreich. | Your payment was successful.
Die Zahlung ist fehlgeschlagen. | The payment failed.
Ihr Paket ist unterwegs. | Your parcel is on its way.
Ihr Paket wurde zugestellt. | Your parcel has been delivered.
Die Lieferung verzögert sich. | The delivery is delayed.
Ihr Konto wurde gesperrt. | Your account has been blocked.
Das Angebot gilt bis Sonntag. | The offer is valid until Sunday.
Änderungen vorbehalten. | Subject to change.
Irrtümer vorbehalten. | Errors excepted.
Alle Angaben ohne Gewähr. | All information is given without guarantee.
Der Umtausch ist nur mit Kassenbon möglich. | Exchanges only with a receipt.
Reduzierte Ware ist vom Umtausch ausgeschlossen. | Reduced items cannot be exchanged.
Diese E-Mail wurde automatisch erstellt. | This e-mail was generated automatically.
Bitte antworten Sie nicht auf diese E-Mail. | Please do not reply to this e-mail.
"""
)
# Signs and notices in buildings, shops and offices: German | English.
SIGNS = _rows(
    """
Bitte nicht stören | Please do not disturb
Vorsicht, frisch gestrichen | Caution, wet paint
Betreten verboten | No entry
Rauchen verboten | No smoking
Notausgang | Emergency exit
Nur für Personal | Staff only
Heute geschlossen | Closed today
Wegen Krankheit geschlossen | Closed due to illness
Bitte klingeln | Please ring the bell
Bitte Tür schließen | Please close the door
Nur Kartenzahlung | Card payments only
Kein Zutritt für Unbefugte | No unauthorised access
Parken nur für Kunden | Customer parking only
Bitte Abstand halten | Please keep your distance
Hunde bitte an die Leine | Dogs must be kept on a lead
Öffnungszeiten | Opening hours
Sprechzeiten | Consultation hours
Bitte hier anstellen | Please queue here
Ausgang | Exit
Eingang um die Ecke | Entrance around the corner
Toiletten im ersten Stock | Toilets on the first floor
Fundsachen bitte an der Kasse abgeben | Please hand in lost property at the till
"""
)
# E-mail lines: German | English.
MAIL = _rows(
    """
Bitte beachten Sie den Anhang. | Please see the attachment.
Vielen Dank im Voraus. | Thank you in advance.
Ich freue mich auf Ihre Antwort. | I look forward to your reply.
Für Rückfragen stehe ich gern zur Verfügung. | I am happy to answer any questions.
Bitte bestätigen Sie den Eingang dieser E-Mail. | Please confirm receipt of this e-mail.
Leider muss ich unseren Termin absagen. | Unfortunately I have to cancel our appointment.
Ich melde mich nächste Woche wieder. | I will get back to you next week.
Entschuldigen Sie die späte Antwort. | Sorry for the late reply.
Wie telefonisch besprochen, sende ich Ihnen die Unterlagen. | As discussed on the phone, I am sending you the documents.
Können Sie mir bitte einen neuen Termin nennen? | Could you please give me a new date?
Ich wäre Ihnen für eine kurze Rückmeldung dankbar. | I would be grateful for a short reply.
Anbei sende ich Ihnen die unterschriebene Vollmacht. | Please find attached the signed power of attorney.
Bitte leiten Sie diese Nachricht an die zuständige Stelle weiter. | Please forward this message to the department responsible.
Ich bin ab Montag wieder erreichbar. | I can be reached again from Monday.
"""
)
# Frames: German | English, with {de} and {en} for a phrase of the kind named first.
FRAMES = _rows(
    """
action | Klicken Sie auf „{de}“. | Click "{en}".
action | Wählen Sie im Menü „{de}“. | Choose "{en}" in the menu.
action | Tippen Sie unten auf „{de}“. | Tap "{en}" at the bottom.
action | Die Schaltfläche „{de}“ finden Sie oben rechts. | You will find the "{en}" button at the top right.
label | Bitte füllen Sie das Feld „{de}“ aus. | Please fill in the "{en}" field.
label | Das Feld „{de}“ ist leer. | The "{en}" field is empty.
label | Im Feld „{de}“ fehlt noch etwas. | Something is still missing in the "{en}" field.
sign | Auf dem Schild steht: „{de}“. | The sign says: "{en}".
sign | An der Tür hängt ein Zettel: „{de}“. | There is a note on the door: "{en}".
message | Auf dem Bildschirm steht: „{de}“ | The screen says: "{en}"
"""
)
KINDS = {"action": ACTIONS, "label": LABELS, "sign": SIGNS, "message": MESSAGES}


def ui_pairs(n: int, seed: int = 1) -> Iterator[tuple[str, str]]:
    """Every phrase on its own first, then ``n`` pairs in all, the rest in frames."""
    alone = [*ACTIONS, *LABELS, *MESSAGES, *SIGNS, *MAIL]
    seen: set[tuple[str, str]] = set()
    for pair in alone[:n]:
        seen.add(pair)
        yield pair
    rng = random.Random(seed)
    possible = sum(len(KINDS[kind]) for kind, *_ in FRAMES) + len(alone)
    while len(seen) < min(n, possible):
        kind, frame_de, frame_en = rng.choice(FRAMES)
        de, en = rng.choice(KINDS[kind])
        pair = (frame_de.format(de=de.rstrip(".!")), frame_en.format(en=en.rstrip(".!")))
        if pair not in seen:
            seen.add(pair)
            yield pair


def main(argv: list[str] | None = None) -> int:
    return pairs_command(ui_pairs, __doc__.split("\n\n")[0], 3000, argv)


if __name__ == "__main__":
    sys.exit(main())
