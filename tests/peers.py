"""Reference ("peer") move generators for standard backgammon, for tests and benchmarks.

This is a test helper, not part of the ``backgammon_lab`` package.  It wraps two
independent implementations of the standard-backgammon rules so that our own move
generator can be checked against them:

* **GNU Backgammon** through the ``gnubg-nn`` bindings (``import gnubg_nn``), and
* **OpenSpiel**'s ``"backgammon"`` game (``import pyspiel``).

Both are imported lazily, so this module imports fine when neither is installed.

Positions are in OUR JSON form::

    {"variant": "standard", "points": [24 ints], "bar": {"white": n, "black": n},
     "off": {"white": n, "black": n}, "turn": "white" | "black"}

``points[i]`` is the number of checkers on White's point ``i + 1`` (positive for
White, negative for Black); Black's point ``q`` is White's point ``25 - q``.  White
moves from index 23 toward index 0, Black from index 0 toward index 23; a checker
entering from the bar with die ``d`` lands on its own point ``25 - d``.  A position
is encoded canonically as ``json.dumps(pos, sort_keys=True)`` (see :func:`encode`).

API
---
``gnubg_plays(pos, dice)`` / ``openspiel_plays(pos, dice)``
    Set of canonical encodings of every distinct position reachable by playing the
    roll completely (full turn, standard forced-move rules).  ``turn`` is left
    UNCHANGED (still the mover).  If nothing can be played the set holds the
    unchanged position.
``gnubg_position_id(pos)`` / ``gnubg_pos_from_id(pid, turn)``
    GNU Backgammon Position ID via gnubg-nn's own encoder/decoder.
``random_reachable_positions(n, seed)``
    ``(pos, dice)`` samples from random OpenSpiel self-play, guaranteed to include
    mover-on-bar positions, doubles and bear-off positions.
``compare_peers(samples)``
    The samples on which the two peers disagree.
``gnubg_moves_per_second(samples)`` / ``openspiel_moves_per_second(samples)``
    ``(positions_per_second, resulting_positions_per_second)`` of full-turn generation.
``openspiel_random_games_per_second(n_games, seed)``
    Speed of complete random OpenSpiel games.

GNU Backgammon conventions (gnubg-nn 1.1.0a11)
-----------------------------------------------
* A board is ``[[25 ints], [25 ints]]``: one row per side, each in that side's OWN
  numbering (index ``j`` = the side's point ``j + 1``, index 24 = its bar); borne-off
  checkers are implicit (15 minus the rest).
* ``board[1]`` is the player ON ROLL and ``board[0]`` the opponent: ``moves(board,
  d1, d2)`` moves the checkers of ``board[1]`` (a hit sends a checker to
  ``board[0][24]``), and ``probabilities(board, 0)`` are the chances of ``board[1]``.
* ``moves(board, d1, d2)`` returns a tuple of distinct 20-character position KEYS (not
  IDs) of the resulting boards, in the same orientation (``board[1]`` still the
  mover); ``board_from_position_key`` decodes one.  With ``verbose=1`` (positional
  only) it returns ``(key, ((from, to), ...))`` pairs, points numbered 1..24 for the
  mover, 25 = bar, 0 = off.  No legal play gives ``()``.
* ``position_id(board)`` / ``board_from_position_id(pid)`` encode/decode Position IDs.

**Position ID player order — what the library actually does.**  The bit string
(little-endian within each byte, then Base64 without padding) starts with the 25
slots of ``board[0]`` (the OPPONENT, i.e. the player NOT on roll) and then the 25
slots of ``board[1]`` (the player ON roll), each slot being one 1-bit per checker
followed by a 0-bit, points 1..24 then the bar in that side's own numbering.
Checked with an asymmetric board ``b[0][0] = 1`` (opponent: one checker on its ace),
``b[1][5] = 3`` (on roll: three on its six): ``position_id`` gives
``AQAAgAMAAAAAAA`` whose bits begin ``10`` + 24 zeros (the opponent's ace checker)
followed by ``00000`` ``1110`` (the roller's three on the six).  So, contrary to the
wording of the GNU Backgammon manual ("player on roll first"), the first 25 slots
belong to the player NOT on roll.  The starting position (symmetric) gives
``4HPwATDgc/ABMA`` either way.

OpenSpiel conventions (open-spiel 2.0.2, game ``"backgammon"``)
----------------------------------------------------------------
* Player 0 is ``x``, player 1 is ``o``.  Both use ONE absolute numbering 0..23 of the
  board.  ``o`` moves 23 -> 0 (home 0..5, enters with die d on 24 - d, bears off
  below 0) — exactly our White, same indices; ``x`` moves 0 -> 23 (home 18..23,
  enters on d - 1) — our Black.  So ``points[i] = board(o, i) - board(x, i)``.
* ``state.board(player, 100)`` is the bar (``kBarPos = 100``); borne-off checkers
  ("scores") have no Python accessor, they are 15 minus the rest.
* Chance: the very first chance node has 30 outcomes (non-doubles, which also decide
  who starts); later ones 36 ordered outcomes; the dice are read back from
  ``action_to_string`` (``"... (roll: 35)"``).
* An action is TWO checker moves (``high/low die first`` x two from-positions, base
  26 with 24 = bar, 25 = pass).  A non-double turn is one action; a double is two
  actions of two checker moves each (the state stays with the mover after the first
  one).  When nothing can be played the only legal action is a "pass" action, after
  which the turn passes; a double whose first action could play only one or zero
  checkers ends the turn there.  The forced-move rules (use both dice if possible,
  else the larger) are applied per action.
* There is no way to set up an arbitrary position from Python (the C++
  ``BackgammonState::SetState`` is not bound), so :func:`openspiel_state` calls the
  exported C++ symbol through ``ctypes``, getting the C++ object pointer from the
  pybind11 ``_pybind11_conduit_v1_`` protocol; the result is verified by reading
  the board back.

Peer disagreements
------------------
None found.  Although the forced-move rules are implemented differently (gnubg
enumerates whole turns; OpenSpiel applies "play as many as possible / the larger
die" per action, i.e. per half of a double), the peers agreed on every sample
tried: 20,500 ``random_reachable_positions`` (seeds 1 and 7; 4,532 doubles,
7,622 mover on the bar, 3,109 bear-off) and 61,000 synthetic, mostly unreachable
positions with random dice (random checker placements, many with checkers on the
bar, closed boards and bear-offs).  As far as we can tell OpenSpiel's per-half rule for doubles is
harmless in standard backgammon: with all four dice equal, playing one die never
takes a move away from another checker (own checkers never block, hits only open
points, coming home only enables bear-offs, bearing off the furthest checker only
enables the next), so every legal two-move half extends to the maximal number of
dice.  Doubles need no special treatment when comparing with OpenSpiel.

Speed (measured once, 2,000 samples of ``random_reachable_positions(2000, 2024)``)
--------------------------------------------------------------------------------
``gnubg_moves_per_second``: ~90,000 positions/s, ~1.6 million resulting positions/s
(non-doubles ~110,000 pos/s, doubles ~76,000 pos/s).  ``openspiel_moves_per_second``:
~1,800 positions/s, ~33,000 resulting positions/s (non-doubles ~6,800 pos/s, doubles
~510 pos/s: a double is enumerated as first action x second action through Python).
``openspiel_random_games_per_second(200, 1)``: ~210 games/s (mean 95 turns a game).
The full ``gnubg_plays`` / ``openspiel_plays`` including conversion to our JSON run at
~1,500 and ~560 positions/s.
"""

