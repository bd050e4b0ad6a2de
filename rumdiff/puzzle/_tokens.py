"""Kernels of the puzzle-file readers: the tiles of a line of bytes, and whole puzzles
(count lines and tile lines) from a file's buffer, each in one pass."""

from numba import njit

_SPACE = 32
_TAB = 9
_ZERO = 48
_NINE = 57


@njit(cache=True)
def read_tiles(raw, colour_of, n, values, colours):
    """Read a line of tiles (``7b 12r``) into ``values`` and ``colours``; return how many.

    Tiles are 1 to 9 digits and then a colour letter (``colour_of[byte] >= 0``), with a
    value in 1..n, separated by spaces or tabs. Anything else (a joker, the table mark, a
    bad tile) returns -1, for the token-by-token reader to name. ``values`` and
    ``colours`` hold at least ``len(raw) // 2 + 1`` entries.
    """
    size = raw.shape[0]
    count = 0
    i = 0
    while i < size:
        if raw[i] == _SPACE or raw[i] == _TAB:
            i += 1
            continue
        value = 0
        digits = 0
        while i < size and _ZERO <= raw[i] <= _NINE:
            value = value * 10 + (raw[i] - _ZERO)
            digits += 1
            i += 1
        if digits == 0 or digits > 9 or i == size:
            return -1
        colour = colour_of[raw[i]]
        i += 1
        if colour < 0 or value < 1 or value > n:
            return -1
        if i < size and raw[i] != _SPACE and raw[i] != _TAB:
            return -1
        values[count] = value
        colours[count] = colour
        count += 1
    return count


_LF = 10
_CR = 13
_BAR = 124  # config.TABLE_MARK
_JOKER = 74  # config.JOKER


@njit(cache=True)
def _line_end(raw, at, line_bytes):
    """Index of the LF ending the line that starts at ``raw[at]``; -1 when ``raw`` holds
    no whole line there, or the line with its LF is longer than ``line_bytes``."""
    for i in range(at, min(raw.shape[0], at + line_bytes)):
        if raw[i] == _LF:
            return i
    return -1


@njit(cache=True)
def _text_end(raw, at, end):
    """Where the text of the line ``raw[at:end + 1]`` ends: before its CRLF or LF."""
    return end - 1 if end > at and raw[end - 1] == _CR else end


@njit(cache=True)
def read_puzzle_lines(raw, at, colour_of, n, m, most, jokers, line_bytes, copies, table, counts):
    """Read whole puzzles (a line with the tile count, then the tiles) from ``raw[at:]``.

    Stops before the first puzzle that ``raw`` does not hold whole, or that is anything
    but well formed: a count line of spaces, tabs and 1 to 9 digits; a tile line of
    tiles (1 to 9 digits, then a colour letter, ``colour_of[byte] >= 0``, value in 1..n),
    jokers (``J``) and at most one table mark (``|``), separated by spaces or tabs, with
    as many tiles and jokers as the count, at most ``most``, at most ``jokers`` jokers
    and no tile over ``m`` copies; each line ending in LF or CRLF, at most
    ``line_bytes`` bytes long. The token-by-token reader reads that puzzle, and names
    any problem. Puzzle p's tiles are counted into ``copies[p]`` (shape (n, k)), those
    after the mark into ``table[p]`` too (written only when it has a mark), and
    ``counts[p]`` receives its rack's jokers, its table's jokers and 1 if it has a mark.
    Returns the puzzles read (at most ``copies.shape[0]``) and the position after them.
    """
    done = 0
    while done < copies.shape[0]:
        # The count line.
        end = _line_end(raw, at, line_bytes)
        if end < 0:
            break
        stop = _text_end(raw, at, end)
        i = at
        while i < stop and (raw[i] == _SPACE or raw[i] == _TAB):
            i += 1
        declared = 0
        digits = 0
        while i < stop and _ZERO <= raw[i] <= _NINE and digits <= 9:
            digits += 1
            declared = declared * 10 + (raw[i] - _ZERO)
            i += 1
        while i < stop and (raw[i] == _SPACE or raw[i] == _TAB):
            i += 1
        if digits == 0 or digits > 9 or i < stop or declared > most:
            break
        # The tile line.
        start = end + 1
        end = _line_end(raw, start, line_bytes)
        if end < 0:
            break
        stop = _text_end(raw, start, end)
        copies[done] = 0
        rack_jokers = 0
        table_jokers = 0
        marked = 0
        listed = 0
        i = start
        bad = False
        while i < stop:
            byte = raw[i]
            if byte == _SPACE or byte == _TAB:
                i += 1
                continue
            if byte < _ZERO or byte > _NINE:  # a joker or the table mark, alone
                if i + 1 < stop and raw[i + 1] != _SPACE and raw[i + 1] != _TAB:
                    bad = True
                elif byte == _JOKER:
                    listed += 1
                    if marked:
                        table_jokers += 1
                    else:
                        rack_jokers += 1
                elif byte == _BAR and not marked:
                    marked = 1
                    table[done] = 0
                else:
                    bad = True
                if bad:
                    break
                i += 1
                continue
            # A tile, read here as read_tiles reads one: a function of its own, called
            # here, made this kernel 7 times slower on a file of G(4, 2, 100) puzzles.
            value = 0
            digits = 0
            while i < stop and _ZERO <= raw[i] <= _NINE:
                value = value * 10 + (raw[i] - _ZERO)
                digits += 1
                i += 1
                if digits > 9:
                    break
            if digits > 9 or i == stop:
                bad = True
                break
            colour = colour_of[raw[i]]
            i += 1
            if colour < 0 or value < 1 or value > n:
                bad = True
                break
            if i < stop and raw[i] != _SPACE and raw[i] != _TAB:
                bad = True
                break
            copies[done, value - 1, colour] += 1
            if copies[done, value - 1, colour] > m:
                bad = True
                break
            if marked:
                table[done, value - 1, colour] += 1
            listed += 1
        if bad or listed != declared or rack_jokers + table_jokers > jokers:
            break
        counts[done, 0] = rack_jokers
        counts[done, 1] = table_jokers
        counts[done, 2] = marked
        done += 1
        at = end + 1
    return done, at
