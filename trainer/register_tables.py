"""The tables of the register corpus (trainer/register_corpus.py, issue 46): slot
fillers (German | English) and the sentence templates of letters, e-mails, forms, shops,
tenants, doctors, travel and private mail. Data only; the logic is in register_corpus.
"""

from __future__ import annotations


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
Hiermit bestätige ich {meeting_de} am {date_de} um {hour_de} Uhr. | I hereby confirm {meeting_en} on {date_en} at {hour_en}.
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

# ------------------------------------------------------------- the second set (stage 15)
MORE_GOODS = _rows(
    """
Klappstühle | folding chairs | einen Klappstuhl | a folding chair
Kaffeetassen | coffee cups | eine Kaffeetasse | a coffee cup
Verlängerungskabel | extension cables | ein Verlängerungskabel | an extension cable
Glühbirnen | light bulbs | eine Glühbirne | a light bulb
Briefumschläge | envelopes | einen Briefumschlag | an envelope
Kugelschreiber | ballpoint pens | einen Kugelschreiber | a ballpoint pen
Notizblöcke | notepads | einen Notizblock | a notepad
Mülltüten | bin bags | eine Mülltüte | a bin bag
Steckdosenleisten | power strips | eine Steckdosenleiste | a power strip
Tischdecken | tablecloths | eine Tischdecke | a tablecloth
Servietten | napkins | eine Serviette | a napkin
Blumentöpfe | flower pots | einen Blumentopf | a flower pot
Rucksäcke | rucksacks | einen Rucksack | a rucksack
Regenschirme | umbrellas | einen Regenschirm | an umbrella
Schreibtische | desks | einen Schreibtisch | a desk
Bildschirme | monitors | einen Bildschirm | a monitor
"""
)
# Form fields, nominative = accusative (German | English).
FIELDS = _rows(
    """
Ihr Passwort | your password
Ihre E-Mail-Adresse | your e-mail address
Ihre Bankverbindung | your bank details
Ihre Telefonnummer | your phone number
Ihre Lieferadresse | your delivery address
Ihre Rechnungsadresse | your billing address
Ihr Profilbild | your profile picture
"""
)
LABELS = _rows(
    """
Vorname | First name
Nachname | Surname
Geburtsdatum | Date of birth
Geburtsort | Place of birth
Postleitzahl | Postcode
Straße und Hausnummer | Street and house number
Staatsangehörigkeit | Nationality
Familienstand | Marital status
Telefonnummer | Phone number
Steuernummer | Tax number
"""
)
# Rooms: German accusative | English | German "in the room" | English.
ROOMS = _rows(
    """
das Treppenhaus | the stairwell | im Treppenhaus | in the stairwell
den Flur | the hallway | im Flur | in the hallway
die Küche | the kitchen | in der Küche | in the kitchen
das Bad | the bathroom | im Bad | in the bathroom
den Keller | the cellar | im Keller | in the cellar
das Büro | the office | im Büro | in the office
das Wohnzimmer | the living room | im Wohnzimmer | in the living room
das Schlafzimmer | the bedroom | im Schlafzimmer | in the bedroom
"""
)
WORK_VERBS = _rows(
    """
streichen | are painting
renovieren | are renovating
putzen | are cleaning
fliesen | are tiling
"""
)
FIXTURES = _rows(
    """
die neue Markise | the new awning
den neuen Herd | the new cooker
die neuen Fenster | the new windows
die Rauchmelder | the smoke detectors
den neuen Briefkasten | the new letterbox
die neue Spülmaschine | the new dishwasher
das neue Vordach | the new canopy
"""
)
WORKERS = _rows(
    """
Elektriker | electrician
Installateur | plumber
Maler | painter
Hausmeister | caretaker
Schornsteinfeger | chimney sweep
Heizungsmonteur | heating engineer
"""
)
PLACES = _rows(
    """
Die Praxis | The surgery
Das Büro | The office
Die Bibliothek | The library
Die Filiale | The branch
Das Geschäft | The shop
Das Bürgeramt | The citizens' office
Die Werkstatt | The workshop
"""
)
REASONS = _rows(
    """
wegen eines Feiertags | because of a public holiday
wegen Krankheit | due to illness
wegen einer Betriebsversammlung | because of a staff meeting
wegen Inventur | for stocktaking
wegen Umbauarbeiten | because of building work
"""
)
CITIES = _rows(
    """
München | Munich
Köln | Cologne
Wien | Vienna
Nürnberg | Nuremberg
Zürich | Zurich
Berlin | Berlin
Hamburg | Hamburg
Leipzig | Leipzig
"""
)
CHILDREN = _rows(
    """
Mein Sohn | My son
Meine Tochter | My daughter
"""
)
PRIVATE_THANKS = _rows(
    """
Einladung | invitation
Karte | card
Hilfe | help
Nachricht | message
Glückwünsche | good wishes
"""
)
MORE_TEMPLATES = _rows(
    """
{field_de} wurde erfolgreich geändert. | {field_en} has been changed successfully.
Hier können Sie {field_de} ändern. | You can change {field_en} here.
Wir haben {field_de} aktualisiert. | We have updated {field_en}.
Das Feld „{label_de}“ ist ein Pflichtfeld. | The "{label_en}" field is mandatory.
Bitte füllen Sie alle Pflichtfelder aus. | Please fill in all the mandatory fields.
Ihr Konto wurde nach drei Fehlversuchen gesperrt. | Your account has been blocked after three failed attempts.
Sie haben sich erfolgreich abgemeldet. | You have successfully logged out.
Das Passwort muss mindestens {digits} Zeichen lang sein. | The password must be at least {digits} characters long.
Der Code ist {count_de} Minuten gültig. | The code is valid for {count_en} minutes.
Der Artikel ist leider ausverkauft. | Unfortunately this item is sold out.
Die Rücksendung ist innerhalb von {count_de} Tagen kostenlos. | Returns are free of charge within {count_en} days.
Sie erhalten Ihr Geld innerhalb von {count_de} Werktagen zurück. | You will get your money back within {count_en} working days.
Ab {amount_de} Bestellwert liefern wir versandkostenfrei. | We deliver free of charge on orders of {amount_en} or more.
Die {more_pl_de} sind diese Woche im Angebot. | The {more_pl_en} are on offer this week.
Ich möchte {more_sg_de} umtauschen. | I would like to exchange {more_sg_en}.
Wir brauchen noch {count_de} {more_pl_de}. | We still need {count_en} {more_pl_en}.
Kannst du {more_sg_de} mitbringen? | Can you bring {more_sg_en}?
Wir haben {count_de} {more_pl_de} bestellt. | We have ordered {count_en} {more_pl_en}.
Kann ich hier mit Karte bezahlen? | Can I pay by card here?
Am {weekday_de} {verb_de} wir {room_de}. | On {weekday_en} we {verb_en} {room_en}.
Morgen {verb_de} wir {room_de}. | Tomorrow we {verb_en} {room_en}.
Am {weekday_de} montieren wir {fixture_de}. | On {weekday_en} we are installing {fixture_en}.
Morgen bauen wir {fixture_de} ein. | Tomorrow we are fitting {fixture_en}.
Der {worker_de} kommt am {weekday_de} um {hour_de} Uhr. | The {worker_en} is coming on {weekday_en} at {hour_en}.
Bitte lassen Sie den {worker_de} am {weekday_de} in die Wohnung. | Please let the {worker_en} into the flat on {weekday_en}.
Am {date_de} wird das Wasser von {hour_de} bis {hour2_de} Uhr abgestellt. | On {date_en} the water will be turned off from {hour_en} to {hour2_en}.
Die Heizung {room_in_de} funktioniert nicht. | The heating {room_in_en} isn't working.
Das Licht {room_in_de} geht nicht mehr. | The light {room_in_en} no longer works.
Der Müll wird am {weekday_de} abgeholt. | The rubbish is collected on {weekday_en}.
Die Nebenkostenabrechnung für {year} liegt bei. | The service charge statement for {year} is enclosed.
{place_de} bleibt am {weekday_de} {reason_de} geschlossen. | {place_en} will be closed on {weekday_en} {reason_en}.
{place_de} ist ab dem {date_de} wieder geöffnet. | {place_en} will be open again from {date_en}.
Ich brauche einen Termin beim Zahnarzt. | I need an appointment with the dentist.
Bitte bringen Sie zum Termin Ihre Versichertenkarte und Ihren Impfpass mit. | Please bring your health insurance card and your vaccination record to the appointment.
Ich bin krank und kann heute nicht zur Arbeit kommen. | I'm ill and can't come to work today.
{child_de} ist krank und kann heute nicht in die Schule kommen. | {child_en} is ill and can't come to school today.
Die Krankmeldung schicke ich Ihnen morgen. | I will send you the sick note tomorrow.
Der Zug nach {city_de} fällt heute aus. | The train to {city_en} is cancelled today.
Ihr Zug nach {city_de} hat etwa {count_de} Minuten Verspätung. | Your train to {city_en} is about {count_en} minutes late.
Ich habe vom {date_de} bis zum {date2_de} ein Zimmer reserviert. | I have booked a room from {date_en} to {date2_en}.
Frühstück gibt es von {hour_de} bis {hour2_de} Uhr. | Breakfast is served from {hour_en} to {hour2_en}.
Sie können ab {hour_de} Uhr einchecken. | You can check in from {hour_en}.
Vielen Dank für deine {private_de}! | Thank you for your {private_en}!
Wir freuen uns, dass du am {weekday_de} kommst. | We're glad you're coming on {weekday_en}.
Ich wünsche dir gute Besserung. | I hope you get well soon.
Kannst du mir bis {weekday_de} Bescheid geben? | Can you let me know by {weekday_en}?
Ich komme etwa {count_de} Minuten später. | I'll be about {count_en} minutes late.
Ich schicke Ihnen {doc_de} bis spätestens {weekday_de}. | I will send you {doc_en} by {weekday_en} at the latest.
Bitte schicken Sie {doc_de} an {dept_de}. | Please send {doc_en} to {dept_en}.
Ich habe Ihnen {doc_de} per E-Mail geschickt. | I have sent you {doc_en} by e-mail.
Könnten Sie bitte {doc_de} prüfen? | Could you please check {doc_en}?
Die Sitzung dauert etwa {count_de} Stunden. | The meeting will last about {count_en} hours.
Der Betrag von {amount_de} wird am {date_de} von Ihrem Konto abgebucht. | The amount of {amount_en} will be debited from your account on {date_en}.
Hiermit kündige ich meinen Vertrag zum {date_de}. | I hereby terminate my contract with effect from {date_en}.
Ihr Monatsbeitrag beträgt {amount_de}. | Your monthly fee is {amount_en}.
Es gilt eine Kündigungsfrist von {count_de} Monaten. | A notice period of {count_en} months applies.
Bitte teilen Sie uns Ihre neue Adresse mit. | Please let us know your new address.
Wir haben Ihre Reklamation an {dept_de} weitergeleitet. | We have forwarded your complaint to {dept_en}.
"""
)