from __future__ import annotations

import ctypes
import json
import random
import re
import time
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

Pos = dict[str, Any]
Dice = tuple[int, int]
Sample = tuple[Pos, Dice]

CHECKERS = 15
SIDES = ("white", "black")

#: GNU Backgammon Position ID of the standard starting position.
START_POSITION_ID = "4HPwATDgc/ABMA"


# ---------------------------------------------------------------------------
# Our JSON form
# ---------------------------------------------------------------------------


def start_position(turn: str = "white") -> Pos:
    """Return the standard backgammon starting position in our JSON form."""
    points = [0] * 24
    points[23], points[12], points[7], points[5] = 2, 5, 3, 5  # White 24, 13, 8, 6
    points[0], points[11], points[16], points[18] = -2, -5, -3, -5  # Black 24, 13, 8, 6
    return make_position(points, {"white": 0, "black": 0}, {"white": 0, "black": 0}, turn)


def make_position(points: Sequence[int], bar: dict[str, int], off: dict[str, int], turn: str) -> Pos:
    """Build a position dict in our JSON form (plain ``int`` values, fixed keys)."""
    return {
        "variant": "standard",
        "points": [int(x) for x in points],
        "bar": {"white": int(bar["white"]), "black": int(bar["black"])},
        "off": {"white": int(off["white"]), "black": int(off["black"])},
        "turn": turn,
    }


