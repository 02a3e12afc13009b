"""Reading parallel data (TSV, aligned pairs, TMX, compressed) and `translator-train spm`."""

import gzip
import lzma

import pytest

from conftest import DATA, tiny_pairs
from trainer import cli
from translator_app.core.data.corpus import DataError, read_all

TMX = """<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="de" datatype="plaintext" segtype="sentence" adminlang="en"
 creationtool="test" creationtoolversion="1" o-tmf="none"/>
<body>
<tu><tuv xml:lang="de-DE"><seg>Guten Morgen!</seg></tuv><tuv xml:lang="en-GB"><seg>Good morning!</seg></tuv></tu>
<tu><tuv xml:lang="de"><seg>Das <bpt i="1">&lt;b&gt;</bpt>Haus<ept i="1">&lt;/b&gt;</ept></seg></tuv>
<tuv xml:lang="en"><seg>The house</seg></tuv></tu>
<tu><tuv xml:lang="fr"><seg>Bonjour</seg></tuv><tuv xml:lang="en"><seg>Hello</seg></tuv></tu>
</body></tmx>
"""


def test_reads_every_format(tmp_path):
    (tmp_path / "a.tsv").write_text("Hallo\tHello\n\nJa\tYes\n", "utf-8")
    with gzip.open(tmp_path / "b.tsv.gz", "wt", encoding="utf-8") as f:
        f.write("Nein\tNo\n")
    with lzma.open(tmp_path / "c.de.xz", "wt", encoding="utf-8") as f:
        f.write("Eins\nZwei\n")
    with lzma.open(tmp_path / "c.en.xz", "wt", encoding="utf-8") as f:
        f.write("One\nTwo\n")
    (tmp_path / "d.tmx").write_text(TMX, "utf-8")
    files = [tmp_path / n for n in ("a.tsv", "b.tsv.gz", "c.de.xz", "c.en.xz", "d.tmx")]
    assert list(read_all(files)) == [
        ("Hallo", "Hello"),
        ("Ja", "Yes"),
        ("Nein", "No"),
        ("Eins", "One"),
        ("Zwei", "Two"),
        ("Guten Morgen!", "Good morning!"),
        ("Das <b>Haus</b>", "The house"),
    ]


BAD = {
    "missing tab": ("x.tsv", b"Hallo\tHello\nKaputt ohne Tab\n", r"x.tsv:2: no tab"),
    "two tabs": ("x.tsv", b"a\tb\tc\n", r"x.tsv:1: 2 tabs"),
    "invalid utf-8": ("x.tsv", b"ok\tok\nbad \xff\tx\n", r"x.tsv:2: invalid UTF-8"),
    "malformed tmx": (
        "x.tmx",
        b"<tmx><body>\n<tu><tuv xml:lang='de'><seg>a</tuv>\n</body></tmx>\n",
        r"x.tmx:2: malformed TMX",
    ),
    "missing partner": ("x.de", b"Hallo\n", r"x.de: has no English side: expected x.en"),
}


@pytest.mark.parametrize("kind", BAD)
def test_bad_data_names_file_and_line(tmp_path, kind):
    name, content, message = BAD[kind]
    (tmp_path / name).write_bytes(content)
    with pytest.raises(DataError, match=message):
        list(read_all([tmp_path / name]))


def test_line_count_mismatch(tmp_path):
    (tmp_path / "x.de").write_text("a\nb\nc\n")
    (tmp_path / "x.en").write_text("A\nB\n")
    with pytest.raises(
        DataError, match=r"x.en: has fewer lines than x.de \(which goes on at line 3\)"
    ):
        list(read_all([tmp_path / "x.de"]))


def test_spm_command_trains_a_tokenizer(tmp_path, capsys):
    out = tmp_path / "models" / "spm.model"
    code = cli.main(
        ["spm", "--data", str(DATA / "tiny_pairs.tsv"), "--vocab-size", "350", "--out", str(out)]
    )
    assert code == 0, capsys.readouterr().err
    from translator_app.core.text.tokenizer import Tokenizer

    tok = Tokenizer.from_file(out)
    assert tok.special_ids() == {"pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3}
    assert tok.has_byte_fallback()
    de, en = tiny_pairs()[0]
    assert tok.decode(tok.encode(de).ids).text == de
    assert f"from {len(tiny_pairs())} pairs" in capsys.readouterr().out


def test_spm_command_bad_data_writes_nothing(tmp_path, capsys):
    (tmp_path / "bad.tsv").write_text("Hallo\tHello\nkein tab\n")
    out = tmp_path / "spm.model"
    assert cli.main(["spm", "--data", str(tmp_path / "bad.tsv"), "--out", str(out)]) == 1
    assert (
        capsys.readouterr().err.strip()
        == f"error: {tmp_path / 'bad.tsv'}:2: no tab between the German and the English text"
    )
    assert not out.exists() and list(tmp_path.iterdir()) == [tmp_path / "bad.tsv"]


def test_one_dict_to_dataclass_helper_validates_or_falls_back():
    import pytest

    from trainer.config import TrainConfig
    from translator_app.core.models.from_dict import FieldError, from_dict
    from translator_app.gui.shared.settings import Settings

    t = from_dict(TrainConfig, {"steps": 5, "lr": 1}, "[train]")
    assert t.steps == 5 and t.lr == 1.0 and isinstance(t.lr, float)
    with pytest.raises(FieldError, match=r"\[train\]: steps must be int, got True"):
        from_dict(TrainConfig, {"steps": True}, "[train]")
    with pytest.raises(FieldError, match=r"unknown key\(s\) in \[train\]: stepz"):
        from_dict(TrainConfig, {"stepz": 5}, "[train]")
    s = from_dict(
        Settings,
        {"beam": "four", "extra_models": ["/a", 3, "/b"], "future_key": 1},
        "settings",
        unknown="ignore",
        invalid="default",
    )
    assert s.beam == Settings().beam and s.extra_models == ["/a", "/b"]
