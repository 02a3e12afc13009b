"""German and English word knowledge as data (resources/language, README there): the
calendar, number words, units, measures and function words, each read by one function of
words.py; the reader of amounts (amounts.py) and numbers in words (numbers.py); which
language a sentence is in (identify.py). Detectors and post-editing steps take their
lists from here."""