def encode(pos: Pos) -> str:
    """Canonical string of a position: ``json.dumps(pos, sort_keys=True)``."""
    return json.dumps(pos, sort_keys=True)


def decode(s: str) -> Pos:
    """Inverse of :func:`encode`."""
    return json.loads(s)


def opponent(turn: str) -> str:
    """The other side's name."""
    return "black" if turn == "white" else "white"


def check_position(pos: Pos) -> None:
    """Raise ``ValueError`` unless ``pos`` is a well-formed standard position (15 a side)."""
    if pos.get("variant") != "standard":
        raise ValueError(f"not a standard position: {pos.get('variant')!r}")
    if pos.get("turn") not in SIDES:
        raise ValueError(f"bad turn: {pos.get('turn')!r}")
    points = pos["points"]
    if len(points) != 24:
        raise ValueError("points must have 24 entries")
    for side in SIDES:
        if pos["bar"][side] < 0 or pos["off"][side] < 0:
            raise ValueError("negative bar/off count")
    white = sum(x for x in points if x > 0) + pos["bar"]["white"] + pos["off"]["white"]
    black = -sum(x for x in points if x < 0) + pos["bar"]["black"] + pos["off"]["black"]
    if white != CHECKERS or black != CHECKERS:
        raise ValueError(f"need 15 checkers a side, got white={white} black={black}")


def _side_row(pos: Pos, side: str) -> list[int]:
    """The side's 25 slots in its OWN numbering (index j = its point j+1, 24 = bar)."""
    points = pos["points"]
    if side == "white":
        row = [max(0, points[j]) for j in range(24)]
    else:
        row = [max(0, -points[23 - j]) for j in range(24)]
    row.append(pos["bar"][side])
    return row


def _pos_from_rows(white: Sequence[int], black: Sequence[int], turn: str) -> Pos:
    """Inverse of :func:`_side_row` for both sides (off = 15 minus the rest)."""
    points = [0] * 24
    for j in range(24):
        points[j] += white[j]
        points[23 - j] -= black[j]
    bar = {"white": int(white[24]), "black": int(black[24])}
    off = {"white": CHECKERS - sum(white), "black": CHECKERS - sum(black)}
    return make_position(points, bar, off, turn)


def mover_all_home(pos: Pos) -> bool:
    """True if every checker of the side to move is in its home board or borne off."""
    row = _side_row(pos, pos["turn"])
    return sum(row[6:]) == 0


# ---------------------------------------------------------------------------
# GNU Backgammon (gnubg-nn)
# ---------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _gnubg() -> Any:
    """Import and return the ``gnubg_nn`` module."""
    import gnubg_nn

    return gnubg_nn


def pos_to_gnubg_board(pos: Pos) -> list[list[int]]:
    """Our position -> gnubg board ``[opponent_row, mover_row]`` (``board[1]`` on roll)."""
    turn = pos["turn"]
    return [_side_row(pos, opponent(turn)), _side_row(pos, turn)]


def gnubg_board_to_pos(board: Sequence[Sequence[int]], turn: str) -> Pos:
    """gnubg board (``board[1]`` = ``turn``'s side, ``board[0]`` = the other) -> our form."""
    mover, other = list(board[1]), list(board[0])
    if turn == "white":
        return _pos_from_rows(mover, other, turn)
    return _pos_from_rows(other, mover, turn)


