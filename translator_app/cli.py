"""``translator-app`` command line.

``translator-app translate [TEXT ...]`` translates its arguments, or standard input line
by line, to standard output; ``--input FILE [--output FILE]`` translates a .txt, .docx or
.odt file into a file of the same kind (structure and formatting kept). Errors are one
sentence on stderr and a non-zero exit.
``translator-app train ...`` is ``translator-train ...``: the built app has one executable,
and the app runs its fine-tunes through it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import unicodedata
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from translator_app.cli_lookup import add_lookup, run_lookup
from translator_app.cli_models import add_models, run_models
from translator_app.cli_report import sentence_json, warn_missing
from translator_app.cli_steps import add_steps, add_steps_argument, run_steps
from translator_app.core.cli_common import run_main
from translator_app.core.dictionary.index import DictionaryError
from translator_app.core.platform.hardware import DEVICES, ENGINES, PRECISIONS
from translator_app.core.platform.paths import special_file
from translator_app.gui.window.app import add_arguments as add_gui_arguments

STDIN_BATCH_LINES = 32


class CliError(Exception):
    """An error to report as one line on stderr."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="translator-app", description="Offline German→English translator."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    gui = sub.add_parser(
        "gui",
        help="open the translator window (the default with no command)",
        description="Open the desktop translator window.",
    )
    add_gui_arguments(gui)
    sub.add_parser(
        "train",
        add_help=False,
        help="the trainer: `translator-app train --help` (same as translator-train)",
    )
    _add_translate(sub)
    add_lookup(sub)
    add_models(sub)
    add_steps(sub)
    return parser


def _add_translate(sub) -> None:
    tr = sub.add_parser(
        "translate",
        help="translate German text to English on the command line",
        description="Translate the TEXT arguments, or standard input line by line, or a "
        "document (--input), to English.",
    )
    tr.add_argument(
        "text",
        nargs="*",
        metavar="TEXT",
        help="German text (default: read standard input); words without quotes are one "
        "text (translate Ich habe Hunger), quoted texts are translated one by one",
    )
    tr.add_argument(
        "--input",
        type=Path,
        default=None,
        metavar="FILE",
        help="a German .txt, .docx or .odt file: its translation is written to --output "
        "(paragraphs, headings, lists, tables and bold/italic kept)",
    )
    tr.add_argument(
        "--output",
        type=Path,
        default=None,
        metavar="FILE",
        help="where --input's translation goes, of the same kind "
        "(default: NAME.en.EXT beside the input); an existing file only with --force",
    )
    tr.add_argument("--force", action="store_true", help="overwrite an existing --output file")
    tr.add_argument(
        "--model", type=Path, default=None, help="model directory (default: the bundled model)"
    )
    tr.add_argument(
        "--beam", type=int, default=None, help="beam size (1 = greedy; default: the model's)"
    )
    tr.add_argument(
        "--nbest",
        type=int,
        default=None,
        help="candidates weighed per sentence, listed in --json output "
        "(default: the model's; wider than --beam widens the beam)",
    )
    tr.add_argument("--device", choices=DEVICES, default="auto")
    tr.add_argument(
        "--precision",
        choices=PRECISIONS,
        default="auto",
        help="auto (default: int8 on the CPU, fp32 on CUDA), fp32, bf16 autocast, "
        "or int8 dynamic quantisation (CPU)",
    )
    tr.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="auto (default: CTranslate2 for Transformer models where it is installed, "
        "else PyTorch), ctranslate2, or torch (the reference search)",
    )
    tr.add_argument(
        "--json", action="store_true", help="one JSON object per line with pieces and attention"
    )
    add_steps_argument(tr)
    tr.add_argument(
        "--glossary",
        type=Path,
        default=None,
        metavar="FILE.tsv",
        help="German<TAB>English terms the translation must use (a model trained with "
        "term annotations)",
    )


