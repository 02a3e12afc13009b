"""The app's word lists are data files read by one reader (issue 62 §1)."""

from __future__ import annotations

import pytest

from translator_app.core.data.tables import read_table
from translator_app.core.faithful import entity_lists
from translator_app.core.faithful.number_check import MONTHS_DE, WEEKDAYS_DE


def test_the_lists_are_read_from_resources():
    assert "Schneider" in entity_lists.WORD_SURNAMES
    assert ("Köln", "Cologne") in entity_lists.PLACES
    assert len(entity_lists.FIRST_NAMES) > 50 and len(entity_lists.MORE_PLACES) > 50
    assert all(len(p) == 2 and all(p) for p in entity_lists.PLACES + entity_lists.MORE_PLACES)


def test_a_row_of_the_wrong_width_names_its_file_and_line(tmp_path):
    table = tmp_path / "places.tsv"
    table.write_text("# German, English\nKöln\tCologne\nWien\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"places\.tsv:3: 1 columns, expected 2"):
        read_table(table, 2)


def test_one_calendar_for_the_checks_and_the_corpora():
    from trainer.register_tables import MONTHS, WEEKDAYS

    assert [de for de, _ in MONTHS] == MONTHS_DE
    assert [de for de, _ in WEEKDAYS] == WEEKDAYS_DE[:6]  # appointments: Monday to Saturday
