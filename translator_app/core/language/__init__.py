"""German and English word knowledge as data (resources/language, README there): the
calendar, number words, measures and function words, each read by one function of
words.py. Detectors and post-editing steps take their lists from here."""
