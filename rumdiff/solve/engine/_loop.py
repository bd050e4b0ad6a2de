"""The dynamic program over values that every rule set runs in (2015 paper, Section 4).

A *pass* walks the rows of a puzzle (one value each, in the order the rules give) and
keeps the live states in lists: per state its key, its code, its value, the layer
position of the state it came from, and two numbers the rules use as they wish (``aux``,
``hope``). Each row is a number of *steps* (a colour's run slots, or a value's groups);
at each step the rules make the children of the live states and file each with
:func:`merge`: a child whose key is filed already raises its twin's value (with its
origin and ``aux``) when it is better, else it joins the new lists. After a step the
rules may cut the lists (a beam); at the end of a row they finish it (groups,
dominance), and the engine files the live states as a layer, so that the best path can
be traced back, and checks the budget.

A rule set is five functions, given to :func:`engine_pass`, which makes the pass for it
(a kernel numba compiles, and caches, once per rule set):

- ``begin(rules, lists) -> live``: the states a pass starts from;
- ``begin_row(rules, i, lists, live)``: the row's tables, and each state's ``aux``;
- ``step(rules, i, s, lists, start, stop, out, index, built, limit, work)
  -> (built, full)``: the children of states ``start..stop - 1``, each filed into
  ``out`` by :func:`merge` (each state's in order, its children in order: the order
  decides which of two equal twins stays); ``full`` when one more would exceed
  ``limit``; adds its transitions to ``work[1]``;
- ``cut(rules, i, s, lists, built) -> built``: after a step (the beam);
- ``finish_row(rules, i, lists, live, index) -> live``: at the row's end; leaves in
  ``aux`` what the layer keeps of each state for the traceback.

The lists, the hash index and the rules' arrays reach those functions as
:func:`borrowed` views. Numba counts the references of an array it hands to a function,
atomically, and keeps the counts where a loop branches: a merge of one child then cost
three times the merge itself (6.9 against 2.4 ns in a scratch loop of 5 million
children). A borrowed view holds no reference, so it costs nothing; its owner stays
alive in the function that made it, for as long as the view is used. The lists start
small and double, up to ``max_live`` states, between runs of states, and the hash index
with them (rehashed, at least twice their room); the layers double likewise, up to the
state budget. While an array grows, the old one and the new coexist.

A pass may keep its states in a *dense* layout instead, for a rule set whose step is
specialised for it (the reference search's, where most joint states live: several times
faster there, ``experiments/bench_search.py --layouts``): the value of every joint state
at its code, ``UNSET`` where none lives, in the lists' ``VAL`` column (their only one),
with no key, index or layers. Each step is then one call that writes the whole ``out``
table and leaves the one it read ``UNSET``; ``finish_row`` counts the states that live.
"""

import numpy as np
from numba import carray, njit, types
from numba.core.extending import intrinsic

#: Status of a pass, and of the solves and searches made of passes (they import these):
#: it reached the target, no state did, or the budget ran out.
OK = 0
NOT_REACHED = 1
OVER_BUDGET = 2
#: The entries of ``work`` a pass adds to: states kept, transitions tried.
STATES, TRANSITIONS = 0, 1
#: The fields of a state list (columns of one array, a state per row, so that a state's
#: fields share a cache line): its value, its key, its code, the layer position it came
#: from, the rules' two numbers, and the hash slot of its key. In the dense layout a
#: state has its value alone, the first field.
VAL, KEY, CODE, ORG, AUX, HOPE, SLOT = range(7)
FIELDS = 7
#: A value below every reachable one: in the dense layout, a state that does not live.
UNSET = -(1 << 62)
#: Multiplier of the hash of a key (Fibonacci hashing).
_GOLDEN = 0x9E3779B97F4A7C15


@intrinsic
def _as_pointer(typingctx, address, dtype):
    """The pointer to elements of ``dtype`` at ``address`` (a whole number)."""
    pointer = types.CPointer(dtype.dtype)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(pointer))

    return pointer(address, dtype), codegen


@njit(cache=True, inline="always")
def borrowed(array):
    """A view of a C-contiguous ``array`` that holds no reference to it (see the module's
    docstring). The array must stay alive, held by its owner, while the view is used."""
    if not array.flags.c_contiguous:
        raise ValueError("borrowed views are of C-contiguous arrays only")
    return carray(_as_pointer(array.ctypes.data, array.dtype), array.shape)


