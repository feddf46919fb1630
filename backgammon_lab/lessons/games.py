"""The learner's own mistakes as puzzles: :func:`mistakes` turns a game's analysis into puzzle items
of the strategy course.

A decision is a mistake when the analysis (:func:`~backgammon_lab.analysis.analyse.analyse`) marks
it: it gave up at least the *doubtful* threshold of equity (:data:`DOUBTFUL`, read from
:data:`~backgammon_lab.analysis.analyse.THRESHOLDS`). Each becomes a :class:`Mistake`, a
:class:`~backgammon_lab.analysis.strategy.Puzzle` (so the course asks it like any other puzzle:
the same buttons, hint, stars and review queue) that also keeps the play made, the loss and a
sentence saying what went wrong.

A mistake is kept only when a second, deeper check agrees that the better play is better
(:data:`CHECKS`, the item's ``check`` says which one it was):

* ``"exact"``: Mini-Gam, the solved table (:mod:`backgammon_lab.analysis.solve`);
* ``"bear-off"``: a pure bear-off race, the exact bear-off database
  (:mod:`backgammon_lab.analysis.bearoff`);
* ``"rollout"``: anything else, a rollout of the two plays by the net's bot with the same dice
  for both (stratified first rolls, truncated, see :data:`ROLLOUT`): the better play must lead by
  more than two standard errors of the difference. Mexican's naming of doubles is rolled out the
  same way (the two doubles); its opening choice too, with each roll's luck taken off (keeping
  and re-rolling meet different dice, so the pairing helps little).

Each item's key is its position and roll (:attr:`Mistake.key`), so the same mistake made twice is
one item.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..analysis.analyse import THRESHOLDS, Analysis, analyse, mark
from ..analysis.options import Options
from ..analysis.strategy import Puzzle, StrategyError, find_play, what_it_does
from ..engine import Action, MakePlay, NameDoubles, Phase, TurnState, advance, dice_state, naming_state, play_text
from ..errors import BackgammonError
from ..game import Game
from ..matchfiles import Match
from ..position import WHITE, Position, Roll
from .exercises import LessonError

__all__ = ["Mistake", "mistakes", "mistake_key", "DOUBTFUL", "CHECKS", "ROLLOUT", "MISTAKES_THEME",
           "mistakes_to_json", "mistakes_from_json"]

#: The theme (and stage id) of the learner's mistakes in the strategy course.
MISTAKES_THEME = "mine"

#: The deeper checks a mistake can pass, in words a learner reads.
CHECKS: dict[str, str] = {
    "exact": "the exact solved table of every position",
    "bear-off": "the exact bear-off table",
    "rollout": "a rollout with the same dice for both choices",
}

#: The confirming rollout: games per choice (a multiple of 36: the first rolls are stratified),
#: turns before the net values the game, by variant, the seed, and how many standard errors the
#: better choice must lead by.
ROLLOUT: dict[str, Any] = {"games": 144, "truncate": {"standard": 3, "mexican": 4, "minigam": 4}, "seed": 1, "z": 2.0,
                           "decision_games": 324}




#: The smallest loss (equity, points a game) that counts as a mistake: the analysis' *doubtful*
#: mark (its one owner, :data:`~backgammon_lab.analysis.analyse.THRESHOLDS`).
DOUBTFUL: float = next(t for t, name in THRESHOLDS if name == "doubtful")


def _side(turn: str) -> str:
    return "White" if turn == WHITE else "Black"


def mistake_key(position: str, dice: str, kind: str = "play") -> str:
    """The key of a mistake: the position and the roll (and the kind of decision, when it is not a play)."""
    return f"{position} {dice}" if kind == "play" else f"{position} {dice} {kind}"


def _mistake_id(key: str) -> str:
    return "my." + hashlib.sha256(key.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Mistake(Puzzle):
    """A mistake of a game as a puzzle of the course (see the module docstring).

    ``answer`` is the better choice and ``others`` holds the choice made; ``played``: the choice
    made (move text, ``"keep"``/``"reroll"``, or the doubles named, ``"4"``); ``loss``: the equity
    it gave up by the analysis; ``check``: the deeper check that agreed (a key of :data:`CHECKS`);
    ``words``: what went wrong, in plain words; ``seen``: how many times it was made in the games
    read. ``proof`` holds the values: ``values`` (each choice's winning chance by the check),
    ``analysis`` (the analysis' equities, loss and how it valued them) and the check's figures.
    """

    played: str = ""
    loss: float = 0.0
    check: str = ""
    words: str = ""
    seen: int = 1

    @property
    def key(self) -> str:
        """The position and the roll: one item per key."""
        return mistake_key(self.position, self.dice, self.kind)

    def to_json(self) -> dict[str, Any]:
        """The JSON record (what :meth:`from_json` reads)."""
        return {**super().to_json(), "played": self.played, "loss": self.loss, "check": self.check,
                "words": self.words, "seen": self.seen}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Mistake:
        """A mistake from its JSON record; :class:`~backgammon_lab.lessons.LessonError` for anything else."""
        try:
            return cls(str(data["id"]), str(data["kind"]), str(data["theme"]), str(data["position"]),
                       str(data["dice"]), str(data["answer"]), tuple(str(o) for o in data["others"]),
                       dict(data["proof"]), int(data.get("level", 2)), str(data["played"]),
                       float(data["loss"]), str(data["check"]), str(data["words"]), int(data.get("seen", 1)))
        except (KeyError, TypeError, ValueError, AttributeError, StrategyError) as e:
            raise LessonError(f"not a mistake record ({e}): {str(data)[:80]!r}") from None

    def __repr__(self) -> str:
        return (f"<Mistake {self.variant} {self.dice}: {self.played or '(no move)'}, better {self.answer}; "
                f"loss {self.loss:.3f}, checked by {self.check}>")


# -- where the decisions come from -----------------------------------------------------------------
def _games_of(source: Any) -> list[Game]:
    """The games of ``source``: a Game, a Match, or a file (a match file or a game record)."""
    from ..matchfiles import MatchFileError, load_match

    if isinstance(source, Game):
        return [source]
    if isinstance(source, Match):
        return [source.game(i) for i in range(1, len(source) + 1)]
    if isinstance(source, (str, Path)):
        p = Path(source)
        if not p.is_file():
            raise LessonError(f"mistakes() reads a Game, a Match, an analysis or a file; no file {str(source)!r}")
        try:
            text = p.read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            raise LessonError(f"cannot read {str(source)!r}: {e.strerror or e}") from None
        if text.lstrip().startswith("{"):
            try:
                return [Game.from_record(text)]
            except BackgammonError as e:
                raise LessonError(f"{str(source)!r} is not a game record that can be replayed: {e}") from None
        try:
            m = load_match(p)
        except MatchFileError as e:
            raise LessonError(f"{str(source)!r} is neither a game record nor a match file: {e}") from None
        return _games_of(m)
    raise LessonError(f"mistakes() reads a Game, a Match, an analysis or a file, not {source!r:.200}")


def _analyses(source: Any, options: Options | None) -> list[Analysis]:
    if isinstance(source, Analysis):
        return [source]
    if isinstance(source, (list, tuple)) and source and all(isinstance(a, Analysis) for a in source):
        return list(source)
    return [analyse(g, options) for g in _games_of(source)]


# -- the deeper checks ---------------------------------------------------------------------------
@dataclass
class _Checked:
    check: str
    values: dict[str, float]  # winning chance of each choice by the check
    equities: dict[str, float]
    detail: dict[str, Any] = field(default_factory=dict)


def _rollout_pair(state: TurnState, actions: Sequence[Action], variant: str) -> tuple[list[list[float]], list[float]]:
    """Paired rollouts (the same seed, stratified first rolls) of the states after each action, for
    the one who acts: each action's samples of points and its winning chance."""
    from ..analysis.netbot import NetBot
    from ..analysis.rollout import rollout
    from ..analysis.search import evaluator_for

    net = evaluator_for(state.turn_start, "net").net
    games = ROLLOUT["games"]
    opts = Options(games=games, seed=ROLLOUT["seed"], truncate=ROLLOUT["truncate"][variant], bot=NetBot(net),
                   evaluator=net)
    samples, wins = [], []
    for a in actions:
        after = advance(state, a)[0]
        if after.phase is Phase.OVER:
            won = after.winner == state.player
            e = float(after.points if won else -after.points)
            samples.append([e] * games)
            wins.append(1.0 if won else 0.0)
            continue
        r = rollout(after, opts, player=state.player, stratify=True)
        samples.append([pts for _, pts in r.samples])
        wins.append(r.win)
    return samples, wins


def _check_play(pos: Position, roll: Roll, named: bool, played: str, best: str) -> _Checked | None:
    """The deeper check of a play mistake, or None when the check does not agree."""
    from ..analysis import bearoff
    from ..analysis.search import equity_of, evaluator_for
    from ..errors import TableMissingError

    state = dice_state(pos, roll, named=named)
    plays = list(state.plays or ())
    targets = [find_play(pos, roll, played).position, find_play(pos, roll, best).position]
    idx = [next(i for i, p in enumerate(plays) if p.position == t) for t in targets]
    pair = [plays[i] for i in idx]
    v = pos.variant
    rows = None
    how = ""
    if v.name == "minigam":
        try:
            ev = evaluator_for(pos, "exact")
            rows, how = ev.play_values(state), "exact"
        except TableMissingError:
            rows = None
    if rows is None and bearoff.has_database(v) and bearoff.home_configs(pos) is not None:
        rows, how = bearoff.play_values(state), "bear-off"
    if rows is not None:
        eq = [equity_of(rows[i]) for i in idx]
        win = [float(rows[i][0]) for i in idx]
        if not eq[1] > eq[0] + 1e-9:
            return None
        return _Checked(how, {played: win[0], best: win[1]}, {played: eq[0], best: eq[1]})
    return _paired(state, [MakePlay(p) for p in pair], played, best, v.name)


def _paired(state: TurnState, actions: Sequence[Action], played: str, best: str, variant: str) -> _Checked | None:
    """The paired rollout of the action made and the better one: kept when the better leads by more
    than ``ROLLOUT["z"]`` standard errors of the difference."""
    from ..analysis.rollout import stratified_stderr

    samples, wins = _rollout_pair(state, actions, variant)
    diffs = [b - a for a, b in zip(samples[0], samples[1], strict=True)]
    gain = sum(diffs) / len(diffs)
    err = stratified_stderr(diffs)
    if not gain > ROLLOUT["z"] * err:
        return None
    eqs = [sum(s) / len(s) for s in samples]
    return _Checked("rollout", {played: wins[0], best: wins[1]}, {played: eqs[0], best: eqs[1]},
                    {"games": ROLLOUT["games"], "truncate": ROLLOUT["truncate"][variant], "seed": ROLLOUT["seed"],
                     "gain": gain, "stderr": err})


def _check_decision(kind: str, pos: Position, dice: str, played: str, best: str) -> _Checked | None:
    """The deeper check of a Mexican naming (the two doubles rolled out, paired) or opening choice
    (both rolled out with each roll's luck taken off: keeping and re-rolling meet different dice)."""
    from ..analysis.hints import opening_hint

    if kind == "name":
        return _paired(naming_state(pos), [NameDoubles(int(played)), NameDoubles(int(best))], played, best,
                       pos.variant.name)
    opts = Options(ply=0, games=ROLLOUT["decision_games"], luck=True, seed=ROLLOUT["seed"])
    h = opening_hint(pos, dice, opts)
    a, b = h.find(played), h.find(best)
    se = math.hypot(a.stderr or 0.0, b.stderr or 0.0)
    if not b.win - a.win > ROLLOUT["z"] * se:
        return None
    return _Checked("rollout", {played: a.win, best: b.win}, {played: a.equity, best: b.equity},
                    {"games": ROLLOUT["decision_games"], "seed": ROLLOUT["seed"], "luck": True,
                     "gain": b.win - a.win, "stderr": se})


# -- the words -----------------------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _choice_words(kind: str, option: str, roll: Roll | None = None, pos: Position | None = None) -> str:
    if kind == "choice":
        return {"keep": "keeping the dice", "reroll": "rolling both dice again"}.get(option, option)
    if kind == "name":
        return f"naming {option}-{option}"
    assert roll is not None and pos is not None
    return play_text(find_play(pos, roll, option), roll)


def _words(kind: str, pos: Position, roll: Roll, played: str, best: str, loss: float, win_loss: float,
           checked: _Checked, analysis_how: str) -> str:
    who = _side(pos.turn)
    if kind == "play":
        p_text, b_text = _choice_words(kind, played, roll, pos), _choice_words(kind, best, roll, pos)
        does = what_it_does(pos, find_play(pos, roll, best).position, find_play(pos, roll, played).position)
        why = f": it {', '.join(does)}" if does else ""
        head = f"{who} played {p_text} with {roll}. Better was {b_text}{why}."
    else:
        p_text, b_text = _choice_words(kind, played), _choice_words(kind, best)
        what = f"the opening roll {roll}" if kind == "choice" else "a Mexican (1-2)"
        head = f"After {what}, {who} chose {p_text}. Better was {b_text}."
    cost = (f" The choice made gave up {loss:.3f} points a game ({_pct(win_loss)} winning chance) by "
            f"{analysis_how}.")
    check = CHECKS[checked.check]
    if checked.check == "rollout":
        d = checked.detail
        sure = (f" {check[0].upper()}{check[1:]} agrees: {_pct(checked.values[best])} against "
                f"{_pct(checked.values[played])} to win, {d['games']} games each.")
    else:
        sure = (f" {check[0].upper()}{check[1:]} agrees: {_pct(checked.values[best])} against "
                f"{_pct(checked.values[played])} to win.")
    return head + cost + sure


def _analysis_how(analysis: Analysis) -> str:
    if analysis.method == "exact":
        return "the exact solved table"
    looks = {0: "the net", 1: "the net looking one roll ahead", 2: "the net looking two rolls ahead"}
    return looks.get(analysis.ply, f"the net looking {analysis.ply} rolls ahead")


# -- the items -------------------------------------------------------------------------------------
def _level(loss: float) -> int:
    return {"very bad": 1, "bad": 2}.get(mark(loss), 3)


def mistakes(source: Game | Match | Analysis | Sequence[Analysis] | str | os.PathLike[str],
             options: Options | None = None, *, player: str | None = None) -> list[Mistake]:
    """The mistakes of ``source`` as puzzle items of the course (:class:`Mistake`), in the order made.

    ``source``: a :class:`~backgammon_lab.game.Game`, a :class:`~backgammon_lab.matchfiles.Match`,
    the path of a match file or of a game record (JSON), or an analysis
    (:class:`~backgammon_lab.analysis.analyse.Analysis`, or a list of them). ``options``: the
    analysis' :class:`~backgammon_lab.analysis.options.Options` (None: its defaults; not used for
    an analysis given). ``player``: ``"white"`` or ``"black"`` keeps that side's mistakes only.

    A decision is kept when it lost at least :data:`DOUBTFUL` (the doubtful mark) and a deeper
    check agrees that the better choice is better (module docstring). One item per position and
    roll: the same mistake made again counts in ``seen``.
    """
    if player is not None and player not in ("white", "black"):
        raise LessonError(f"player is 'white', 'black' or None, not {player!r}")
    found: dict[str, Mistake] = {}
    refused: set[str] = set()  # decisions the deeper check did not confirm: not checked twice
    kinds = {"play": "play", "choice": "keep", "name": "name"}
    for a in _analyses(source, options):
        how = _analysis_how(a)
        for d in a.decisions:
            if d.forced or d.loss < DOUBTFUL - 1e-12 or (player is not None and d.player != player):
                continue
            if not d.position:
                raise LessonError("this analysis does not name the positions of its decisions; analyse the game "
                                  "again and pass the game")
            dice = d.dice.replace(" named", "")
            kind = kinds[d.kind]
            key = mistake_key(d.position, dice, kind)
            if key in refused:
                continue
            if key in found:
                old = found[key]
                found[key] = Mistake.from_json({**old.to_json(), "seen": old.seen + 1})
                continue
            pos, roll = Position.from_string(d.position), Roll.parse(dice)
            if kind == "play":
                played, best = d.choice, d.best
                checked = _check_play(pos, roll, d.dice.endswith(" named"), played, best)
            else:
                played, best = (d.choice.split("-")[0], d.best.split("-")[0]) if kind == "name" else (d.choice, d.best)
                checked = _check_decision(d.kind, pos, dice, played, best)
            if checked is None:
                refused.add(key)
                continue
            proof = {"method": checked.check, "how": CHECKS[checked.check], "values": checked.values,
                     "equities": checked.equities, "check": checked.detail,
                     "analysis": {"how": how, "loss": d.loss, "win_loss": d.win_loss,
                                  "equity": {played: d.equity, best: d.best_equity}}}
            words = _words(d.kind, pos, roll, played, best, d.loss, d.win_loss, checked, how)
            found[key] = Mistake(_mistake_id(key), kind, MISTAKES_THEME, d.position, dice, best, (played,), proof,
                                 _level(d.loss), played, d.loss, checked.check, words)
    return list(found.values())


def mistakes_to_json(items: Iterable[Mistake]) -> list[dict[str, Any]]:
    """JSON records of mistakes (for a progress file)."""
    return [i.to_json() for i in items]


def mistakes_from_json(records: Iterable[dict[str, Any]]) -> list[Mistake]:
    """The mistakes of :func:`mistakes_to_json`'s records."""
    return [Mistake.from_json(r) for r in records]

