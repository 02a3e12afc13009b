"""The tables of the register corpus (trainer/register_corpus.py, issue 46): slot
fillers and the sentence templates of letters, e-mails, forms, shops, tenants, doctors,
travel and private mail, read from ``trainer/data/register`` (one file a table; the
logic is in register_corpus).
"""

from __future__ import annotations

from trainer.tables import rows, words
from translator_app.core.faithful.number_check import (
    MONTHS_DE,
    MONTHS_EN,
    WEEKDAYS_DE,
    WEEKDAYS_EN,
)

SURNAMES = words("register", "surnames")
WOMEN = words("register", "women")
MEN = words("register", "men")
# The calendar is the core's; appointments fall on working days (Monday to Saturday).
WEEKDAYS = list(zip(WEEKDAYS_DE, WEEKDAYS_EN, strict=True))[:6]
MONTHS = list(zip(MONTHS_DE, MONTHS_EN, strict=True))
COUNTS = rows("register", "counts")
DOCUMENTS = rows("register", "documents")
THANKS_FOR = rows("register", "thanks-for")
MEETINGS = rows("register", "meetings")
GOODS = rows("register", "goods")
CRATES = rows("register", "crates")
DEPARTMENTS = rows("register", "departments")
SALUTATIONS = rows("register", "salutations")
CLOSINGS = rows("register", "closings")
TEMPLATES = rows("register", "templates")
MORE_GOODS = rows("register", "more-goods")
FIELDS = rows("register", "fields")
LABELS = rows("register", "labels")
ROOMS = rows("register", "rooms")
WORK_VERBS = rows("register", "work-verbs")
FIXTURES = rows("register", "fixtures")
WORKERS = rows("register", "workers")
PLACES = rows("register", "places")
REASONS = rows("register", "reasons")
CITIES = rows("register", "cities")
CHILDREN = rows("register", "children")
PRIVATE_THANKS = rows("register", "private-thanks")
MORE_TEMPLATES = rows("register", "more-templates")