@njit(cache=True)
def _grown_lists(lists, size, count):
    """The first ``count`` states of ``lists`` in new lists with room for ``size``."""
    bigger = np.empty((size, lists.shape[1]), np.int64)
    for t in range(count):
        for field in range(lists.shape[1]):
            bigger[t, field] = lists[t, field]
    return bigger


@njit(cache=True)
def _grown_layers(layers, size, count):
    """The first ``count`` entries of each row of ``layers`` in rows of ``size``."""
    bigger = np.empty((layers.shape[0], size), np.int64)
    for row in range(layers.shape[0]):
        for t in range(count):
            bigger[row, t] = layers[row, t]
    return bigger


@njit(cache=True, inline="always")
def slot(index, key):
    """The hash slot of ``key`` in ``index`` (per slot a key, -1 for none, and its list
    position): its own, or the empty one where it belongs. An index with room for every
    key of a pass (its keys below the index's size, ``direct``) is indexed by the key
    itself (:func:`merge`): it never probes, and neighbouring keys stay near in memory."""
    mask = index.shape[0] - 1
    h = ((key * _GOLDEN) >> 20) & mask
    while index[h, 0] != -1 and index[h, 0] != key:
        h = (h + 1) & mask
    return h


@njit(cache=True)
def _rehashed(index, lists, built):
    """A hash index twice the size holding the keys of list entries 0..built - 1; their
    slots in ``lists`` are updated."""
    bigger = np.empty((2 * index.shape[0], 2), np.int64)
    bigger[:, 0] = -1
    for t in range(built):
        h = slot(bigger, lists[t, KEY])
        bigger[h, 0] = lists[t, KEY]
        bigger[h, 1] = t
        lists[t, SLOT] = h
    return bigger


@njit(cache=True, inline="always")
def merge(out, index, direct, built, limit, key, code, value, origin, extra, hope):
    """File a child into ``out``: raise its twin's value (with its origin and ``aux``) if
    the child is better, or add it. Returns ``(built, full)``: ``full`` when the child is
    new and ``limit`` states are filed already.

    A ``direct`` index holds at ``index[key, 1]`` the key's list position, never cleared
    or set up: a position names the key only if it lies below ``built`` and the state
    there has that key (a sparse set), so whatever the memory held before cannot fool it.
    """
    # (Indices are unsigned: numba checks no negative index then.)
    if direct:
        h = np.uint64(key)
        pos = np.uint64(index[h, 1])  # (a negative one wraps to a huge one: not below built)
        found = pos < np.uint64(built) and out[pos, KEY] == key
    else:
        h = np.uint64(slot(index, key))
        found = index[h, 0] == key
        pos = np.uint64(index[h, 1])
    if found:
        if value > out[pos, VAL]:
            out[pos, VAL] = value
            out[pos, ORG] = origin
            out[pos, AUX] = extra
        return built, False
    if built == limit:
        return built, True
    at = np.uint64(built)
    index[h, 0] = key
    index[h, 1] = built
    out[at, KEY] = key
    out[at, CODE] = code
    out[at, VAL] = value
    out[at, ORG] = origin
    out[at, AUX] = extra
    out[at, HOPE] = hope
    out[at, SLOT] = h
    return built + 1, False


@njit(cache=True, inline="always")
def compact(lists, j, kept):
    """Move list entry j to position ``kept`` (for rules that drop states in place)."""
    for field in range(FIELDS):
        lists[kept, field] = lists[j, field]