def gnubg_plays(pos: Pos, dice: Dice) -> set[str]:
    """All distinct full-turn results of playing ``dice`` in ``pos``, according to gnubg.

    Each result is ``encode(resulting_pos)`` with ``turn`` unchanged; if the roll
    cannot be played at all the set is ``{encode(pos)}``.
    """
    check_position(pos)
    g = _gnubg()
    keys = g.moves(pos_to_gnubg_board(pos), int(dice[0]), int(dice[1]))
    if not keys:
        return {encode(make_position(pos["points"], pos["bar"], pos["off"], pos["turn"]))}
    turn = pos["turn"]
    return {encode(gnubg_board_to_pos(g.board_from_position_key(k), turn)) for k in keys}


def gnubg_position_id(pos: Pos) -> str:
    """GNU Backgammon Position ID of ``pos`` (side to move = player on roll), by gnubg-nn.

    The bit string starts with the player NOT on roll (see the module docstring).
    """
    check_position(pos)
    return str(_gnubg().position_id(pos_to_gnubg_board(pos)))


def gnubg_pos_from_id(pid: str, turn: str) -> Pos:
    """Decode a Position ID with gnubg-nn; ``turn`` names the player on roll."""
    if turn not in SIDES:
        raise ValueError(f"bad turn: {turn!r}")
    return gnubg_board_to_pos(_gnubg().board_from_position_id(pid), turn)


# ---------------------------------------------------------------------------
# OpenSpiel
# ---------------------------------------------------------------------------

_X, _O = 0, 1  # OpenSpiel player ids: x = our Black, o = our White
_BAR = 100  # OpenSpiel kBarPos
_SETSTATE_SYMBOL = "_ZN10open_spiel10backgammon15BackgammonState8SetStateEibRKSt6vectorIiSaIiEES6_S6_RKS2_IS4_SaIS4_EE"
_TYPEINFO_SYMBOL = "_ZTIN10open_spiel10backgammon15BackgammonStateE"
_ROLL_RE = re.compile(r"\(roll: (\d)(\d)\)")


class _CVector(ctypes.Structure):
    """Memory layout of a libstdc++ ``std::vector<T>``: begin, end, end-of-storage."""

    _fields_ = [("begin", ctypes.c_void_p), ("end", ctypes.c_void_p), ("cap", ctypes.c_void_p)]


