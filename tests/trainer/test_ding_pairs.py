"""Ding entries cleaned into training pairs (trainer/ding_pairs.py, issue 46): golden
values on real lines of the dictionary."""

from trainer.ding_pairs import clean_side, ding_pairs, entry_pairs

CLOSINGS = (
    "Grüße {pl} (in Schlussformeln) (Schriftverkehr) | mit besten Grüßen | mit freundlichen "
    "Grüßen /MfG/ [adm.] | Viele Grüße :: regards (as used in closing formulas) "
    "(correspondence) | with best regards.; Best regards. | Yours sincerely [Br.]; Sincerely "
    "yours [Am.]; Sincerely [Am.] | Yours; Kind regards"
)


def test_marks_abbreviations_and_explanations_go():
    assert clean_side(" mit freundlichen Grüßen /MfG/ [adm.] ") == "mit freundlichen Grüßen"
    assert clean_side("Grüße {pl} (in Schlussformeln)") == "Grüße"
    assert clean_side("Yours sincerely [Br.]") == "Yours sincerely"
    assert clean_side("to issue a blank cheque/check") == "to issue a blank cheque"


def test_closing_formulas_pair_sub_entry_by_sub_entry():
    pairs = list(entry_pairs(CLOSINGS))
    assert ("mit freundlichen Grüßen", "Yours sincerely") in pairs
    assert ("mit besten Grüßen", "with best regards.") in pairs
    assert ("Viele Grüße", "Yours") in pairs
    # "Grüße" alone is a short word, not a compound: no pair.
    assert all(de != "Grüße" for de, _ in pairs)


def test_compound_nouns_kept_short_words_not():
    line = "Bürostuhl {m} | Bürostühle {pl} :: office chair | office chairs"
    assert list(entry_pairs(line)) == [
        ("Bürostuhl", "office chair"),
        ("Bürostühle", "office chairs"),
    ]
    assert list(entry_pairs("Aas {n} :: flesh")) == []


def test_placeholders_participles_and_specialist_fields_are_dropped():
    verb = (
        "etw. ausblenden {vt} (nicht mehr anzeigen) [comp.] | ausblendend | ausgeblendet "
        ":: to hide {hid; hidden} sth. | hiding | hidden"
    )
    assert list(entry_pairs(verb)) == []
    assert list(entry_pairs("Blaukehlschnäpper {m} [ornith.] :: blue-throated niltava")) == []
    assert list(entry_pairs("braun machend :: embrowning")) == []


def test_infinitive_phrase_loses_to_and_sentences_stay_whole():
    line = (
        "blanko {adv} | einen Scheck blanko ausstellen :: in blank | to issue a blank cheque/check"
    )
    assert ("einen Scheck blanko ausstellen", "issue a blank cheque") in list(entry_pairs(line))
    sentence = "Das ist doch nicht möglich. :: That really isn't possible."
    assert list(entry_pairs(sentence)) == [
        ("Das ist doch nicht möglich.", "That really isn't possible.")
    ]


def test_uneven_sub_entries_and_hyphenated_alternatives_are_skipped():
    assert list(entry_pairs("a b c | d e f :: x y z")) == []
    line = "Strichkode/Strichcode-Leser {m} :: bar code reader"
    assert list(entry_pairs(line)) == []


def test_each_pair_once_and_comments_skipped():
    lines = ["# Version :: devel", CLOSINGS, CLOSINGS]
    pairs = list(ding_pairs(lines))
    assert len(pairs) == len(set(pairs)) == len(list(entry_pairs(CLOSINGS)))
