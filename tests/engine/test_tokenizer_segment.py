import pytest

from translator_app.core.text.segment import join_with_spans, split_sentences
from translator_app.core.text.tokenizer import Tokenizer


@pytest.mark.parametrize(
    "text",
    ["Das Haus ist groß.", "Grüße aus Köln 😀 — “Zitat” ½ 𝔘nicode", "Ω≈ç√∫˜µ≤≥÷ 日本語", "a\tb"],
)
def test_byte_fallback_round_trip_has_no_unknowns(tokenizer, text):
    enc = tokenizer.encode(text)
    assert tokenizer.unk_id not in enc.ids
    assert len(enc.ids) == len(enc.pieces) == len(enc.spans)
    dec = tokenizer.decode(enc.ids)
    assert dec.text == tokenizer.sp.decode(list(enc.ids))
    # nmt_nfkc normalises; apart from that, the text comes back.
    assert dec.text == tokenizer.sp.decode(tokenizer.sp.encode(text))


def test_spans_point_into_the_original_text(tokenizer):
    text = "Grüße, Dr. Müller 😀!"
    enc = tokenizer.encode(text)
    covered = "".join(text[a:b] for a, b in enc.spans)
    assert covered.replace(" ", "") == text.replace(" ", "")
    for (a, b), piece in zip(enc.spans, enc.pieces, strict=True):
        assert 0 <= a <= b <= len(text)
        if not piece.startswith("<0x") and piece.strip("▁"):
            assert text[a:b].strip() == piece.replace("▁", " ").strip()


def test_nfkc_normalisation(tokenizer):
    assert tokenizer.encode("Ｈａｕｓ").ids == tokenizer.encode("Haus").ids


def test_special_ids_and_decode_drops_them(tokenizer):
    assert tokenizer.special_ids() == {"pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3}
    ids = tokenizer.encode("Haus").ids
    assert tokenizer.decode([2, *ids, 3, 0]).text == tokenizer.decode(ids).text
    assert tokenizer.has_byte_fallback()


def test_tokenizer_from_file(tmp_path, spm_bytes):
    (tmp_path / "spm.model").write_bytes(spm_bytes)
    assert Tokenizer.from_file(tmp_path / "spm.model").vocab_size == Tokenizer(spm_bytes).vocab_size


def test_german_abbreviations_and_ordinals_do_not_split():
    text = "Das ist z. B. ein Test. Dr. Müller kommt am 3. Oktober nach Berlin. Er bleibt bis Mo."
    sentences = [s.text for s in split_sentences(text)]
    assert sentences[:2] == [
        "Das ist z. B. ein Test.",
        "Dr. Müller kommt am 3. Oktober nach Berlin.",
    ]


@pytest.mark.parametrize(
    "line",
    [
        'Er sagte: "Gott hat dem Pharao gezeigt, was er tun will."',
        "„Kommst du morgen?“",
        "Das ist Satz 12.",
        "Wirklich?!",
        "Packliste",
    ],
)
def test_a_line_that_ends_its_only_sentence_is_one_segment_with_its_closing_quote(line):
    """A line with no sentence end but at its close is one sentence, its closing quote
    with it: pysbd split the quote off as a sentence of its own (989 of 78,183 such
    corpus lines), which the English then carried after a space ("… will. \"")."""
    assert [s.text for s in split_sentences(line)] == [line]


def test_a_line_of_sentences_is_still_split_by_its_sentence_ends():
    text = 'Er kam. "Ja", sagte sie. (Nr. 5) Dann ging er.'
    assert len(split_sentences(text)) > 1
    assert [s.text for s in split_sentences("Nein, mir ist alles recht.. Gut.")][-1] == "Gut."


def test_segments_have_offsets_and_lines():
    text = "Erste Zeile. Zweiter Satz!\n\n   Eingerückt?\nLetzte"
    segs = split_sentences(text)
    assert [s.text for s in segs] == ["Erste Zeile.", "Zweiter Satz!", "Eingerückt?", "Letzte"]
    assert [s.line for s in segs] == [0, 0, 2, 3]
    for s in segs:
        assert text[s.start : s.end] == s.text


def test_join_keeps_line_breaks_blank_lines_and_indentation():
    text = "Eins. Zwei.\n\n\n  Drei.\n"
    segs = split_sentences(text)
    out = join_with_spans(text, segs, ["One.", "Two.", "Three."])[0]
    assert out == "One. Two.\n\n\n  Three.\n"


def test_empty_and_whitespace_only():
    assert split_sentences("") == []
    assert split_sentences(" \n\t\n") == []
    assert join_with_spans("\n\n", [], [])[0] == "\n\n"


class _OldSentencePiece:
    """sentencepiece 0.2.0-0.2.2 (the GPU image of issue 51's comparison had 0.2.2):
    ``decode([], out_type="proto")`` raises "TypeError: expected bytes, str found"."""

    def __init__(self, sp):
        self._sp = sp

    def decode(self, ids, out_type=str):
        if not ids:
            raise TypeError("expected bytes, str found")
        return self._sp.decode(ids, out_type=out_type)


@pytest.mark.parametrize("ids", [[], [3], [2, 3], [0, 0]])
def test_an_output_of_only_stops_decodes_to_empty_text_on_any_sentencepiece(
    tokenizer, ids, monkeypatch
):
    """A weak model can stop at once (ids: padding 0, BOS 2, EOS 3); that is an empty
    line, not a crash of the whole comparison (as it was on sentencepiece 0.2.2)."""
    monkeypatch.setattr(tokenizer, "sp", _OldSentencePiece(tokenizer.sp))
    decoded = tokenizer.decode(ids)
    assert (decoded.text, decoded.ids, decoded.pieces, decoded.spans) == ("", (), (), ())