class _OpenSpielBridge:
    """Holds the OpenSpiel game plus the ctypes plumbing for ``BackgammonState::SetState``."""

    def __init__(self) -> None:
        import pyspiel

        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("backgammon")
        lib = ctypes.CDLL(pyspiel.__file__)
        self._set_state = getattr(lib, _SETSTATE_SYMBOL)
        self._set_state.restype = None
        self._set_state.argtypes = [
            ctypes.c_void_p,  # this
            ctypes.c_int,  # cur_player
            ctypes.c_bool,  # double_turn
            ctypes.POINTER(_CVector),  # dice
            ctypes.POINTER(_CVector),  # bar
            ctypes.POINTER(_CVector),  # scores
            ctypes.POINTER(_CVector),  # board (vector<vector<int>>)
        ]
        capsule_new = ctypes.pythonapi.PyCapsule_New
        capsule_new.restype = ctypes.py_object
        capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        self._get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
        self._get_pointer.restype = ctypes.c_void_p
        self._get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
        self._get_name = ctypes.pythonapi.PyCapsule_GetName
        self._get_name.restype = ctypes.c_char_p
        self._get_name.argtypes = [ctypes.py_object]
        typeinfo = ctypes.addressof(ctypes.c_char.in_dll(lib, _TYPEINFO_SYMBOL))
        # pybind11's conduit wants a capsule named typeid(std::type_info).name().
        self._typeinfo_capsule = capsule_new(typeinfo, b"St9type_info", None)
        self._abi_id: bytes | None = None
        # Template state: past the opening chance node (turns_ = 0), on a player node.
        self._template = self.game.new_initial_state()
        self._template.apply_action(0)

    def _abi_candidates(self) -> list[bytes]:
        """Possible ``PYBIND11_PLATFORM_ABI_ID`` strings of the pyspiel build."""
        found = [b"system_libstdcpp_gxx_abi_1xxx_use_cxx11_abi_1"]
        with open(self.pyspiel.__file__, "rb") as fh:
            data = fh.read()
        for m in re.finditer(rb"__pybind11_internals_v\d+_([A-Za-z0-9_]+?)__", data):
            found.append(m.group(1))
        return found

    def cpp_pointer(self, state: Any) -> int:
        """Address of the C++ ``BackgammonState`` behind a pyspiel state object."""
        candidates = [self._abi_id] if self._abi_id else self._abi_candidates()
        for abi in candidates:
            cap = state._pybind11_conduit_v1_(abi, self._typeinfo_capsule, b"raw_pointer_ephemeral")
            if cap is not None:
                self._abi_id = abi
                return int(self._get_pointer(cap, self._get_name(cap)))
        raise RuntimeError("cannot get the C++ pointer of an OpenSpiel BackgammonState")

    def set_state(
        self,
        state: Any,
        player: int,
        dice: Sequence[int],
        bar: Sequence[int],
        scores: Sequence[int],
        board: Sequence[Sequence[int]],
    ) -> None:
        """Call ``BackgammonState::SetState`` (inputs must be valid: 15 checkers a side)."""
        keep: list[Any] = []

        def vec(values: Sequence[int]) -> _CVector:
            arr = (ctypes.c_int * len(values))(*values)
            keep.append(arr)
            a = ctypes.addressof(arr)
            return _CVector(a, a + ctypes.sizeof(arr), a + ctypes.sizeof(arr))

        rows = (_CVector * 2)(vec(board[0]), vec(board[1]))
        keep.append(rows)
        a = ctypes.addressof(rows)
        board_vec = _CVector(a, a + ctypes.sizeof(rows), a + ctypes.sizeof(rows))
        d, b, s = vec(dice), vec(bar), vec(scores)
        self._set_state(
            self.cpp_pointer(state),
            player,
            False,
            ctypes.byref(d),
            ctypes.byref(b),
            ctypes.byref(s),
            ctypes.byref(board_vec),
        )


@lru_cache(maxsize=1)
def _openspiel() -> _OpenSpielBridge:
    """The shared OpenSpiel bridge (imports pyspiel on first use)."""
    return _OpenSpielBridge()


def openspiel_state(pos: Pos, dice: Dice) -> Any:
    """A fresh OpenSpiel state holding ``pos`` with ``dice`` rolled and the mover to play."""
    check_position(pos)
    bridge = _openspiel()
    state = bridge._template.clone()
    xs = [max(0, -v) for v in pos["points"]]
    os_ = [max(0, v) for v in pos["points"]]
    player = _O if pos["turn"] == "white" else _X
    lo, hi = sorted((int(dice[0]), int(dice[1])))
    if not (1 <= lo <= hi <= 6):
        raise ValueError(f"bad dice {dice!r}")
    bridge.set_state(
        state,
        player,
        [lo, hi],
        [pos["bar"]["black"], pos["bar"]["white"]],
        [pos["off"]["black"], pos["off"]["white"]],
        [xs, os_],
    )
    back = openspiel_state_to_pos(state, pos["turn"])
    if back != make_position(pos["points"], pos["bar"], pos["off"], pos["turn"]) or state.current_player() != player:
        raise RuntimeError("OpenSpiel SetState via ctypes did not take effect")
    return state


def openspiel_state_to_pos(state: Any, turn: str | None = None) -> Pos:
    """Convert an OpenSpiel backgammon state to our form.

    ``turn`` defaults to the state's current player (which must then be 0 or 1).
    """
    if turn is None:
        player = state.current_player()
        if player not in (_X, _O):
            raise ValueError("state has no player to move; pass turn=")
        turn = "white" if player == _O else "black"
    points = [state.board(_O, i) - state.board(_X, i) for i in range(24)]
    bar = {"white": state.board(_O, _BAR), "black": state.board(_X, _BAR)}
    white_on = sum(v for v in points if v > 0) + bar["white"]
    black_on = -sum(v for v in points if v < 0) + bar["black"]
    off = {"white": CHECKERS - white_on, "black": CHECKERS - black_on}
    return make_position(points, bar, off, turn)


