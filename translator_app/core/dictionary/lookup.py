"""Look a German word up in Ding, inflected or compound: „ging“ finds „gehen“, „Bürostühle“
„Bürostuhl“, „Zauberpfannen“ (not in Ding) its last part „Pfanne“.

The word is tried as written, then as simplemma's lemma (a maintained lemmatiser, MIT,
trained on German word lists), then, for a compound, its longest tail that Ding knows.
Every value returned is immutable, so a worker thread can hand it to the window.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from translator_app.core.dictionary.ding import (
    WORD,
    SubEntry,
    forms,
    parse_line,
    phrase_words,
    plain,
)
from translator_app.core.dictionary.index import (
    FORM,
    HEADWORD,
    PHRASE,
    DictionaryError,
    build_index,
    index_stamp,
    read_only,
    source_stamp,
)
from translator_app.core.language.words import dictionary_marks
from translator_app.core.platform.paths import move_aside

SOURCE_NAME = "de-en.ding.txt.xz"
INDEX_NAME = "ding-de-en.sqlite"
ATTRIBUTION = (
    "Dictionary: Ding German-English, version 1.9 (Frank Richter, TU Chemnitz, "
    "https://dict.tu-chemnitz.de/), GPL 2 or later"
)
MAX_SENSES = 8
MAX_EXAMPLES = 3
MAX_PHRASES = 5
_MIN_TAIL = 3  # a compound's last part has at least this many letters
# Ding's longest single word has 51 letters; the longest German words in use about 70.
# A longer "word" (a pasted run of letters) is answered at once: the compound search tries
# every tail and lemmatises each, which grew to minutes for 20,000 letters.
MAX_WORD_CHARS = 80


@dataclass(frozen=True)
class Sense:
    """One dictionary entry for the word: its German (annotations removed), its English
    as Ding writes it, gender or word class ("f", "vt"), register or subject ("ugs.",
    "econ."), the entry's headword (and its English) where the word is one of its forms,
    and a few example phrases of the entry (German, English)."""

    german: str
    english: str
    tags: tuple[str, ...]
    register: tuple[str, ...]
    headword: str
    examples: tuple[tuple[str, str], ...]
    headword_english: str = ""  # the headword's English, where the sense is one of its forms
    # the marks of the German variant that writes the word (``register`` has the
    # entry's: „Festung {f}; … Bollwerk {n} [übtr.]“ is no figurative „Festung“)
    form_register: tuple[str, ...] = ()

    @property
    def line(self) -> str:
        """The sense in one line, as the window and the CLI list it: „Rechnung {f}
        [econ.] — invoice“ (the first gender or word class, every register mark)."""
        marks = "".join(f" {{{t}}}" for t in self.tags[:1])
        marks += "".join(f" [{m}]" for m in self.register)
        return f"{self.german}{marks} — {self.english}"


# Looked-up words a Dictionary remembers (a few MB at most).
LOOKUPS_KEPT = 20_000


@dataclass(frozen=True)
class LookupResult:
    """What the dictionary holds for ``word``. ``lemma``: the form found (the word
    itself, its lemma, or a compound's last part); ``compound``: (first part, last part)
    where only the last part was found; ``phrases``: other entries' phrases that use
    the word (German, English)."""

    word: str
    lemma: str
    senses: tuple[Sense, ...]
    phrases: tuple[tuple[str, str], ...] = ()
    compound: tuple[str, str] | None = None
    note: str = ""  # why nothing was looked up, where that was so

    @property
    def found(self) -> bool:
        return bool(self.senses or self.phrases)


def _lemma(word: str) -> str:
    import simplemma

    # The frugal backend: about 20 MB and 0.6 s to load where the default takes 110 MB.
    return simplemma.lemmatize(word, lang="de", low_memory=True)


# Regular English endings and what their stem ends in without them (blinks, boxes,
# batteries, blinked, carried, baked, blinking, baking).
_CONSONANT_Y = re.compile(r"[^aeiouy]y$")
_INFLECTIONS = (
    ("s", ""), ("es", ""), ("ies", "y"), ("ed", ""), ("ied", "y"), ("d", ""),
    ("ing", ""), ("ing", "e"),
)  # fmt: skip


def _stem(word: str, end: str) -> str:
    """``word`` without ``end``, where it ends so, keeps three letters and English
    spells it so; else "". A consonant's y takes "ies" and "ied" ("batterys", "studyed"
    are the model's garbles of „Batterien“, „studiert“), and "d" follows only an e."""
    stem = word[: -len(end)] if word.endswith(end) and len(word) - len(end) >= 3 else ""
    if end in ("s", "ed") and _CONSONANT_Y.search(stem):
        return ""
    return "" if end == "d" and not stem.endswith("e") else stem


def _not_a_head(word: str, form: str) -> bool:
    """Whether ``form``, a last part of ``word`` or its lemma, cannot be the part a
    compound is: a noun's last part is a noun, which German writes with a capital. The
    lemmatiser guesses lemmas for parts that are no words („Tagesticket“: „Sticket“ ->
    „sticken“, to embroider, where „Ticket“ is the noun)."""
    return word[:1].isupper() and not form[:1].isupper()


class Dictionary:
    """Ding, indexed in ``cache_dir`` (built on first use, a few seconds, and again when
    the source changes). One connection per thread: the worker looks up, the CLI too."""

    def __init__(self, source: Path, cache_dir: Path) -> None:
        self.source = Path(source)
        self.index_path = Path(cache_dir) / INDEX_NAME
        self._local = threading.local()
        self._ready = threading.Lock()
        self._checked = False
        self._generation = 0  # the index built anew after damage: reconnect every thread
        self.notice = ""  # a one-line notice for the user where the index was repaired
        # The one build on a thread of its own (build_in_background), with its own lock:
        # ensure_index holds ``_ready`` for the whole build, which a caller that must not
        # wait may not take.
        self._background = threading.Lock()
        self._builder: threading.Thread | None = None
        self._when_built: list[Callable[[bool], None]] = []
        self._built_now: bool | None = None  # what the background build found, once done
        self._build_error = ""
        # Words looked up, by the index's generation: the post-editing steps ask for the
        # same words many times per sentence (a third of their time was SQLite queries).
        self._looked_up: dict[tuple[int, str], LookupResult] = {}

    @classmethod
    def bundled(cls) -> Dictionary:
        """The app's dictionary: one per process and cache folder, so that the window's
        dictionary panel and the translator (words it copied) build its index once."""
        from translator_app.core.platform.paths import resources_dir, user_cache_dir

        key = (resources_dir() / "dictionary" / SOURCE_NAME, user_cache_dir())
        with _shared_lock:
            if key not in _shared:
                _shared[key] = cls(*key)
            return _shared[key]

    @classmethod
    def shipped(cls) -> Dictionary | None:
        """The app's dictionary where the app was installed with it, else None."""
        dictionary = cls.bundled()
        return dictionary if dictionary.source.is_file() else None

    def ensure_index(self) -> bool:
        """Build the index where it is missing or stale; True where it was built now."""
        with self._ready:
            if self._checked:
                return False
            if not self.source.is_file():
                raise DictionaryError(f"{self.source}: the dictionary file is missing")
            stamp = source_stamp(self.source)
            built = index_stamp(self.index_path) != stamp
            if built:
                try:
                    build_index(self.source, self.index_path, stamp)
                except OSError as e:
                    raise DictionaryError(
                        f"{self.index_path}: the dictionary's index cannot be written "
                        f"({e.strerror or e})"
                    ) from None
            self._checked = True
            return built

    def ready(self, wait: bool = True) -> bool:
        """Whether look-ups answer now. ``wait``: build a missing or stale index first
        (about ten seconds, once per dictionary file); else build it in the background
        (:meth:`build_in_background`) and answer False until it is there, without
        waiting for it (the window's translations meanwhile go without). A background
        build that failed raises DictionaryError."""
        if self._checked:
            return True
        if wait:
            self.ensure_index()
            return True
        self.build_in_background()
        if self._build_error:
            raise DictionaryError(self._build_error)
        return self._checked

    def build_in_background(self, done: Callable[[bool], None] | None = None) -> None:
        """Build the index where it is missing or stale on a thread of its own, one per
        dictionary; ``done(built_now)`` is called once it is there, on that thread (at
        once with False where the build is over: nothing new since). A failure is kept
        for :meth:`ready` to raise."""
        with self._background:
            if self._built_now is None:
                if done is not None:
                    self._when_built.append(done)
                if self._builder is None:
                    self._builder = threading.Thread(
                        target=self._build_quietly, name="dictionary-index", daemon=True
                    )
                    self._builder.start()
                return
        if done is not None:
            done(False)

    def _build_quietly(self) -> None:
        try:
            built = self.ensure_index()
        except DictionaryError as e:
            self._build_error = str(e)
            return
        with self._background:
            self._built_now, waiting = built, self._when_built
            self._when_built = []
        for done in waiting:
            done(built)

    def _db(self) -> sqlite3.Connection:
        db, generation = getattr(self._local, "db", None), getattr(self._local, "generation", -1)
        if db is None or generation != self._generation:
            if db is not None:
                db.close()
            self.ensure_index()
            db = read_only(self.index_path)
            self._local.db, self._local.generation = db, self._generation
        return db

    def _repair(self, error: sqlite3.Error, generation: int) -> None:
        """Set a damaged or vanished index aside and build it again, once per process
        (issue 64 §1: garbage over its pages answered "database disk image is malformed"
        in every later run). A second failure is a DictionaryError in one sentence."""
        with self._ready:
            if generation != self._generation:
                return  # another thread repaired it meanwhile
            if self.notice:
                raise DictionaryError(
                    f"{self.index_path}: the dictionary's index cannot be read even after "
                    f"it was built again ({error})"
                )
            aside = move_aside(self.index_path) if self.index_path.exists() else None
            self.notice = "the dictionary's index was damaged; it was built again" + (
                f" (the damaged file is {aside})" if aside else ""
            )
            self._checked = False
            self._generation += 1

    def _hits(self, form: str, kinds: tuple[int, ...]) -> list[tuple[int, int, int, str]]:
        marks = ",".join("?" * len(kinds))
        query = (
            f"SELECT f.line, f.sub, f.kind, l.text FROM forms f JOIN lines l ON l.id = f.line "
            f"WHERE f.form = ? AND f.kind IN ({marks}) ORDER BY f.kind, length(l.text) LIMIT 200"
        )
        return self._fetch(query, (form.casefold(), *kinds))

    def is_german_word(self, word: str) -> bool:
        """Whether ``word`` is a single-word German form of an entry (a headword, an
        inflected form, a compound), compared case-folded; or its lemma is („rostfreiem“,
        „Starke“: Ding lists „rostfrei“, „stark“), or, joined by hyphens, its last part
        („Spam-Ordner“)."""
        if self._is_form(word):
            return True
        head, hyphen, last = word.rpartition("-")
        if hyphen and head and len(last) >= _MIN_TAIL and self._is_form(last):
            return True
        lemma = _lemma(word)
        return lemma != word and self._is_form(lemma)

    def _is_form(self, word: str) -> bool:
        query = "SELECT 1 FROM forms WHERE form = ? AND kind IN (?, ?) LIMIT 1"
        return bool(self._fetch(query, (word.casefold(), HEADWORD, FORM)))

    def is_english_word(self, word: str) -> bool:
        """Whether ``word`` stands in any English side (case-folded). (A German compound
        of English parts is none: English writes „Higgs-Boson“ "Higgs boson".)"""
        return self._is_english((word,))

    def is_english_form(self, word: str) -> bool:
        """:meth:`is_english_word`, or a regular English inflection of one: Ding writes
        "to blink", the model "blinks", "blinked". (Not for a word the source holds too:
        „Hass“ and „Tages“ would pass for "has" and "tag" inflected.)"""
        if self.is_english_word(word):
            return True
        word = word.casefold()
        return self._is_english(
            [stem + add for end, add in _INFLECTIONS if (stem := _stem(word, end))]
        )

    def _is_english(self, words) -> bool:
        """Whether one of ``words`` (case-folded) stands in an English side."""
        if not words:
            return False
        query = f"SELECT 1 FROM english WHERE word IN ({','.join('?' * len(words))}) LIMIT 1"
        return bool(self._fetch(query, tuple(w.casefold() for w in words)))

    def _fetch(self, query: str, params: tuple) -> list[tuple]:
        """The rows of ``query``; a damaged index is built again once."""
        for attempt in (1, 2):
            generation = self._generation
            try:
                return self._db().execute(query, params).fetchall()
            except sqlite3.Error as e:  # malformed, another schema, deleted meanwhile
                if attempt == 2:
                    raise DictionaryError(
                        f"{self.index_path}: the dictionary's index cannot be read ({e})"
                    ) from None
                self._repair(e, generation)
        raise AssertionError("unreachable")

    def lookup(self, word: str) -> LookupResult:
        """The senses of ``word`` (one German word; surrounding punctuation is ignored).
        Decomposed letters (NFD, as macOS and some PDFs write „ü“) are composed first.
        Remembered for the index it was read from (at most :data:`LOOKUPS_KEPT` words)."""
        key = (self._generation, word)
        found = self._looked_up.get(key)
        if found is None:
            found = self._lookup(word)
            if len(self._looked_up) >= LOOKUPS_KEPT:
                self._looked_up.clear()
            self._looked_up[key] = found
        return found

    def _lookup(self, word: str) -> LookupResult:
        match = WORD.search(unicodedata.normalize("NFC", word))
        if match is None:
            return LookupResult(word, "", ())
        word = match.group()
        if len(word) > MAX_WORD_CHARS:
            shown = f"{word[:30]}…" if len(word) > 40 else word
            note = f"{len(word):,} letters long; no dictionary word has more than {MAX_WORD_CHARS}"
            return LookupResult(shown, "", (), note=note)
        lemma = _lemma(word)
        as_written = self._senses(word, word, lemma)
        # „gedacht“ is an adjective in Ding and the participle of „denken“: both.
        of_lemma = self._senses(lemma, word, lemma) if lemma != word else ()
        senses = _merged(as_written, of_lemma)
        if senses:
            form = word if as_written else lemma
            return LookupResult(word, form, senses, self._phrases(form))
        for i in range(1, len(word) - _MIN_TAIL + 1):  # the longest known last part
            tail = word[i:].capitalize() if word[:1].isupper() else word[i:]
            if not WORD.fullmatch(tail) or tail[:1] == "-":
                continue
            tail_lemma = _lemma(tail)
            for form in dict.fromkeys([tail, tail_lemma]):
                if _not_a_head(word, form):
                    continue
                senses = self._senses(form, tail, tail_lemma)
                if senses:
                    head = word[:i].rstrip("-")
                    return LookupResult(word, form, senses, self._phrases(form), (head, tail))
        return LookupResult(word, lemma, (), self._phrases(lemma))

    def _senses(self, form: str, written: str, lemma: str) -> tuple[Sense, ...]:
        entries = []  # (line, sub-entry, kind, the entry's sub-entries), each parsed once
        for line, sub, kind, text in self._hits(form, (0, FORM)):
            subs = parse_line(text)
            if sub < len(subs):
                entries.append((line, sub, kind, subs))
        entries.sort(key=lambda e: _rank(e, form, written, lemma))
        out, seen = [], set()
        for line, sub, _kind, subs in entries:
            if (line, sub) in seen:
                continue
            seen.add((line, sub))
            out.append(_sense(subs, sub, form))
            if len(out) == MAX_SENSES:
                break
        return tuple(out)

    def _phrases(self, form: str) -> tuple[tuple[str, str], ...]:
        out = []
        for _, sub, _, text in self._hits(form, (PHRASE,)):
            subs = parse_line(text)
            if sub < len(subs):
                pair = (plain(subs[sub].german), plain(subs[sub].english))
                if pair not in out:
                    out.append(pair)
            if len(out) == MAX_PHRASES:
                break
        return tuple(out)


_shared: dict[tuple[Path, Path], Dictionary] = {}
_shared_lock = threading.Lock()


def _merged(first: tuple[Sense, ...], second: tuple[Sense, ...]) -> tuple[Sense, ...]:
    """Senses of the form as written and of its lemma, half of the list each where both
    have many, without repeats."""
    half = MAX_SENSES // 2
    ordered = [*first[:half], *second[:half], *first[half:], *second[half:]]
    out: list[Sense] = []
    for sense in ordered:
        if all((sense.german, sense.english) != (o.german, o.english) for o in out):
            out.append(sense)
    return tuple(out[:MAX_SENSES])


_RARE = frozenset(dictionary_marks("rare"))  # "veraltet", "fig." …


def _rank(entry, form: str, written: str, lemma: str) -> tuple:
    """Sort key of a hit: the form as written first („Essen“, the meal, before „essen“,
    to eat), then headwords, entries of the lemma („ging“: "went" of „gehen“ before
    "walked" of „laufen“), entries that begin with the form, common usage, Ding's order."""
    line, sub, kind, subs = entry
    german = plain(subs[sub].german)
    want = form if form.casefold() != written.casefold() else written
    heads = {f.casefold() for f in forms(subs[0].german)}
    return (
        not any(w == want for w in WORD.findall(german)),
        kind,
        lemma.casefold() not in heads,
        not german.casefold().startswith(form.casefold()),
        any(m in _RARE for m in subs[sub].register),
        line,
    )


def _sense(subs: tuple[SubEntry, ...], index: int, form: str) -> Sense:
    """The sense of sub-entry ``index`` of an entry, with the entry's example phrases
    that use the form (else its first ones)."""
    sub = subs[index]
    phrases = [s for i, s in enumerate(subs) if i and i != index and phrase_words(s.german)]
    using = [s for s in phrases if form.casefold() in plain(s.german).casefold()]
    examples = tuple((plain(s.german), plain(s.english)) for s in (using or phrases)[:MAX_EXAMPLES])
    return Sense(
        german=plain(sub.german),
        english=" ".join(sub.english.split()),
        tags=sub.tags,
        register=sub.register,
        headword=plain(subs[0].german) if index else "",
        examples=examples,
        headword_english=" ".join(subs[0].english.split()) if index else "",
        form_register=sub.form_register(form),
    )