def _stdin_lines(stream) -> Iterator[list[str]]:
    """Batches of decoded lines; one line at a time when a person is typing."""
    interactive = stream.isatty()
    batch: list[str] = []
    for number, raw in enumerate(stream, start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:  # translate the rest of the line and go on
            print(
                f"warning: standard input line {number} is not valid UTF-8 (byte {e.start}); "
                "its invalid bytes were replaced by U+FFFD",
                file=sys.stderr,
            )
            line = raw.decode("utf-8", "replace")
        batch.append(line.rstrip("\r\n"))
        if interactive or len(batch) >= STDIN_BATCH_LINES:
            yield batch
            batch = []
    if batch:
        yield batch


def _translate_text(translator, args, progress=None):
    """Translator.translate_document with the command line's search and glossary, on the
    text composed (NFC): decomposed letters („u“ + combining diaeresis, from macOS or a
    PDF) would escape the glossary, the fact checks and the model's vocabulary;
    ``progress(done, all)`` after each part of the sentences, where given."""
    return lambda text: translator.translate_document(
        unicodedata.normalize("NFC", text),
        progress=progress,
        beam=args.beam,
        nbest=args.nbest,
        glossary=args.glossary_terms,
    )


def _write_lines(
    translator, lines: list[str], args, out: TextIO, where: str = "line", first: int = 1
) -> int:
    """Translate ``lines`` (``where`` ``first`` and on: "standard input line" 1) to
    ``out``; returns how many sentences came out empty."""
    doc = _translate_text(translator, args)("\n".join(lines))
    outputs = doc.output.split("\n")
    empty = warn_missing(doc, where, first)
    if not args.json:
        out.write("\n".join(outputs) + "\n")
    else:
        checked = iter(
            translator.check_dropped([t for t in doc.translations if t and not t.failed])
        )
        translations = [t if not t or t.failed else next(checked) for t in doc.translations]
        for i, line in enumerate(lines):
            sentences = [
                sentence_json(t)
                for seg, t in zip(doc.segments, translations, strict=True)
                if seg.line == i
            ]
            record = {"source": line, "translation": outputs[i], "sentences": sentences}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    out.flush()
    return empty


def _index_the_dictionary(translator) -> None:
    """Where ``translator``'s steps look words up and the dictionary has no index yet
    (the first run after installing: the steps of stage "words" wait about five seconds
    for it), say so on stderr."""
    from translator_app.core.postedit.pipeline import wants_dictionary

    dictionary = translator.dictionary if wants_dictionary(translator.steps) else None
    if dictionary is not None and not dictionary.index_path.is_file():
        print("Indexing the dictionary (once after installing, a few seconds)…", file=sys.stderr)


def _load(args):
    from translator_app.core import BundleError, Translator, bundled_model_dir
    from translator_app.core.engine.bundle import load_bundle
    from translator_app.core.limits import check_search

    path = args.model or bundled_model_dir()
    if args.model is None and not path.exists():
        raise CliError(
            f"no model is bundled at {path}; pass --model DIR with a model directory "
            "(translator-train writes them)"
        )
    try:
        check_search(beam=args.beam, nbest=args.nbest)
    except ValueError as e:
        raise CliError(f"--{e}") from None
    from translator_app.core.postedit.pipeline import parse_steps, with_english

    try:
        steps = parse_steps(args.steps)
        if args.english:
            steps = parse_steps(with_english(args.steps, args.english))
    except ValueError as e:
        raise CliError(f"--steps: {e}") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bundle = load_bundle(path, args.device, lazy=args.engine != "torch")
        translator = Translator.from_bundle(bundle, args.precision, args.engine, steps)
    except BundleError as e:
        raise CliError(str(e)) from None
    except ValueError as e:
        raise CliError(str(e)) from None
    for note in bundle.warnings:
        print(f"warning: {note}", file=sys.stderr)
    _index_the_dictionary(translator)
    if translator.engine_repaired:
        print(f"repaired: {translator.engine_repaired}", file=sys.stderr)
    args.glossary_terms = None
    if args.glossary is not None:
        from translator_app.core.data.corpus import DataError
        from translator_app.core.faithful.glossary import read_glossary

        try:
            args.glossary_terms = read_glossary(args.glossary)
        except DataError as e:
            raise CliError(str(e)) from None
        if args.glossary_terms and not translator.follows_glossary:
            raise CliError(
                f"{path}: this model was not trained to follow a glossary; "
                "translate without --glossary or use a model trained with term annotations"
            )
    return translator


def _check_files(args) -> None:
    """--input/--output make sense together and alone: refused before the model loads."""
    if args.input is None:
        if args.output is not None:
            raise CliError("--output needs --input FILE (text arguments print to the terminal)")
        return
    if args.text:
        raise CliError("give either TEXT arguments or --input FILE, not both")
    if args.json:
        raise CliError("--json writes text translations; it does not apply to --input")
    from translator_app.core.documents import SUFFIXES, listed

    suffix = args.input.suffix.lower()
    if suffix not in SUFFIXES:
        raise CliError(f"{args.input}: translate {listed()} files (not {suffix or 'this'})")
    if not args.input.exists():
        raise CliError(f"{args.input}: no such file")
    if special_file(args.input):  # a pipe would hang the reader, /dev/zero never end
        raise CliError(f"{args.input}: not a regular file (a pipe, a device or a folder)")
    if args.output is None:
        args.output = args.input.with_name(f"{args.input.stem}.en{args.input.suffix}")
    if args.output.resolve() == args.input.resolve():
        raise CliError(f"{args.output}: the translation would overwrite its German original")
    _check_output_kind(args.input, args.output)
    if special_file(args.output):
        # a pipe or a device would be replaced by a file (as root: /dev/null itself)
        raise CliError(
            f"{args.output}: not a regular file (a pipe, a device or a folder); the "
            "translation is written to a file: choose another --output"
        )
    if args.output.exists() and not args.force:
        raise CliError(
            f"{args.output}: already exists; add --force to overwrite it, or choose "
            "another --output"
        )


def _check_output_kind(source: Path, target: Path) -> None:
    """A document is saved as its own kind, and text as text: a .docx name over plain
    text would be a file that Word refuses to open."""
    from translator_app.core.documents import RICH_SUFFIXES

    kind, wanted = source.suffix.lower(), target.suffix.lower()
    if kind in RICH_SUFFIXES and wanted != kind:
        raise CliError(f"{target}: a translated {kind} document is saved as {kind}")
    if kind not in RICH_SUFFIXES and wanted in RICH_SUFFIXES:
        raise CliError(
            f"{target}: the translation of a text file is text; name it .txt (to keep a "
            f"document's formatting, translate the {wanted} document itself)"
        )


def _texts(words: list[str]) -> list[str]:
    """The TEXT arguments: words given without quotes (``translate Ich habe Hunger``:
    no argument holds a space) are one text; each quoted text is one."""
    if len(words) > 1 and not any(any(c.isspace() for c in w) for w in words):
        return [" ".join(words)]
    return words


def _translate_text_file(translator, args) -> int:
    """A .txt file streams: each block of paragraphs is written as it is translated, with
    progress on stderr (a 50 MB file takes hours on 2 cores)."""
    from translator_app.core.documents import MAX_DOCUMENT_BYTES, DocumentError
    from translator_app.core.documents.streamed import NotText, translate_stream

    empty = 0

    def on_block(doc, progress) -> None:
        nonlocal empty
        first = progress.done - doc.source.count("\n")  # the block's first line
        empty += warn_missing(doc, f"{args.input} line", first)
        print(f"translated {progress.line()}", file=sys.stderr, flush=True)

    try:
        if args.input.stat().st_size > MAX_DOCUMENT_BYTES:
            raise CliError(f"{args.input}: larger than {MAX_DOCUMENT_BYTES // 1_000_000} MB")
        sentences = translate_stream(
            args.input, args.output, _translate_text(translator, args), on_block
        )
    except NotText as e:
        raise CliError(str(e)) from None
    except (OSError, DocumentError) as e:
        raise CliError(
            f"{getattr(e, 'filename', None) or args.input}: {getattr(e, 'strerror', None) or e}"
        ) from None
    print(f"wrote {args.output} ({sentences} sentences)", file=sys.stderr)
    return 1 if empty else 0


class _Said:
    """Progress of a document's sentences on stderr, at most every two seconds."""

    def __init__(self) -> None:
        self.last = time.monotonic()
        self.first: tuple[float, int] | None = None  # when the first part was done, and how many

    def __call__(self, done: int, total: int) -> None:
        """Said at the first part (without a rate: the model's load and the document's
        reading came before it), then every two seconds with the rate since."""
        now = time.monotonic()
        if self.first is not None and now - self.last < 2 and done < total:
            return
        self.last = now
        from translator_app.core.documents.streamed import DocumentProgress

        if self.first is None:
            self.first = (now, done)
        start, since = self.first
        said = DocumentProgress(done, total, now - start, "sentences", since).line()
        print(f"translated {said}", file=sys.stderr, flush=True)


def _translate_file(translator, args) -> int:
    from translator_app.core.documents import RICH_SUFFIXES, DocumentError, translate_file
    from translator_app.core.documents.streamed import claim_output

    if args.input.suffix.lower() not in RICH_SUFFIXES:
        return _translate_text_file(translator, args)
    try:  # one writer: a second translation into this file is refused, not raced
        lock = claim_output(args.output)
    except OSError as e:
        raise CliError(f"{args.output}: {e.strerror or e}") from None
    try:
        if args.output.exists() and not args.force:  # written since the check at start
            raise CliError(f"{args.output}: another translation has just written it; add --force")
        said = _Said()
        doc = translate_file(args.input, args.output, _translate_text(translator, args, said))
    except DocumentError as e:
        raise CliError(str(e)) from None
    finally:
        lock.unlink(missing_ok=True)
    empty = warn_missing(doc)
    print(f"wrote {args.output} ({len(doc.segments)} sentences)", file=sys.stderr)
    return 1 if empty else 0


def run_translate(args) -> int:
    from translator_app.core.text.clean import without_lone_surrogates

    _check_files(args)
    if args.text and not any(text.strip() for text in args.text):
        raise CliError(  # before the model loads: nothing would come of it
            "nothing to translate: the text is empty (give German text, --input FILE, or "
            "text on standard input)"
        )
    from translator_app.core.documents import RICH_SUFFIXES

    if args.input is not None and args.input.suffix.lower() in RICH_SUFFIXES:
        from translator_app.core.documents import DocumentError, check_package

        try:  # a refused document never waits for the model to load
            check_package(args.input)
        except DocumentError as e:
            raise CliError(str(e)) from None
    translator = _load(args)
    if args.input is not None:
        return _translate_file(translator, args)
    empty = 0
    if args.text:
        for number, text in enumerate(_texts(args.text), start=1):
            text, repaired = without_lone_surrogates(text)  # bytes that were not UTF-8
            if repaired:
                print(
                    f"warning: argument {number} is not valid UTF-8 text; "
                    "its invalid bytes were replaced by U+FFFD",
                    file=sys.stderr,
                )
            where = f"argument {number} line" if len(args.text) > 1 else "line"
            empty += _write_lines(translator, text.split("\n"), args, sys.stdout, where)
    else:
        said = False  # any text at all: blank lines keep their place in the output
        first = 1
        for lines in _stdin_lines(sys.stdin.buffer):
            said = said or any(line.strip() for line in lines)
            where = "standard input line"
            empty += _write_lines(translator, lines, args, sys.stdout, where, first)
            first += len(lines)
        if not said:
            raise CliError("nothing to translate: standard input held no text")
    return 1 if empty else 0


def run_gui(args: argparse.Namespace) -> int:
    try:
        from translator_app.gui.window.app import run_gui as start
    except ImportError as e:  # installed without the [gui] extra
        raise CliError(
            f"the window needs PySide6 and matplotlib ({e}); install them with "
            "pip install 'translator-app[gui]' (scripts/setup.sh does), or use "
            "'translator-app translate'"
        ) from None

    return start(args)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # No command, or the window's own options or a file first ("translator-app --text
    # 'Hallo'", "translator-app brief.txt"): the window.
    if not argv or argv[0] not in (
        "gui",
        "translate",
        "lookup",
        "models",
        "steps",
        "train",
        "-h",
        "--help",
    ):
        argv = ["gui", *argv]
    if argv[0] == "train":
        # The trainer runs as its own process (the app never imports it); the built app
        # dispatches "train" before this (packaging/entry_app.py).
        import subprocess

        return subprocess.call([sys.executable, "-m", "trainer", *argv[1:]])
    commands = {
        "translate": run_translate,
        "gui": run_gui,
        "lookup": run_lookup,
        "models": run_models,
        "steps": run_steps,
    }
    return run_main(build_parser(), commands, argv, (CliError, DictionaryError))
