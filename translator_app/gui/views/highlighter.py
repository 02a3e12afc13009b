"""The linked highlights: the word under the cursor or the mouse in one box, the words it
is aligned with in the other, and the alignment panel showing its sentence.

It also owns the English box's text: a new translation replaces it keeping the scroll
position and cursor, and the other box scrolls so that the sentence being worked on
shows on both sides.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QToolTip

from translator_app.core.engine.text_document import DocumentTranslation
from translator_app.gui.views.alignment import AlignmentPanel
from translator_app.gui.views.linking import (
    FactMark,
    Link,
    fact_marks,
    link_from_output,
    link_from_source,
    spelling_marks,
    weak_coverage,
)
from translator_app.gui.views.positions import from_qt, to_qt
from translator_app.gui.views.scroll_sync import ScrollSync


class LinkHighlighter(QObject):
    """Highlights for the translation shown in ``source``/``output``. Links show only
    while the output is that translation: not while it is ``stale`` (the German changed)
    or ``paused`` (the user is correcting the English)."""

    def __init__(
        self,
        source: QPlainTextEdit,
        output: QPlainTextEdit,
        panel: AlignmentPanel,
        coverage_hint: bool = False,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.source, self.output, self.panel = source, output, panel
        self.coverage_hint = coverage_hint
        self.shown: DocumentTranslation | None = None
        self.stale = False
        self.paused = False
        self.focus_side = "source"
        # What the highlights and the panel show now: a mouse move that changes none of
        # it costs no Qt call and no redraw.
        self._shown_link: tuple | None = None
        self._coverage: tuple[DocumentTranslation | None, list] = (None, [])
        self._facts: tuple[DocumentTranslation | None, list[FactMark]] = (None, [])
        # Words another vocabulary holds, for the spelling check (the window gives the
        # dictionary's, once it answers): word -> bool, or None.
        self.spelling_known = None
        self._setting_output = False
        # The two boxes scroll together; the program's own scrolls move one box only.
        self.scroll_sync = ScrollSync(source, output)
        source.cursorPositionChanged.connect(lambda: self._on_cursor("source"))
        output.cursorPositionChanged.connect(lambda: self._on_cursor("output"))
        # The viewports are matched by identity: while the window is torn down, events
        # still arrive after the text boxes' C++ objects are gone.
        self._viewports = []
        for side, edit in (("source", source), ("output", output)):
            edit.viewport().setMouseTracking(True)
            edit.viewport().installEventFilter(self)
            self._viewports.append((edit.viewport(), side, edit))

    @property
    def live(self) -> bool:
        """Whether the boxes show ``shown`` and links may be drawn."""
        return self.shown is not None and not self.stale and not self.paused

    def show(self, doc: DocumentTranslation) -> bool:
        """Make ``doc`` the translation shown; False while paused (the output box then
        keeps the user's text, and ``doc`` shows on :meth:`resume`)."""
        self.shown, self.stale = doc, False
        if self.paused:
            return False
        if self.output.toPlainText() != doc.output:
            self.set_output(doc.output)
        self.update()
        self.keep_in_view()
        return True

    def mark_stale(self) -> None:
        self.stale = True
        self.clear()

    def pause(self) -> None:
        """The user corrects the English: no links, and no marks on the English (its
        text is the user's now); the German keeps its marks, what the correction may
        mend ("12 Uhr" not kept, a term not used)."""
        self.paused = True
        self.clear()
        if self.shown is not None and not self.stale:
            self._apply(None, output=False)

    def resume(self, reshow: bool) -> None:
        """End a pause; ``reshow`` puts the translation back into the output box."""
        self.paused = False
        if reshow and self.shown is not None:
            self.set_output("")  # force the re-render
            self.show(self.shown)

    def forget(self) -> None:
        """No translation any more (the boxes were cleared)."""
        self.shown, self._shown_link, self._coverage = None, None, (None, [])
        self.panel.show_translation(None)

    def set_output(self, text: str) -> None:
        """Replace the output text, keeping its scroll position and cursor; the panel keeps
        following the side the user is on (setPlainText moves the output's cursor to 0,
        which is not the user's doing)."""
        edit = self.output
        cursor, scroll = edit.textCursor().position(), edit.verticalScrollBar().value()
        self._setting_output = True
        try:
            with self.scroll_sync.paused():
                edit.setPlainText(text)
                restored = edit.textCursor()
                restored.setPosition(min(cursor, to_qt(text, len(text))))
                edit.setTextCursor(restored)
                edit.verticalScrollBar().setValue(scroll)
        finally:
            self._setting_output = False
        self.scroll_sync.follow_first()  # the German box leads: the user types there

    def cursor_index(self, side: str) -> int:
        """The Python index in the shown text of ``side``'s cursor (Qt counts UTF-16)."""
        d = self.shown
        if side == "source":
            return from_qt(d.source, self.source.textCursor().position())
        return from_qt(d.output, self.output.textCursor().position())

    def _on_cursor(self, side: str) -> None:
        if side == "output" and self._setting_output:
            return
        self.focus_side = side
        self.update()
        self.keep_in_view()

    def keep_in_view(self) -> None:
        """Scroll the other box so that the sentence under the cursor shows on both sides
        (typing at the end of a long text must not leave the English at the top)."""
        if not self.live:
            return
        d = self.shown
        if self.focus_side == "source":
            i = d.sentence_at_source(self.cursor_index("source"))
            if i is None:
                return
            other, text, (start, end) = self.output, d.output, d.output_spans[i]
        else:
            i = d.sentence_at_output(self.cursor_index("output"))
            if i is None:
                return
            seg = d.segments[i]
            other, text, (start, end) = self.source, d.source, (seg.start, seg.end)
        with self.scroll_sync.paused():
            _scroll_into_view(other, to_qt(text, start), to_qt(text, end))

    def update(self, side: str | None = None, pos: int | None = None) -> None:
        """Highlight what is linked to Qt position ``pos`` of ``side`` (default: the
        cursor of the side the user is on)."""
        side = side or self.focus_side
        d = self.shown
        if not self.live:
            self.clear()
            return
        if pos is None:
            pos = self.cursor_index(side)
        else:
            pos = from_qt(d.source if side == "source" else d.output, pos)
        link = link_from_source(d, pos) if side == "source" else link_from_output(d, pos)
        sentence = (
            link.sentence
            if link
            else (d.sentence_at_source(pos) if side == "source" else d.sentence_at_output(pos))
        )
        if sentence is None and d.translations:
            sentence = 0
        shown = (link, sentence, self.coverage_hint)
        if (
            self._shown_link is not None
            and self._shown_link[0] is d
            and self._shown_link[1] == shown
        ):
            return  # the same word under the mouse: nothing to redo
        self._shown_link = (d, shown)
        self._apply(link)
        if sentence is not None and d.translations[sentence] is not None:
            row = link.piece if link and link.side == "output" else None
            col = link.piece if link and link.side == "source" else None
            self.panel.show_translation(d.translations[sentence], row, col)
        else:
            self.panel.show_translation(None)

    def _apply(self, link: Link | None, output: bool = True) -> None:
        base = self.output.palette().color(QPalette.ColorRole.Highlight)
        d = self.shown
        src_sel, out_sel = [], []
        if link is not None:
            from_source = link.side == "source"
            own_box, other_box = (src_sel, out_sel) if from_source else (out_sel, src_sel)
            own_edit, other_edit = (
                (self.source, self.output) if from_source else (self.output, self.source)
            )
            own_text, other_text = (d.source, d.output) if from_source else (d.output, d.source)
            own_box.append(_selection(own_edit, own_text, *link.own, underline=True))
            for start, end, share in link.ranges:
                color = QColor(base)
                color.setAlpha(int(40 + 180 * share))
                other_box.append(_selection(other_edit, other_text, start, end, background=color))
        if self.coverage_hint:
            if self._coverage[0] is not d:  # once per translation, not per move
                self._coverage = (d, weak_coverage(d))
            for start, end in self._coverage[1]:
                src_sel.append(_selection(self.source, d.source, start, end, wavy=True))
        # Always shown: a fact the English may not keep (a number, a unit, a negation, a
        # limit) is marked on both sides, in its own style (not a spelling mark), and
        # hovering either tells what may be lost.
        if self._facts[0] is not d:
            self._facts = (d, fact_marks(d) + spelling_marks(d, self.spelling_known))
        for mark in self._facts[1]:
            src_sel.append(_selection(self.source, d.source, *mark.source, fact=mark.kind))
            if mark.output is not None:
                out_sel.append(_selection(self.output, d.output, *mark.output, fact=mark.kind))
        # Glossary terms: the English used is marked green, a term not used red.
        missed, used = d.glossary_marks()
        for start, end in missed:
            src_sel.append(_selection(self.source, d.source, start, end, wavy=NUMBER_MARK))
        for start, end in used:
            out_sel.append(_selection(self.output, d.output, start, end, wavy=TERM_MARK))
        self.source.setExtraSelections(src_sel)
        self.output.setExtraSelections(out_sel if output else [])

    def clear(self) -> None:
        if self._shown_link is None:
            return  # nothing is highlighted (only update() sets highlights)
        self._shown_link = None
        self.source.setExtraSelections([])
        self.output.setExtraSelections([])

    def highlighted_ranges(self, side: str) -> list[tuple[int, int]]:
        """The Qt ranges with a background highlight in ``side``'s box."""
        edit = self.source if side == "source" else self.output
        return [
            (s.cursor.selectionStart(), s.cursor.selectionEnd())
            for s in edit.extraSelections()
            if s.format.background().style() != Qt.NoBrush
            and s.format.background().color() != QColor(FACT_BACKGROUND)  # marks, not links
        ]

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        """Hovering a word links it; leaving the box goes back to the cursor's word."""
        kind = event.type()
        for viewport, side, edit in self._viewports:
            if obj is viewport:
                if kind == QEvent.MouseMove and not event.buttons():
                    pos = edit.cursorForPosition(event.position().toPoint()).position()
                    self.update(side, pos)
                    self._fact_tip(side, pos, event.globalPosition().toPoint(), viewport)
                elif kind == QEvent.Leave:
                    self.update()
        return False

    def fact_tip(self, side: str, pos: int) -> str:
        """What the fact mark at Qt position ``pos`` of ``side``'s box says ("" where
        there is none)."""
        d = self._facts[0]
        if d is None or d is not self.shown or self.stale:
            return ""
        text = d.source if side == "source" else d.output
        for mark in self._facts[1]:
            span = mark.source if side == "source" else mark.output
            if span is not None and to_qt(text, span[0]) <= pos < to_qt(text, span[1]):
                return mark.message
        return ""

    def _fact_tip(self, side: str, pos: int, where, viewport) -> None:
        tip = self.fact_tip(side, pos)
        if tip:
            QToolTip.showText(where, tip, viewport)
        elif QToolTip.isVisible():
            QToolTip.hideText()


# The wavy underline of a glossary term the translation does not use (red).
NUMBER_MARK = "#d02020"
TERM_MARK = "#20a040"  # the English of a glossary term, as the glossary asked
# A fact the English may have lost: an amber background with a dotted brown underline,
# on both sides; not red and wavy, which reads as a spelling mark.
FACT_BACKGROUND = "#ffe3a3"
FACT_UNDERLINE = "#a05a00"
# A German word no English word seems to carry (issue 48 §3): lilac, German side only.
DROPPED_BACKGROUND = "#e8dcff"
DROPPED_UNDERLINE = "#6a3fb0"
# A word the model copied, said with the dictionary's English (issue 60): pale blue,
# both sides.
DICTIONARY_BACKGROUND = "#d6ecff"
DICTIONARY_UNDERLINE = "#1f5fa0"
# A sentence in another language, kept as written (issue 89 §3): pale grey, both sides.
LANGUAGE_BACKGROUND = "#e4e4e4"
LANGUAGE_UNDERLINE = "#5a5a5a"
MARK_TEXT = "#1a1a1a"
# A German word that looks typed wrong (issue 89 §3): a red wavy line, as spell checkers.
SPELLING_UNDERLINE = "#e0201b"
CHECK_STYLES = {
    "fact": (FACT_BACKGROUND, FACT_UNDERLINE),
    "dropped": (DROPPED_BACKGROUND, DROPPED_UNDERLINE),
    "dictionary": (DICTIONARY_BACKGROUND, DICTIONARY_UNDERLINE),
    "language": (LANGUAGE_BACKGROUND, LANGUAGE_UNDERLINE),
}


def _selection(
    edit, text: str, start: int, end: int, background=None, underline=False, wavy=False, fact=""
):
    """A highlight of ``text[start:end]`` (Python indices) in ``edit``, which shows ``text``;
    ``wavy``: True for the coverage hint's underline, or a colour name; ``fact``: the
    kind of a mark to check ("fact", "dropped", "dictionary" or "language",
    :data:`CHECK_STYLES`)."""
    sel = QTextEdit.ExtraSelection()
    cursor = QTextCursor(edit.document())
    cursor.setPosition(to_qt(text, start))
    cursor.setPosition(to_qt(text, end), QTextCursor.KeepAnchor)
    sel.cursor = cursor
    fmt = QTextCharFormat()
    if background is not None:
        fmt.setBackground(background)
    if underline:
        fmt.setFontUnderline(True)
    if wavy:
        fmt.setUnderlineStyle(QTextCharFormat.WaveUnderline)
        fmt.setUnderlineColor(QColor(wavy if isinstance(wavy, str) else "#d08000"))
    if fact == "spelling":  # as spelling checkers mark a word: no background
        fmt.setUnderlineStyle(QTextCharFormat.SpellCheckUnderline)
        fmt.setUnderlineColor(QColor(SPELLING_UNDERLINE))
    elif fact:
        back, under = CHECK_STYLES[fact]
        fmt.setBackground(QColor(back))
        fmt.setForeground(QColor(MARK_TEXT))  # a pale mark keeps dark text in a dark theme
        fmt.setUnderlineStyle(QTextCharFormat.DotLine)
        fmt.setUnderlineColor(QColor(under))
    sel.format = fmt
    return sel


def _scroll_into_view(edit: QPlainTextEdit, start: int, end: int) -> None:
    """Scroll ``edit`` (not its cursor) until Qt positions start..end are visible, or at
    least their beginning. A QPlainTextEdit scrolls by lines of unknown height (wrapped
    lines), so the scroll value is found by bisection: top and bottom only fall as it grows."""
    last = edit.document().characterCount() - 1
    bar, height = edit.verticalScrollBar(), edit.viewport().height()

    def edges(value: int) -> tuple[int, int]:
        bar.setValue(value)
        cursor = QTextCursor(edit.document())
        cursor.setPosition(min(start, last))
        top = edit.cursorRect(cursor).top()
        cursor.setPosition(min(end, last))
        return top, edit.cursorRect(cursor).bottom()

    current = bar.value()
    top, bottom = edges(current)
    if top < 0:  # above: the largest value that shows the beginning
        lo, hi = bar.minimum(), current
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if edges(mid)[0] >= 0 else (lo, mid - 1)
        bar.setValue(lo)
    elif bottom > height:  # below: the smallest value that shows the end (or the top)
        lo, hi = current, bar.maximum()
        while lo < hi:
            mid = (lo + hi) // 2
            t, b = edges(mid)
            lo, hi = (lo, mid) if b <= height or t <= 0 else (mid + 1, hi)
        bar.setValue(lo)
    else:
        bar.setValue(current)
