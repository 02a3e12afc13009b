"""Web and e-mail addresses, handles, tags and file paths are written as the German writes them (issue 86 §1): „Melden
Sie sich unter support@example.com.“ came out "Get under support@package.com.", „…
auf https://example.org/anleitung.pdf.“ "… at https://.org/ instructions.", with no
mark. Addresses are protected like names (core/faithful/protect.py): annotated, and
where the model still changes one, written through a placeholder it copies.
bench/bench_addresses.py measures it on corpora's sentences the rule was not written on."""

from __future__ import annotations

import pytest

from scripted_decoder import Written, asked_for, scripted_translator
from translator_app.core.faithful.protect import address_uses


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Melden Sie sich unter support@example.com.", ["support@example.com"]),
        ("auf https://example.org/anleitung.pdf.", ["https://example.org/anleitung.pdf"]),
        ("Mehr unter www.beispiel.de/hilfe, danke", ["www.beispiel.de/hilfe"]),
        ("Mail: a.b-c+d@sub.firma-mueller.de!", ["a.b-c+d@sub.firma-mueller.de"]),
        ("(siehe http://x.de/a?b=1&c=2)", ["http://x.de/a?b=1&c=2"]),
        ("„https://example.org“ ist die Seite.", ["https://example.org"]),
        # handles, tags and file paths (issue 86 §1), without their closing mark
        ("Frag @anna oder schreib an Beispiel.de", ["@anna"]),
        ("Folgt @beispielshop und nutzt #Sommerfest2026.", ["@beispielshop", "#Sommerfest2026"]),
        (r"Die Datei liegt unter C:\Users\anna\bericht.docx.", [r"C:\Users\anna\bericht.docx"]),
        (
            "Öffne /home/anna/bericht.txt oder ~/notizen/a.md.",
            ["/home/anna/bericht.txt", "~/notizen/a.md"],
        ),
        # no address: a bare domain word, an @ alone, a version, a number, slashes in words
        ("Das kostet 3 @ 5 €, Version 2.0.1 von Python.", []),
        ("Platz #1, und/oder 50 km/h, 1/2 Liter, 5 €/kg, C# und F#.", []),
    ],
)
def test_web_and_e_mail_addresses_are_found_without_their_closing_punctuation(text, found):
    assert [u.source for u in address_uses(text)] == found
    assert all(u.target == u.source for u in address_uses(text))  # written as they stand


@pytest.mark.parametrize(
    ("german", "address"),
    [
        ("Melden Sie sich unter support@example.com.", "support@example.com"),
        (
            "Die Anleitung finden Sie auf https://example.org/anleitung.pdf.",
            "https://example.org/anleitung.pdf",
        ),
        ("Öffne /home/example/bericht.txt im Editor.", "/home/example/bericht.txt"),
        ("Folgt uns auf @exampleshop.", "@exampleshop"),
    ],
)
def test_an_address_the_model_changes_is_written_as_the_german_writes_it(german, address):
    garbled = address.replace("example", "package")

    def script(source: str) -> list[Written]:
        if address in asked_for(source):  # annotated: the model copies what it is given
            return [Written(f"You can find it at {address}.", -4.0)]
        return [Written(f"You can find it at {garbled}.", -3.0)]

    translator = scripted_translator(script)
    (t,) = translator.translate([german])
    assert address in t.text and garbled not in t.text, t.text


@pytest.mark.parametrize(
    ("german", "changed", "kept"),
    [
        (
            "Melden Sie sich unter support@example.com.",
            "Get under support@package.com.",
            "Sign up at support@example.com.",
        ),
        (
            "Lies https://example.org/v2/2024-05-01.pdf bis 5 Uhr.",
            "Read https://.org/ by 5 a.m.",
            "Read https://example.org/v2/2024-05-01.pdf by 5 a.m.",
        ),
        (
            "Öffne /home/anna/bericht.txt im Editor.",
            "Open /home/anna/ Report.debian editor.",
            "Open /home/anna/bericht.txt in the editor.",
        ),
    ],
)
def test_an_address_the_english_changes_is_a_lost_fact_said_once(german, changed, kept):
    """Marked where the English changes it, with the address as the English it needs
    (the fix forces it in); the numbers inside it are no facts of their own."""
    from translator_app.core.faithful.fact_check import missing_facts

    (address,) = [u.source for u in address_uses(german)]
    lost = missing_facts(german, changed)
    assert [(f.text, f.kind, f.english) for f in lost] == [(address, "address", address)]
    assert missing_facts(german, kept) == []