def _openspiel_turn_leaves(state: Any, player: int) -> dict[str, Any]:
    """Distinct end-of-turn states reachable from ``state`` (``player`` to move), keyed by ``str``."""
    leaves: dict[str, Any] = {}
    stack = [state]
    while stack:
        s = stack.pop()
        for action in s.legal_actions():
            child = s.child(action)
            if not child.is_terminal() and child.current_player() == player:
                stack.append(child)  # second half of a double
            else:
                leaves.setdefault(str(child), child)
    return leaves


def openspiel_plays(pos: Pos, dice: Dice) -> set[str]:
    """All distinct full-turn results of playing ``dice`` in ``pos``, according to OpenSpiel.

    Same contract as :func:`gnubg_plays`.  A "pass" action gives back the unchanged
    position.
    """
    state = openspiel_state(pos, dice)
    player = state.current_player()
    turn = pos["turn"]
    return {encode(openspiel_state_to_pos(leaf, turn)) for leaf in _openspiel_turn_leaves(state, player).values()}


# ---------------------------------------------------------------------------
# Random reachable positions (OpenSpiel self-play)
# ---------------------------------------------------------------------------


def _chance_dice(state: Any, action: int) -> Dice:
    """The dice of a chance outcome, parsed from OpenSpiel's ``action_to_string``."""
    m = _ROLL_RE.search(state.action_to_string(state.current_player(), action))
    if m is None:
        raise RuntimeError("cannot parse OpenSpiel chance outcome")
    return int(m.group(1)), int(m.group(2))


def _sample_chance(state: Any, rng: random.Random) -> int:
    """Pick a chance outcome of ``state`` according to its probabilities."""
    outcomes = state.chance_outcomes()
    r = rng.random()
    acc = 0.0
    for action, prob in outcomes:
        acc += prob
        if r < acc:
            return int(action)
    return int(outcomes[-1][0])


def _sample_kinds(pos: Pos, dice: Dice) -> set[str]:
    """Coverage categories of a sample: ``bar``, ``doubles``, ``bearoff``."""
    kinds = set()
    if pos["bar"][pos["turn"]] > 0:
        kinds.add("bar")
    if dice[0] == dice[1]:
        kinds.add("doubles")
    if mover_all_home(pos):
        kinds.add("bearoff")
    return kinds


