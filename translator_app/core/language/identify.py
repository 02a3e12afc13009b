"""Which language a sentence is written in, where it is not German: text -> a language
code ("en", "fr") or None.

A German→English translator given English rewords it ("Could you please …" came back
reworded), and given French it garbles it („Bonjour, comment ça va?“ -> "Bonjour,
comment ça?"). A sentence identified as another language is kept as written and marked
(the step "other-languages", core/postedit/pipeline.py). The identifier is py3langid
(BSD-3-Clause: Lui and Baldwin's langid.py, its model stored as NumPy arrays, not a
pickle), asked to choose among German and the languages a German speaker most likely
pastes (:data:`LANGUAGES`), and believed only where it is sure at :data:`SURE` that the
text is not German: on the German of newstest2013 and everyday-dev (3,422 sentences, the
dev sets) no sentence reached it, while 98 % of their English did
(bench/bench_language_id.py measures the test sets).

>>> other_language("Could you please send me the file?")
'en'
>>> other_language("Das Meeting ist gecancelt.") is None
True
"""

from __future__ import annotations

import threading
from functools import cache

# The languages asked about: German, and those a German speaker most likely pastes (a
# short text is told apart better among a few than among py3langid's 97). Other
# scripts (Cyrillic, Greek, Arabic, Hebrew) are kept as written before this is asked
# (engine/candidates.in_another_script).
LANGUAGES = {
    "de": "German",
    "en": "English",
    "fr": "French",
    "es": "Spanish",
    "it": "Italian",
    "nl": "Dutch",
    "pt": "Portuguese",
    "pl": "Polish",
    "tr": "Turkish",
    "da": "Danish",
    "sv": "Swedish",
    "cs": "Czech",
}
# How sure the identifier must be that a text is not German: the probabilities of the
# other languages together (normalised over LANGUAGES; Spanish shares its mass with
# Portuguese). On the dev sets' German (newstest2013, everyday-dev: 3,422 sentences)
# none reached it, nor did any typed in haste but a line of Czech names and quotes;
# at 0.95 „Ja.“ and two lists of Czech place names did. German with English loanwords
# stays far below („Team-Meeting am Montag“, „Das Meeting ist gecancelt.“).
SURE = 0.98

_lock = threading.Lock()


@cache
def _identifier():
    """py3langid's identifier over :data:`LANGUAGES` (loading its model takes about a
    second: :func:`preload` does it ahead on a thread of the caller's choosing)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(LANGUAGES))
    return identifier


def preload() -> None:
    """Load the identifier now."""
    with _lock:  # loaded once, whichever thread asks first
        _identifier()


def preload_in_background() -> None:
    """Load the identifier on a thread of its own, beside the model's load (loading it
    at the first translation added about a second to a command line's one sentence)."""
    threading.Thread(target=preload, name="language-id", daemon=True).start()


def other_language(text: str) -> str | None:
    """The code of the language ``text`` is written in where that is sure not to be
    German (:data:`SURE`), else None."""
    if not any(c.isalpha() for c in text):
        return None
    preload()  # waits for a load in progress
    ranked = _identifier().rank(text)  # reads the model only: no lock
    german = dict(ranked).get("de", 0.0)
    language = ranked[0][0]
    return language if language != "de" and 1.0 - german >= SURE else None


def language_name(code: str) -> str:
    """The English name of a language of :data:`LANGUAGES` ("fr" -> "French")."""
    return LANGUAGES.get(code, code)
