"""The dictionary under every word (issue 51): Ding's German-English entries, looked up
for an inflected or compound German word. Qt-free; the window, the CLI (``translator-app
lookup``) and tests use :class:`~translator_app.core.dictionary.lookup.Dictionary`."""
