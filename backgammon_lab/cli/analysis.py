"""The analysis subcommands of ``backgammon-lab``: ``value``, ``hint``, ``analyse`` and ``solve`` (see
``docs/cli.md``); :func:`~backgammon_lab.cli.app.build_parser` adds them with :func:`add_subcommands`.

* ``backgammon-lab value POSITION [--games N] [--json]`` -- the winning chance of the side to move:
  exact for Mini-Gam when its solved table is cached (else a rollout, with a note saying how to
  get the exact value). ``--batch`` reads one position a line on stdin (its JSON form, a position
  string, or ``{"position": ..., "variant": ...}``; the JSON form may add ``"options"``, e.g.
  ``{"checkers": 3}``) and writes ``{"win": p}`` a line, p for the side to move.
* ``backgammon-lab hint POSITION --dice A-B [--ply K] [--json]`` -- every legal play ranked (by
  default 2 rolls ahead, 1 in Mexican).
* ``backgammon-lab analyse RECORD [--ply K]`` -- every decision of a game judged.
* ``backgammon-lab solve minigam [--out PATH] [--checkers K]`` -- solve Mini-Gam and cache the table.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from ..analysis.bots import Bot, HeuristicBot, RandomBot
from ..errors import BackgammonError, NotationError, OutputError, show
from ..matchfiles import (
    FORMAT_TITLES,
    MatchFileError,
    decode_match_bytes,
    detect_format,
    looks_like_match_file,
    read_match,
)
from ..position import Position
from ..variants import find_variant
from .common import (
    POSITION_HELP,
    VARIANT_HELP,
    add_progress_argument,
    batch_position,
    check_output_path,
    load_json_line,
    note,
    number_type,
    positive_int,
    read_dice,
    read_position,
    run_batch,
    seed_int,
    show_progress,
)

__all__ = ["add_subcommands", "position_value"]

#: Default rollout games: ``value`` per position, ``hint`` per play.
VALUE_GAMES = 1000
HINT_GAMES = 200


def _bot(name: str) -> Bot:
    return RandomBot(0) if name == "random" else HeuristicBot()


def _solve_command(position: Position) -> str:
    v = position.variant
    extra = (f" --checkers {v.checkers}" if v.checkers != 8 else "") + (" --bar-first" if v.bar_first else "")
    return f"backgammon-lab solve minigam{extra}"


def _table_for(position: Position, path: str | None) -> Any:
    """The solved table for a Mini-Gam position (None for other variants, or when none is cached:
    then a note on stderr says that the answer is a rollout and how to get the exact value)."""
    from ..analysis.solve import get_table, load_table, solvable

    if not solvable(position.variant):
        if path:  # refused, not ignored: only Mini-Gam is solved
            raise BackgammonError(f"--table {path!r}: only Mini-Gam has a solved table, and this is a "
                                  f"{position.variant.name} position ({position.to_string()!r}); leave out --table")
        return None

    if path:
        try:
            return load_table(path)
        except BackgammonError as e:
            raise BackgammonError(f"--table: {e}") from None
        except Exception as e:  # noqa: BLE001 - not a table file (missing, not an archive, wrong arrays)
            raise BackgammonError(f"cannot read the table {path!r}: not a solved Mini-Gam table file "
                                  f"({type(e).__name__})") from None
    if position.is_over:  # nothing to look up or roll out, so no note about the table
        return None
    table = get_table(position.variant, build=position.variant.checkers <= 4)
    if table is None:
        note(f"no solved {position.variant.title} table is cached, so this is a rollout estimate; "
             f"`{_solve_command(position)}` computes the exact values once (about 20 seconds) and caches them")
    return table


def position_value(position: Position, *, games: int = VALUE_GAMES, seed: int = 0, bot: Bot | None = None,
                   workers: int = 1, table: Any = None, progress: bool = False) -> dict[str, Any]:
    """The winning chance of the side to move as a JSON-ready dict: exact with a Mini-Gam table
    (``{"win", "method": "exact"}``), else a rollout (adds ``stderr`` and ``games``)."""
    if position.is_over:
        return {"win": 1.0 if position.winner() == position.turn else 0.0, "method": "over"}
    if table is not None:
        if table.variant != position.variant:
            raise BackgammonError(f"the table solves {table.variant!r}, not {position.variant!r}")
        return {"win": table.value(position), "method": "exact"}
    from ..analysis.options import Options
    from ..analysis.rollout import rollout

    r = rollout(position, Options(games=games, seed=seed, bot=bot or HeuristicBot(), workers=workers,
                                  progress=progress))
    return {"win": r.win, "method": "rollout", "stderr": r.stderr, "games": r.games, "seed": seed, "bot": r.bot}


def _value_line(args: argparse.Namespace, bot: Bot) -> Any:
    tables: dict[Any, Any] = {}

    def answer(line: str) -> Any:
        try:
            item = load_json_line(line)
        except BackgammonError:
            if line.lstrip()[:1] in ("{", "[", '"'):
                raise
            item = line.strip()  # a bare position string or ID, not quoted as JSON
        pos = batch_position(item, args.variant)
        if pos.is_over and not args.table:
            return {"win": position_value(pos)["win"]}
        if pos.variant not in tables:
            tables[pos.variant] = _table_for(pos, args.table)
        res = position_value(pos, games=args.games, seed=args.seed, bot=bot, workers=args.workers,
                             table=tables[pos.variant])
        return {"win": res["win"]}

    return answer


def _cmd_value(args: argparse.Namespace) -> int:
    bot = _bot(args.bot)
    if args.batch:
        if args.position is not None:
            raise BackgammonError("value --batch reads its positions on stdin: give no POSITION")
        return run_batch(_value_line(args, bot), progress=show_progress(args), compact=False)
    if args.position is None:
        raise BackgammonError("value needs a POSITION (or --batch)")
    pos = read_position(args.position, args.variant)
    res = position_value(pos, games=args.games, seed=args.seed, bot=bot, workers=args.workers,
                         table=_table_for(pos, args.table), progress=show_progress(args))
    if args.json:
        print(json.dumps({"player": pos.turn, **res}))
    else:
        how = {"exact": "exact, perfect play", "over": "the game is over"}.get(
            res["method"], f"rollout of {res.get('games')} games, seed {args.seed}, {res.get('bot')}")
        err = f" ± {res['stderr'] * 100:.2f}%" if "stderr" in res else ""
        print(f"{pos.turn.capitalize()} to move: winning chance {res['win'] * 100:.4f}%{err} ({how})")
    return 0


def _cmd_hint(args: argparse.Namespace) -> int:
    from ..analysis.hints import hint
    from ..analysis.options import FILTERS, Options
    from ..analysis.solve import get_table, solvable

    games = args.rollout or (args.games if args.bot is not None else 0)  # --bot: a rollout by that bot
    if args.truncate is not None and not games:  # refused, not ignored
        raise BackgammonError(f"--truncate {args.truncate} stops the games of a rollout, and there is none: "
                              "add --rollout N (or leave out --truncate)")
    if args.luck and not games:
        raise BackgammonError("--luck takes the luck off the games of a rollout, and there is none: "
                              "add --rollout N (or leave out --luck)")
    pos = read_position(args.position, args.variant)
    if pos.is_over:
        raise BackgammonError(f"the game is over in {pos.to_string()!r}: nothing to play")
    dice = read_dice(args.dice)
    if args.table:
        table = _table_for(pos, args.table)
    else:  # the cached table (small boards solved on the spot), else the net says it
        table = get_table(pos.variant, build=pos.variant.checkers <= 4) if solvable(pos.variant) else None
        if table is None and solvable(pos.variant):
            note(f"no solved {pos.variant.title} table is cached, so this is the net's estimate; "
                 f"`{_solve_command(pos)}` computes the exact values once (about 20 seconds) and caches them")
    if table is not None and games:
        note("the solved table's values are exact, so no rollout is needed and none is made")
    filters = tuple((args.candidates, within) for _count, within in FILTERS) if args.candidates else FILTERS
    options = Options(ply=args.ply, filters=filters, evaluator=table if table is not None else "net",
                      games=games or None, truncate=args.truncate, luck=args.luck, seed=args.seed,
                      bot=_bot(args.bot) if args.bot is not None else None, workers=args.workers,
                      progress=show_progress(args))
    h = hint(pos, dice, options)
    if args.json:
        print(json.dumps(h.to_json()))
    else:
        print(h.table(top=args.top))
    filtered = _filter_note(h, args, rollout=bool(games))
    if filtered:
        note(filtered)
    return 0


def _filter_note(h: Any, args: argparse.Namespace, *, rollout: bool) -> str:
    """The sentence saying that gnubg's move filter left out plays that ``--candidates`` (or its
    default, 8) would have let in: only plays within 0.16 equity of the best at 0-ply go deeper
    or are rolled out. Empty when nothing was left out, or no filter was used."""
    from ..analysis.options import FILTERS

    if h.method not in ("net", "rollout") or (not rollout and h.ply == 0):
        return ""
    count, threshold = FILTERS[0]
    wanted = min(args.candidates or count, len(h.plays))
    deeper = {"rollout"} if rollout else {"1-ply", "2-ply"}
    got = sum(1 for rp in h.plays if rp.how in deeper)
    if got >= wanted or not any(rp.how == "0-ply" for rp in h.plays):
        return ""
    what = "rolled out" if rollout else f"looked at {h.ply}-ply"
    asked = f"--candidates {args.candidates}" if args.candidates else f"the default --candidates {count}"
    return (f"{got} of the {len(h.plays)} plays {'was' if got == 1 else 'were'} {what}, though {asked} "
            f"allows {wanted}: a play is a candidate only within {threshold} equity of the best at 0-ply "
            "(GNU Backgammon's move filter)")


def _cmd_analyse(args: argparse.Namespace) -> int:
    import sys

    from ..analysis.analyse import analyse
    from ..analysis.options import Options

    if args.svg is not None:  # checked before the analysis, which takes a while
        check_output_path(args.svg, "--svg", "chart.svg")
    text = _read_record(args.record, sys.stdin)
    a = analyse(_game_of_file(text, args.game, args.record), Options(ply=args.ply))
    failed = None
    if args.svg is not None:
        try:
            with open(args.svg, "w", encoding="utf-8") as fh:
                fh.write(a.svg())
        except OSError as e:  # the analysis is still printed, then this error
            failed = OutputError(f"--svg {args.svg!r}: cannot write it: {e.strerror or e}")
    if args.json:
        print(json.dumps(a.to_json(), sort_keys=True))
    else:
        print(a.summary())
        print()
        print(a.table(all_decisions=args.all))
    if failed is not None:
        sys.stdout.flush()
        raise failed
    return 0


#: Longest game record read (a real game is a few kilobytes).
RECORD_LIMIT = 50_000_000


def _read_record(name: str, stdin: Any) -> str:
    """The text of the game record ``name`` (``-``: ``stdin``); a file that is missing, unreadable,
    not UTF-8, empty or not JSON is refused naming it (:class:`NotationError`, exit status 2)."""
    where = "stdin" if name == "-" else f"the file {name!r}"
    if name == "-":
        data = stdin.buffer.read(RECORD_LIMIT + 1) if hasattr(stdin, "buffer") else stdin.read().encode("utf-8")
    else:
        try:
            with open(name, "rb") as fh:
                data = fh.read(RECORD_LIMIT + 1)
        except FileNotFoundError:
            raise NotationError(f"no such file: {name!r}") from None
        except IsADirectoryError:
            raise NotationError(f"{name!r} is a folder, not a game record") from None
        except OSError as e:
            raise NotationError(f"cannot read the file {name!r}: {e.strerror or e}") from None
    if len(data) > RECORD_LIMIT:
        raise NotationError(f"{where} is larger than {RECORD_LIMIT:,} bytes: too large for a game record")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        text = decode_match_bytes(data)  # a game file may be Latin-1 or UTF-16, as load_match reads it
        if not looks_like_match_file(text):
            raise NotationError(f"{where} is not UTF-8 text (byte {e.start}) and no game file (.mat, SGF): "
                                "a game record is JSON text") from None
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise NotationError(f"{where} is empty: a game record is JSON text, as Game.to_json writes it")
    if text.lstrip()[:1] != "{" and not looks_like_match_file(text):
        raise NotationError(f"{where} holds neither a game record (JSON text starting with '{{', as Game.to_json "
                            f"writes it) nor a game file (SGF starting with '(', or .mat text with ' Game 1' "
                            f"lines): it starts with {show(text.lstrip()[:30])}")
    return text


def _game_of_file(text: str, number: int | None, name: str) -> Any:
    """The JSON record as it is, or game ``number`` (default 1) of a game file (.mat, SGF, the
    .mat-style text of Mexican and Mini-Gam): its checker play is analysed, not its cube actions."""
    if text.lstrip()[:1] == "{":
        if number is not None:
            raise NotationError(f"--game picks a game of a match file (.mat, SGF), but {name!r} is one game record")
        return text
    fmt = detect_format(text)
    try:
        match = read_match(text, fmt)
    except MatchFileError as e:
        raise MatchFileError(f"{name!r}, read as {FORMAT_TITLES[fmt]}: {e}") from None
    if number is None and len(match) > 1:
        note(f"{name!r} holds {len(match)} games: analysing game 1 (--game N picks another); "
             "cube decisions are not analysed")
    return match[1 if number is None else number].game


def _cmd_solve(args: argparse.Namespace) -> int:
    from ..analysis.solve import default_table_path, solve, start_values

    progress = False if args.quiet else show_progress(args)
    find_variant("minigam", checkers=args.checkers, bar_first=args.bar_first)
    t0 = time.perf_counter()
    table = solve(args.checkers, bar_first=args.bar_first, tol=args.tol, progress=progress, threads=args.threads)
    path = table.save(args.out or default_table_path(args.checkers, args.bar_first))
    st = table.stats
    if st is None:
        raise BackgammonError("the solver returned no statistics")
    start = Position.start(table.variant)
    sv = start_values(table)
    print(f"solved Mini-Gam with {args.checkers} checkers{' (bar first)' if args.bar_first else ''}: "
          f"{st.n_states} states in {time.perf_counter() - t0:.1f} s, last change {st.residual:.1e}")
    print(f"table: {path}")
    print(f"start, side to roll: {table.value(start):.12f}; first mover after the opening roll: "
          f"{sv['first_mover']:.12f}")
    return 0


def _add_rollout_options(parser: argparse.ArgumentParser, games: int, games_help: str) -> None:
    """The options that ``value`` and ``hint`` share, each parser with its own defaults."""
    parser.add_argument("--variant", help=VARIANT_HELP)
    parser.add_argument("--games", type=positive_int, default=games, help=games_help)
    parser.add_argument("--seed", type=seed_int, default=0, help="rollout seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, choices=(1, 2), help="processes for rollouts")
    parser.add_argument("--bot", choices=("heuristic", "random"), default="heuristic", help="rollout bot")
    parser.add_argument("--table", help="a solved Mini-Gam table file (default: the cache)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_progress_argument(parser)


def add_subcommands(sub: Any) -> None:
    """Add ``value``, ``hint``, ``analyse`` and ``solve`` to the ``backgammon-lab`` subparsers."""
    va = sub.add_parser("value", help="winning chance of the side to move (exact for Mini-Gam, else a rollout)")
    va.add_argument("position", nargs="?", metavar="POSITION", help=POSITION_HELP + "; none with --batch")
    _add_rollout_options(va, VALUE_GAMES, f"rollout games (default {VALUE_GAMES})")
    va.add_argument("--batch", action="store_true",
                    help='read one position a line on stdin (JSON form, position string, or {"position": ..., '
                         '"variant": ...}); write {"win": p} lines, one per input line, in order')
    va.set_defaults(func=_cmd_value)

    hi = sub.add_parser("hint", help="every legal play of a roll ranked by winning chance")
    hi.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    _add_rollout_options(hi, HINT_GAMES, f"rollout games per play (default {HINT_GAMES})")
    hi.add_argument("--dice", required=True, help="the roll, e.g. 6-5")
    hi.add_argument("--top", type=positive_int, default=None, help="show only the best N plays")
    hi.add_argument("--candidates", type=positive_int, default=None,
                    help="look deeper (or roll out) at most the best N plays (default 8); of those, only the "
                         "plays within 0.16 equity of the best at 0-ply (GNU Backgammon's move filter), so "
                         "fewer may be looked at (a note says so)")
    hi.add_argument("--ply", type=int, choices=(0, 1, 2), default=None,
                    help="the net's look-ahead in rolls (default 2, in Mexican 1; 0: the net on each play's "
                         "position, about a millisecond)")
    hi.add_argument("--rollout", type=positive_int, default=None, metavar="N",
                    help="roll the best plays out N games each with the net's bot (variance reduced)")
    hi.add_argument("--truncate", type=positive_int, default=None, metavar="T",
                    help="stop each rollout game after T turns and let the net value it")
    hi.add_argument("--luck", action="store_true",
                    help="take each roll's luck, by the net, off each rollout game (less spread; each game dearer)")
    hi.set_defaults(func=_cmd_hint, bot=None)  # --bot heuristic|random: a rollout of --games by that bot

    an = sub.add_parser("analyse", help="analyse a game record: every decision judged, error rates, luck")
    an.add_argument("record", metavar="RECORD", help="a game record (JSON, as Game.to_json writes it), a game file "
                    "(.mat, SGF), or - for stdin")
    an.add_argument("--game", type=positive_int, metavar="N", help="the game of a match file to analyse (default 1)")
    an.add_argument("--ply", type=int, choices=(0, 1, 2), default=None,
                    help="the net's look-ahead in rolls (default 2, in Mexican 1; 0 is fastest)")
    an.add_argument("--json", action="store_true", help="print JSON")
    an.add_argument("--svg", metavar="PATH", help="also write the chart of White's winning chance to PATH")
    an.add_argument("--all", action="store_true", help="list every decision (default: only the marked ones)")
    an.set_defaults(func=_cmd_analyse)

    so = sub.add_parser("solve", help="solve Mini-Gam exactly and cache the table")
    so.add_argument("game", choices=("minigam",), metavar="GAME", help="the game to solve: minigam")
    so.add_argument("--out", help="where to write the table (default: the user's cache directory)")
    so.add_argument("--checkers", type=number_type(1, 8, whole=True, what="1 to 8 checkers a side (Mini-Gam)"),
                    default=8, help="checkers a side (1-8; default 8)")
    so.add_argument("--bar-first", action="store_true", help="the bar_first=True reading of rule G4")
    so.add_argument("--tol", type=number_type(0, 1, low_open=True, high_open=True, what="a number between 0 and 1, "
                                              "like 1e-12"),
                    default=1e-12, help="stop when no value changes more (default 1e-12)")
    so.add_argument("--threads", type=int, default=2, choices=(1, 2), help="accepted for old scripts; the compiled solve uses one thread")
    add_progress_argument(so)
    so.add_argument("--quiet", action="store_true", help="no progress bar (the same as --no-progress)")
    so.set_defaults(func=_cmd_solve)