def random_reachable_positions(n: int, seed: int) -> list[Sample]:
    """``n`` distinct ``(pos, dice)`` decision points from random OpenSpiel self-play.

    Games are played with a ``random.Random(seed)``: dice drawn with their true
    probabilities, checker plays uniformly among OpenSpiel's legal actions.  A
    decision point is the state right after the roll, before the mover plays; each
    is kept with probability 1/3.  The result is deterministic for a given seed and
    contains (when ``n >= 3``) at least ``max(1, n // 8)`` samples each with the mover
    on the bar, with a doubles roll, and with all the mover's checkers home
    (bear-off); the rest are drawn at random from the pool.  Dice are returned as
    (larger, smaller).
    """
    if n <= 0:
        return []
    bridge = _openspiel()
    rng = random.Random(seed)
    quota = max(1, n // 8) if n >= 3 else 0
    kinds = ("bar", "doubles", "bearoff")
    pool: dict[str, Sample] = {}
    by_kind: dict[str, list[str]] = {k: [] for k in kinds}
    games = 0
    while (len(pool) < 2 * n or any(len(by_kind[k]) < quota for k in kinds)) and games < 1000 + 10 * n:
        games += 1
        state = bridge.game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = _sample_chance(state, rng)
                dice = _chance_dice(state, action)
                state.apply_action(action)
                if state.is_terminal() or rng.random() >= 1 / 3:
                    continue
                pos = openspiel_state_to_pos(state)
                sample = (pos, (max(dice), min(dice)))
                key = encode(pos) + f"|{sample[1][0]}{sample[1][1]}"
                if key not in pool:
                    pool[key] = sample
                    for k in _sample_kinds(*sample):
                        by_kind[k].append(key)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    chosen: list[str] = []
    taken: set[str] = set()
    for k in kinds:
        for key in rng.sample(by_kind[k], min(quota, len(by_kind[k]))):
            if key not in taken and len(chosen) < n:
                taken.add(key)
                chosen.append(key)
    rest = [key for key in pool if key not in taken]
    rng.shuffle(rest)
    chosen.extend(rest[: n - len(chosen)])
    rng.shuffle(chosen)
    return [pool[key] for key in chosen]


# ---------------------------------------------------------------------------
# Cross-checks
# ---------------------------------------------------------------------------


def compare_peers(samples: Iterable[Sample]) -> list[dict[str, Any]]:
    """Samples where gnubg and OpenSpiel disagree, with the plays only one of them finds."""
    out = []
    for pos, dice in samples:
        g, o = gnubg_plays(pos, dice), openspiel_plays(pos, dice)
        if g != o:
            out.append(
                {
                    "pos": pos,
                    "dice": dice,
                    "only_gnubg": sorted(g - o),
                    "only_openspiel": sorted(o - g),
                }
            )
    return out


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------


def gnubg_moves_per_second(samples: Sequence[Sample]) -> tuple[float, float]:
    """Time gnubg's full-turn move generation over ``samples``.

    Only the native ``gnubg_nn.moves(board, d1, d2)`` calls are timed (boards are
    converted beforehand; the results stay as gnubg position keys).  Returns
    ``(positions_per_second, resulting_positions_per_second)``, a "no play" counting
    as one resulting position.
    """
    g = _gnubg()
    moves = g.moves
    prepared = [(pos_to_gnubg_board(pos), int(d[0]), int(d[1])) for pos, d in samples]
    results = 0
    t0 = time.perf_counter()
    for board, d1, d2 in prepared:
        results += len(moves(board, d1, d2)) or 1
    elapsed = time.perf_counter() - t0
    return len(prepared) / elapsed, results / elapsed


def openspiel_moves_per_second(samples: Sequence[Sample]) -> tuple[float, float]:
    """Time OpenSpiel's full-turn move generation over ``samples``.

    Timed per sample: setting the state (``SetState`` via ctypes from pre-converted
    lists) and enumerating every full-turn action sequence (``legal_actions`` /
    ``child``), de-duplicating the end-of-turn states by their string form.  Returns
    ``(positions_per_second, resulting_positions_per_second)``.
    """
    bridge = _openspiel()
    prepared = []
    for pos, dice in samples:
        check_position(pos)
        lo, hi = sorted((int(dice[0]), int(dice[1])))
        prepared.append(
            (
                _O if pos["turn"] == "white" else _X,
                [lo, hi],
                [pos["bar"]["black"], pos["bar"]["white"]],
                [pos["off"]["black"], pos["off"]["white"]],
                [[max(0, -v) for v in pos["points"]], [max(0, v) for v in pos["points"]]],
            )
        )
    template = bridge._template
    results = 0
    t0 = time.perf_counter()
    for player, dice, bar, scores, board in prepared:
        state = template.clone()
        bridge.set_state(state, player, dice, bar, scores, board)
        results += len(_openspiel_turn_leaves(state, player))
    elapsed = time.perf_counter() - t0
    return len(prepared) / elapsed, results / elapsed


def openspiel_random_games_per_second(n_games: int, seed: int) -> float:
    """Complete random OpenSpiel games per second (default game parameters).

    Chance outcomes are sampled with their probabilities and checker plays uniformly
    from ``legal_actions()`` with a ``random.Random(seed)``; everything is timed.
    """
    bridge = _openspiel()
    rng = random.Random(seed)
    t0 = time.perf_counter()
    for _ in range(n_games):
        state = bridge.game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return n_games / (time.perf_counter() - t0)
