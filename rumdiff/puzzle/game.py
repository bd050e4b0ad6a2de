"""The rules of a game as one value: G(k, m, n), its jokers and its opening meld.

A :class:`Game` travels with its puzzles (``Puzzle.game``, ``Puzzles.game``), the way a
chess board carries its variant. Its one text form is the header line of a puzzle file::

    # G(4, 2, 13) j=2 meld=30

``G(k, m, n)``: k colours, values 1..n, at most m copies of each tile. ``j=J``: the most
jokers a puzzle of the game holds (without it, ``config.MAX_JOKERS``). ``meld=P``: every
puzzle is an opening move, its rack alone placed in new sets worth at least P points,
the table left as it is (without it, no such rule). Whitespace is free around each part.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from rumdiff import config
from rumdiff.validation import quoted, whole

__all__ = ["DEFAULT_GAME", "HEADER_MARK", "Game", "MELD_POINTS"]

#: The character a header line starts with (after any whitespace).
HEADER_MARK = "#"
#: The points of the real game's opening meld, when a rule asks for it without a number.
MELD_POINTS = config.MELD_POINTS
#: ``G(k, m, n)``, then the rest of the line (the options), its numbers not yet checked.
_SHAPE = re.compile(r"\s*G\s*\(([^()]*)\)(.*)", re.S)
#: One option: ``name=value``, with whitespace free around ``=``.
_OPTION = re.compile(r"\s*([A-Za-z]+)\s*=\s*(\S*)")
_NAMES = ("k", "m", "n")
_TOPS = (config.MAX_K, config.MAX_M, config.MAX_N)
#: A header, as messages show one.
_EXAMPLE = "# G(4, 2, 13) j=2"
#: Most characters of a bad header, or of a bad number in it, that a message quotes.
_QUOTE = 40


@dataclass(frozen=True)
class Game:
    """A game G(k, m, n), with the jokers its puzzles may hold and its opening-meld rule.

    Parameters
    ----------
    k, m, n : int
        Colours (at most ``config.MAX_K``), copies of a tile (at most ``config.MAX_M``)
        and values (at most ``config.MAX_N``).
    jokers : int, default config.MAX_JOKERS
        The most jokers a puzzle of the game holds, rack and table together.
    meld : int or None, default None
        When set, the opening meld's rule: only rack tiles and rack jokers are placed, in
        new sets worth at least ``meld`` points (a joker counts as the tile it stands
        for); the table stays as it is.
    """

    k: int = config.K
    m: int = config.M
    n: int = config.N
    jokers: int = config.MAX_JOKERS
    meld: int | None = None

    def __post_init__(self):
        for name, top in zip(_NAMES, _TOPS, strict=True):
            object.__setattr__(self, name, whole(name, getattr(self, name), low=1, high=top))
        object.__setattr__(
            self, "jokers", whole("jokers", self.jokers, low=0, high=config.MAX_JOKERS)
        )
        if self.meld is not None:
            object.__setattr__(self, "meld", whole("meld", self.meld, low=1, high=config.MAX_MELD))

    def __str__(self) -> str:
        """``G(k, m, n)``, then the options that differ from the defaults."""
        text = f"G({self.k}, {self.m}, {self.n})"
        if self.jokers != config.MAX_JOKERS:
            text += f" j={self.jokers}"
        if self.meld is not None:
            text += f" meld={self.meld}"
        return text

    @property
    def header(self) -> str:
        """The game's header line, without its newline: ``# G(4, 2, 13) j=2``."""
        return f"{HEADER_MARK} {self}"

    @property
    def tiles(self) -> int:
        """The regular tiles of a full box: n * k * m."""
        return self.n * self.k * self.m

    def with_meld(self, points: int | None) -> Game:
        """The same game with the opening-meld rule of ``points`` (None: without it)."""
        return replace(self, meld=points)

    @classmethod
    def drawn_with(cls, k: int, m: int, n: int, jokers: int) -> Game:
        """The game of puzzles G(k, m, n) drawn with ``jokers`` jokers: that many
        (``j=J`` in a header), or without any the plain game, whose header names none."""
        return cls(k, m, n, jokers=jokers or config.MAX_JOKERS)

    @classmethod
    def parse(cls, line: str) -> Game:
        """The game of a header line (without its newline).

        Raises
        ------
        ValueError
            In one line, quoting the header: not of the form ``# G(k, m, n)`` with
            options ``j=J`` and ``meld=P``, or a value that is no whole number or out of
            range.
        """
        shown = quoted(line, _QUOTE)
        stripped = line.strip()
        match = _SHAPE.fullmatch(stripped[1:]) if stripped.startswith(HEADER_MARK) else None
        parts = match.group(1).split(",") if match else []
        if len(parts) != len(_NAMES):
            raise ValueError(
                f"malformed header {shown}: expected '{HEADER_MARK} G(k, m, n)' with three "
                f"whole numbers, and options j=J and meld=P, such as {_EXAMPLE!r}"
            )
        values = {}
        for name, part, top in zip(_NAMES, parts, _TOPS, strict=True):
            values[name] = _number(shown, name, part.strip(), 1, top)
        rest = match.group(2)
        options = {"j": "jokers", "meld": "meld"}
        while rest.strip():
            option = _OPTION.match(rest)
            if option is None:
                raise ValueError(
                    f"malformed header {shown}: expected options j=J and meld=P after "
                    f"G(k, m, n), got {quoted(rest.strip(), _QUOTE)}"
                )
            name, token = option.group(1), option.group(2)
            if name not in options:
                raise ValueError(f"header {shown}: unknown option {name!r} (expected j or meld)")
            if options[name] in values:
                raise ValueError(f"header {shown}: option {name} given twice")
            low, top = (0, config.MAX_JOKERS) if name == "j" else (1, config.MAX_MELD)
            values[options[name]] = _number(shown, name, token, low, top)
            rest = rest[option.end() :]
        try:
            return cls(**values)
        except ValueError as error:
            raise ValueError(f"header {shown}: {error}") from None

    def settle(self, given: dict) -> Game:
        """This game (a file's header), checked against the values a caller gave (``k``,
        ``m``, ``n``, ``meld``; None where it gave none): each given one must be the
        header's, but for a meld the header does not name, which it adds.

        Raises
        ------
        ValueError
            ``header says n = 13 but n = 100 was given``.
        """
        for name in (*_NAMES, "meld"):
            value, own = given.get(name), getattr(self, name)
            if value is not None and own is not None and value != own:
                raise ValueError(f"header says {name} = {own} but {name} = {value} was given")
        meld = given.get("meld")
        return self if meld is None or self.meld is not None else self.with_meld(meld)


def _number(shown: str, name: str, token: str, low: int, top: int) -> int:
    """A header's whole number in low..top, refused before conversion when it is no
    number or longer than the top (however many leading zeros it has)."""
    wrong = f"header {shown}: {name} must be a whole number in {low}..{top}, got "
    digits = token.lstrip("0") or "0"
    if not token.isdigit() or not token.isascii() or len(digits) > len(str(top)):
        raise ValueError(wrong + quoted(token, _QUOTE))
    value = int(digits)
    if not low <= value <= top:
        raise ValueError(wrong + str(value))
    return value


#: The game of a file without a header, unless -k, -m or -n say otherwise: the thesis's
#: G(4, 2, 100), any number of jokers up to the most, no opening meld.
DEFAULT_GAME = Game()
