"""What the project's command lines share: dispatch and turning errors into one line.

Free of heavy imports (``translator_app.core`` loads its modules on first use), so
``--help`` answers at once; the trainer may import it (it depends on the core only).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from translator_app.core.limits import PROTECT_MODES

EXIT_ERROR = 1
EXIT_USAGE = 2


def run_main(
    parser: argparse.ArgumentParser,
    handlers: dict[str, Callable[[argparse.Namespace], int]],
    argv: list[str] | None,
    expected: tuple[type[BaseException], ...],
) -> int:
    """Parse ``argv``, run the chosen sub-command, and report failures as one line on
    stderr: ``error: <message>`` for ``expected`` errors (they carry a message meant for
    the user), ``error: <Type>: <message>`` for anything else, never a traceback."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        hint = ""
        if any(arg.startswith("-") for arg in unknown):
            # „-Ordner“ or „-20 %“ looks like an option to argparse: say how to quote it.
            command = f"{parser.prog} {args.command or 'COMMAND'}"
            hint = f" (a text that begins with '-' goes after '--': {command} -- {unknown[0]})"
        parser.error(f"unrecognized arguments: {' '.join(unknown)}{hint}")
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return handlers[args.command](args)
    except expected as e:
        print(f"error: {e}", file=sys.stderr)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``); nothing left to say.
        sys.stderr.close()
        return 0
    except MemoryError:  # its message is empty: say what happened and what helps
        print(
            "error: out of memory: the input is too large for this machine's memory "
            "(give it in smaller parts, or close other programs)",
            file=sys.stderr,
        )
    except Exception as e:  # last resort
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
    return EXIT_ERROR


def add_protect_arguments(parser: argparse.ArgumentParser) -> None:
    """--protect MODE and --no-protect: when the translator annotates a sentence's
    numbers, dates, names and places (core/faithful/protect.py); the bundle's setting by default."""
    parser.add_argument(
        "--protect",
        choices=PROTECT_MODES,
        default=None,
        help="when to annotate numbers, dates, names and places (default: the bundle's "
        "search settings)",
    )
    parser.add_argument(
        "--no-protect",
        action="store_true",
        help="the model alone (--protect off and --no-dictionary-words)",
    )
    parser.add_argument(
        "--no-dictionary-words",
        action="store_true",
        help="keep German words the model copied into the English (default: a word that "
        "reads as a common word is translated again with the dictionary's English)",
    )


def protect_mode(args: argparse.Namespace) -> str | None:
    """The mode the arguments ask for; None keeps the bundle's."""
    return "off" if getattr(args, "no_protect", False) else getattr(args, "protect", None)


def apply_protect_arguments(translator, args: argparse.Namespace) -> None:
    """Set ``translator``'s protect mode and dictionary words as the arguments of
    :func:`add_protect_arguments` ask; what they leave unsaid stays the bundle's."""
    if protect_mode(args):
        translator.protect_facts = protect_mode(args)
    if getattr(args, "no_protect", False) or getattr(args, "no_dictionary_words", False):
        translator.dictionary = None