def engine_pass(begin, begin_row, step, cut, finish_row):
    """The pass of the DP for a rule set, given as its five functions (see the module's
    docstring): a kernel ``run_pass(rules, owners, rows, steps, children, room, limits,
    path, extra, profile, work) -> (best, status)``, compiled (and cached) for that rule
    set.

    ``rules`` are :func:`borrowed` views of arrays held by ``owners``, which ``run_pass``
    keeps alive. With ``dense`` the states are kept in the dense layout (``room`` the
    joint states; no path); with ``direct`` every key lies below ``distinct`` and the
    index is direct (:func:`slot`). It walks ``rows`` rows of ``steps`` steps each, plus
    the closing row (``i == rows``, where runs end). ``children`` is ``(most, distinct)``: the most
    children of one state at one step, and the most distinct keys a step can file
    (lists with room for them never grow); ``room`` the lists' first size; ``limits`` is
    ``(max_states, max_live)``: the states kept summed over the rows, and alive at once.
    With ``path`` of length ``rows`` the best path is traced back: ``path[i]`` the code
    after row i, ``extra[i]`` the ``aux`` the layer kept (an empty ``path``: no layers
    are kept). ``profile`` (2 by steps, or 2 by 0) receives per step ``i * steps + s``
    the states made and those the cut kept. ``work`` gets the states kept and the
    transitions tried added.
    """

    @njit(cache=True)
    def run_pass(
        rules, owners, rows, steps, children, room, limits, dense, direct, path, extra,
        profile, work,
    ):  # fmt: skip
        max_states, max_live = limits
        most, distinct = children
        keep = path.shape[0] > 0 and not dense
        room = max(1, room if dense else min(room, max_live))
        # Each array below has its borrowed view, made anew whenever the array is.
        fields = 1 if dense else FIELDS
        lists = np.empty((room, fields), np.int64)
        out = np.empty((room, fields), np.int64)
        if dense:
            lists[:, VAL] = UNSET
            out[:, VAL] = UNSET
        width = 16
        while width < (distinct if direct else 2 * room):
            width *= 2
        index = np.empty((width, 2), np.int64)  # per slot: a key (-1: none), its position
        if not direct:
            index[:, 0] = -1
        lists_view, out_view, index_view = borrowed(lists), borrowed(out), borrowed(index)
        live = begin(rules, lists_view)
        lay = np.empty((3, room if keep else 0), np.int64)  # code, origin, aux; per row
        stored = 0
        for i in range(rows + 1):
            begin_row(rules, i, lists_view, live)
            for s in range(steps):
                built = 0
                start = 0
                full = False
                # One call site only: numba inlines the step at each, and it is most of
                # what the pass compiles.
                while dense or start < live:
                    stop = room  # dense: the whole table in one call
                    if not dense:
                        # A run of states whose children fit in the lists (one state at
                        # a time once they hold max_live: which state overflows is
                        # exact), the lists doubled first when not one state's would.
                        if room < distinct and built + most > room and room < max_live:
                            room = min(2 * room, max_live)
                            out = _grown_lists(out, room, built)
                            while 2 * room > index.shape[0] and not direct:
                                index = _rehashed(index, out, built)
                            out_view, index_view = borrowed(out), borrowed(index)
                        stop = live
                        if room < distinct:
                            stop = min(live, start + max(1, (room - built) // most))
                    built, full = step(
                        rules, i, s, lists_view, start, stop, out_view, index_view, built,
                        room, work,
                    )  # fmt: skip
                    if full or dense:
                        break
                    start = stop
                for t in range(0 if dense or direct else built):
                    index[out[t, SLOT], 0] = -1
                if full:
                    return 0, OVER_BUDGET
                kept = cut(rules, i, s, out_view, built)
                if profile.shape[1] > 0:
                    profile[0, i * steps + s] = built
                    profile[1, i * steps + s] = kept
                if out.shape[0] > lists.shape[0]:
                    lists = np.empty((out.shape[0], fields), np.int64)
                    lists_view = borrowed(lists)
                lists, out = out, lists
                lists_view, out_view = out_view, lists_view
                live = kept
                if live == 0:
                    return 0, NOT_REACHED
            live = finish_row(rules, i, lists_view, live, index_view)
            if live == 0:
                return 0, NOT_REACHED
            work[STATES] += live
            if stored + live > max_states or live > max_live:
                return 0, OVER_BUDGET
            if keep:
                if stored + live > lay.shape[1]:
                    # Capped, so a pass's memory is bounded by its budget.
                    size = min(max(stored + live, 2 * lay.shape[1]), max_states)
                    lay = _grown_layers(lay, size, stored)
                for j in range(live):
                    lay[0, stored + j] = lists[j, CODE]
                    lay[1, stored + j] = lists[j, ORG]
                    lay[2, stored + j] = lists[j, AUX]
                    lists[j, ORG] = stored + j
            stored += live
        best = 0
        for j in range(1, 0 if dense else live):  # (dense: state 0, no runs, at 0)
            if lists[j, VAL] > lists[best, VAL]:
                best = j
        if keep:
            position = lay[1, stored - live + best]
            for i in range(rows - 1, -1, -1):
                path[i] = lay[0, position]
                extra[i] = lay[2, position]
                position = lay[1, position]
        return lists[best, VAL], OK

    return run_pass
