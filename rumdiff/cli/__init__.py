"""The ``rumdiff`` command line: a thin layer over the library, one module per command.

Each command module defines ``register(subparsers)``, which adds its parser and sets
``run`` (taking the parsed arguments, returning an exit code) as the handler. Options
that several commands share are in ``options``. Heavy modules are imported inside
``run`` so that ``rumdiff --help`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys

from rumdiff import __version__

#: Command modules, in the order ``rumdiff --help`` lists them.
COMMANDS = ("generate", "solve", "show", "features", "train", "predict", "explore")

#: Exit code for bad input or a failed job.
EXIT_ERROR = 1
#: Exit code for a command line argparse cannot parse.
EXIT_USAGE = 2


class UserError(Exception):
    """An error to report in one line, without a traceback."""


class HelpFormatter(argparse.HelpFormatter):
    """Help that shows every option's default (``off`` for a flag, ``none`` when unset),
    or that it is required, unless its help text already says it."""

    def _get_help_string(self, action):
        text = action.help or ""
        if "(default" in text or not action.option_strings or action.default == argparse.SUPPRESS:
            return text
        if action.required:
            return f"{text} (required)"
        shown = action.default
        if shown is None or shown is False:
            shown = "none" if shown is None else "off"
        elif isinstance(shown, (list, tuple)):
            shown = ",".join(map(str, action.default))
        return f"{text} (default: {shown})"


class DescribedHelpFormatter(argparse.RawDescriptionHelpFormatter, HelpFormatter):
    """:class:`HelpFormatter` that keeps the description's own line breaks."""


class Parser(argparse.ArgumentParser):
    """argparse's parser, but a usage error is one line on stderr (and exit code 2)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        #: Each command's parser, by name (set by :func:`build_parser` on the top one).
        self.commands = {}

    def parse_args(self, args=None, namespace=None):
        """As argparse's, but arguments nobody knows are reported by their command's
        parser (whose help is the one to read), with the nearest option it has."""
        known, extras = self.parse_known_args(args, namespace)
        if extras:
            parser = self.commands.get(getattr(known, "command", None), self)
            parser.error(parser.unknown(extras))
        return known

    def unknown(self, extras) -> str:
        """The complaint about ``extras``, suggesting the option a typo was meant to be."""
        from difflib import get_close_matches

        message = f"unrecognized arguments: {' '.join(extras)}"
        options = [option for action in self._actions for option in action.option_strings]
        for word in (word for word in extras if word.startswith("-")):
            near = get_close_matches(word.partition("=")[0], options, n=1)
            if near:
                return f"{message}; did you mean {near[0]}?"
        return message

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def version_text() -> str:
    """rumdiff's version and those of the libraries its results depend on."""
    from importlib.metadata import PackageNotFoundError, version

    parts = [f"rumdiff {__version__}"]
    for name in ("numpy", "numba", "scikit-learn", "pandas", "python"):
        if name == "python":
            parts.append(f"python {sys.version.split()[0]}")
            continue
        try:
            parts.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            parts.append(f"{name} (not installed)")
    return ", ".join(parts)


class VersionAction(argparse.Action):
    """``--version``: looks the libraries' versions up only when asked (``--help`` and
    every command stay fast)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available command registered."""
    parser = Parser(
        prog="rumdiff",
        description="How hard is a Rummikub puzzle? Generate, solve, featurise, train, predict.",
    )
    parser.add_argument(
        "--version",
        action=VersionAction,
        help="show the versions of rumdiff and of the libraries it uses, and exit",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"rumdiff.cli.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"rumdiff.cli.{name}":
                raise
            continue
        module.register(subparsers)
    parser.commands = subparsers.choices
    return parser


def main(argv=None) -> int:
    """Run the command line; return the exit code."""
    from rumdiff.cli import streams

    before = streams.guard()
    try:
        return _main(argv)
    except UserError as error:  # standard output is closed: --help, --version
        print(f"rumdiff: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # the reader left (| head): what it did not read is lost
        streams.silence(sys.stdout)
        return 128 + signal.SIGPIPE
    finally:
        sys.stdin, sys.stdout, sys.stderr = before


def _main(argv) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, --version, or a usage error already reported
        return stop.code if isinstance(stop.code, int) else EXIT_ERROR
    if args.command is None:  # nothing to do: say what there is, as a usage error
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    from rumdiff.startup import quick_start

    quick_start()  # numba starts sooner; a command's process is rumdiff's own
    from rumdiff.cli import signals
    from rumdiff.cluster import ClusterError
    from rumdiff.processes import WorkerError
    from rumdiff.puzzle import PuzzleFileError
    from rumdiff.validation import one_line

    try:
        with signals.stop_on_signals():
            try:
                code = int(args.run(args) or 0)
                if getattr(args, "game_note", None):  # which game a file was read as
                    print(f"rumdiff {args.command}: {args.game_note}", file=sys.stderr)
                return code
            except SystemError as error:
                # A signal handled inside a compiled (numba) kernel comes out wrapped.
                raise signals.interrupt_behind(error) or error from None
    except (UserError, PuzzleFileError, ClusterError, WorkerError) as error:
        print(f"rumdiff {args.command}: error: {one_line(str(error))}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt as stop:  # the clean-up has run; exit as the signal asks
        terminated = isinstance(stop, signals.Terminated)
        word = "terminated" if terminated else "interrupted"
        print(f"rumdiff {args.command}: {word}", file=sys.stderr)
        return 128 + (signal.SIGTERM if terminated else signal.SIGINT)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
