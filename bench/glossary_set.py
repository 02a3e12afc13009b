"""The glossary test set of bench/bench_glossary.py (issue 30).

    .venv/bin/python bench/glossary_set.py    # rewrites bench/glossary.jsonl

43 terms no training data holds in this form: invented product names (Zauberpfanne ->
MagicPan) and everyday German words with the English a company uses instead of the usual
one (Besprechung -> huddle, not meeting), nine of them with English of two words
(Lieferschein -> packing slip, not delivery note). Each term appears in three sentences written
from templates, singular and plural, in the cases that change German endings
(der/den/dem Blitzkocher, die Zauberpfannen). The file is committed, so a change shows in a
diff; keep it out of training.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

OUT = Path(__file__).with_name("glossary.jsonl")

# (singular, plural, gender m/f/n, English)
TERMS = (
    ("Zauberpfanne", "Zauberpfannen", "f", "MagicPan"),
    ("Blitzkocher", "Blitzkocher", "m", "FlashBoiler"),
    ("Wolkenspeicher", "Wolkenspeicher", "m", "CloudVault"),
    ("Sonnenfänger", "Sonnenfänger", "m", "SunCatcher"),
    ("Knusperdose", "Knusperdosen", "f", "CrunchTin"),
    ("Frischebox", "Frischeboxen", "f", "FreshCase"),
    ("Schnellschäler", "Schnellschäler", "m", "SwiftPeeler"),
    ("Glanzmittel", "Glanzmittel", "n", "ShineUp"),
    ("Nebelfilter", "Nebelfilter", "m", "MistGuard"),
    ("Wärmekissen", "Wärmekissen", "n", "CozyPad"),
    ("Lichtleiste", "Lichtleisten", "f", "GlowStrip"),
    ("Kraftbürste", "Kraftbürsten", "f", "PowerBrush"),
    ("Trinkflasche", "Trinkflaschen", "f", "HydroMate"),
    ("Wanderschuh", "Wanderschuhe", "m", "TrailRunner"),
    ("Spartarif", "Spartarife", "m", "ThriftPlan"),
    ("Kundenkarte", "Kundenkarten", "f", "LoyaltyPass"),
    ("Rechenkern", "Rechenkerne", "m", "CoreUnit"),
    ("Datenbrücke", "Datenbrücken", "f", "DataBridge"),
    ("Stromwächter", "Stromwächter", "m", "PowerSentry"),
    ("Hausnetz", "Hausnetze", "n", "HomeMesh"),
    ("Besprechung", "Besprechungen", "f", "huddle"),
    ("Mitarbeiter", "Mitarbeiter", "m", "associate"),
    ("Auftrag", "Aufträge", "m", "work order"),
    ("Rechnung", "Rechnungen", "f", "invoice"),
    ("Lieferant", "Lieferanten", "m", "vendor"),
    ("Anlage", "Anlagen", "f", "attachment"),
    ("Abteilung", "Abteilungen", "f", "division"),
    ("Lager", "Lager", "n", "depot"),
    ("Vertrag", "Verträge", "m", "agreement"),
    ("Termin", "Termine", "m", "appointment"),
    ("Fahrrad", "Fahrräder", "n", "cycle"),
    ("Werkzeug", "Werkzeuge", "n", "implement"),
    ("Geschäft", "Geschäfte", "n", "storefront"),
    ("Handy", "Handys", "n", "handset"),
    ("Schrank", "Schränke", "m", "cupboard"),
    # English of two lowercase words, which a model may paraphrase where it copies a
    # one-word name (issue 48 §6: the sixth of six invented terms came out reworded)
    ("Lieferschein", "Lieferscheine", "m", "packing slip"),
    ("Besprechungsraum", "Besprechungsräume", "m", "huddle room"),
    ("Kundendienst", "Kundendienste", "m", "care team"),
    ("Mahnung", "Mahnungen", "f", "payment reminder"),
    ("Hausmeister", "Hausmeister", "m", "building manager"),
    ("Werkstatt", "Werkstätten", "f", "repair shop"),
    ("Kasse", "Kassen", "f", "checkout counter"),
    ("Zahlungsfrist", "Zahlungsfristen", "f", "payment window"),
)
ARTICLES = {
    "nom": {"m": "Der", "f": "Die", "n": "Das"},
    "acc": {"m": "den", "f": "die", "n": "das"},
    "dat": {"m": "dem", "f": "der", "n": "dem"},
}
TEMPLATES = (
    "{nom} {sg} ist heute im Angebot.",
    "Wir haben drei neue {pl} bestellt.",
    "Ich habe {acc} {sg} gestern im Laden gesehen.",
    "Mit {dat} {sg} geht alles viel schneller.",
    "Die {pl} sind leider ausverkauft.",
    "Bitte prüfen Sie {acc} {sg} bis Freitag.",
)


def build(seed: int = 30) -> list[dict]:
    rng = random.Random(seed)
    items = []
    for sg, pl, gender, en in TERMS:
        for template in rng.sample(TEMPLATES, 3):
            de = template.format(
                sg=sg,
                pl=pl,
                nom=ARTICLES["nom"][gender],
                acc=ARTICLES["acc"][gender],
                dat=ARTICLES["dat"][gender],
            )
            items.append({"de": de, "term": sg, "target": en})
    return items


def glossary_tsv() -> str:
    return "".join(f"{sg}\t{en}\n" for sg, _, _, en in TERMS)


def main() -> None:
    items = build()
    with open(OUT, "w", encoding="utf-8") as f:
        for item in items:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
    print(f"{len(items)} sentences, {len(TERMS)} terms, written to {OUT}")


if __name__ == "__main__":
    main()
