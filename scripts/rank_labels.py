"""Teach a net's 0-ply the *ranking* of its own deeper search (an experiment of issue 19).

    python scripts/rank_labels.py label FIRST_SEED CHUNKS [--size 500] [--ply 0|1|2] [--dir artifacts/rank] [--variant V] [--net NET] [--only crashed|race|contact]
    python scripts/rank_labels.py merge OUT.npz [--ply 2] [--dir artifacts/rank]
    python scripts/rank_labels.py fit OUT.npz LABELS.npz [LABELS.npz ...] [--tau 0.01] [--anchor 1.0] [--value 0] [--crashed 1] [--lr 0.0001] [--epochs 10] [--variant V] [--net NET] [--only crashed|race]

The variant (``--variant``, standard unless given) is ``standard`` or ``mexican``; the net that
labels (its self-play and its search) and the net fitted is that variant's shipped net (``--net
NET``: that net file instead, of the same variant).

Fitting a net's values to its deeper search's values (``refine``) left the standard net's play
where it was: the squared error of the values does not teach how the search *ranks* the plays of a
roll, which is where 0-ply and 2-ply disagree. This script fits the ranking itself.

``label``: chunk ``s`` takes ``size`` positions from the net's 0-ply self-play
(``sample_positions("standard", size, NetBot(net), seed=s, explore=0.1)``), rolls each one's dice
with ``random.Random(s)`` (two ``randint(1, 6)``), and ranks its plays by the net's search with the
move filter ``((8, 0.16), (4, 0.08))`` at 2-ply (``Evaluator.rank_plays``). The plays that reach 2-ply
(and the 0-ply best, valued at 2-ply when the filter left it out) are the decision's candidates.
``--ply 0`` distils one net into another: the candidates are the plays the first filter keeps (at
most 8 within 0.16 of the best), each with the labelling net's own 0-ply equity, so a net made by
:func:`~backgammon_lab.analysis.nets.join_nets` (an ensemble) can teach a smaller net its ranking. A
decision with fewer than two candidates is skipped, and so are races: in standard every race (the shipped
net's race net plays them, and the fit does not reach it), in Mexican the races the bear-off database
values exactly. So is a Mexican 1-2, whose plays are valued through the doubles named next. Each
candidate is stored as the board of the side that rolls next (``boards``, ``offs``): the opponent,
or after Mexican doubles the mover itself (``same``), with ``group`` (its decision) and ``teacher``
(the mover's cubeless equity at the teacher's ply).

``fit``: the shipped net (or ``--net``, of one hidden layer or two), fitted by Adam so that within
each decision the softmax of its 0-ply equities (over ``tau``) follows the softmax of the
teacher's (cross-entropy), plus ``anchor`` times
half the squared distance of its outputs from the net's own before the fit (so the values stay
where TD put them), plus ``value`` times half the squared distance of each candidate's equity from
the teacher's (0, the default, fits the ranking alone). ``crashed`` weighs the decisions whose
candidates include a crashed position (``backgammon_lab.analysis.strategy.crashed_boards``) that many times over the others (1,
the default: all alike).

``--only CLASS`` (``backgammon_lab.analysis.strategy.position_class``: ``crashed``, in contact with a
side of at most six checkers in play; ``race``, out of contact; ``contact``, the rest) labels only
the decisions from positions of that class (races the bear-off database values exactly are left
out as ever), and each chunk's ``kind`` column records every decision's class. ``fit --only
crashed`` fits only those decisions (in files made before the column, the decisions whose
candidates are all crashed, as a crashed position's plays all are) into the net's **crashed net**
(``Net.with_crashed``; the net itself when it has none); ``fit --only race`` fits the decisions
from races into the net's **race net** (``Net.with_race``). OUT is then the whole net with that net
fitted: the net the search takes from positions of that class.

A tenth of the decisions is held out: it prints how often the net's best
candidate is the teacher's, and the teacher's equity lost by the net's choice, before and after.
Several label files fit as one (the two rounds of 5 December: ``fit OUT.npz
training/labels/standard_rank2.npz training/labels/standard_rank2_round2.npz``); their chunks'
seeds must differ.
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import sys
import time
from typing import Any

import numpy as np

from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.nets import Net, _sigmoid, encode, equity, load_net, play_board, shipped_net, swap_boards
from backgammon_lab.analysis.refine import adam_step
from backgammon_lab.analysis.rollout import sample_positions
from backgammon_lab.analysis.search import Evaluator, move_filter
from backgammon_lab.analysis.strategy import contact, crashed_boards, position_class
from backgammon_lab.engine import MakePlay, Phase, RollDice, advance, position_state
from backgammon_lab.position import Position, Roll

#: The move filter of the teacher: 1-ply for at most 8 plays within 0.16 of the best at 0-ply,
#: 2-ply (``--ply 2``) for at most 4 within 0.08 of the best at 1-ply.
TEACHER_FILTERS = ((8, 0.16), (4, 0.08))
#: What the equity of the side the values are for is, output by output (five outputs with gammons,
#: one without): d equity / d outputs.
EQUITY_WEIGHTS = {5: np.array([2.0, 1.0, 1.0, -1.0, -1.0]), 1: np.array([2.0])}


def _net(variant: str = "standard") -> Net:
    net = shipped_net(variant)
    assert net is not None
    return net


#: The classes of positions ``--only`` picks, by the code a chunk's ``kind`` column holds for the
#: position each decision is made from (-1 in files made before the column: not known).
KINDS = {"contact": 0, "crashed": 1, "race": 2}


def _skip(ev: Evaluator, p: Position, only: str | None = None) -> bool:
    """Whether the labels leave the position out. Without ``only``: in standard every race (the
    shipped net's race net plays them, and a fit of the contact net does not reach it); elsewhere
    only the races that the bear-off database values exactly. With ``only``: every position not of
    that class (:func:`~backgammon_lab.analysis.strategy.position_class`), and the races the bear-off database values exactly."""
    if ev._race(p) is not None:
        return True
    if only is not None:
        return position_class(p) != only
    return p.variant.name == "standard" and not contact(p)


def label_chunk(net: Net, seed: int, size: int, ply: int = 2, only: str | None = None) -> dict[str, np.ndarray]:
    """One chunk of decisions (see the module's text); ``only`` ("crashed", "race" or "contact")
    keeps only the decisions from positions of that class (:func:`~backgammon_lab.analysis.strategy.position_class`)."""
    ev = Evaluator(net)
    rng = random.Random(seed)
    boards: list[tuple[int, ...]] = []
    offs: list[int] = []
    group: list[int] = []
    teacher: list[float] = []
    same: list[bool] = []
    kind: list[int] = []
    for d, p in enumerate(sample_positions(net.variant, size, NetBot(net), seed=seed, explore=0.1)):
        st = advance(position_state(p), RollDice(Roll(rng.randint(1, 6), rng.randint(1, 6))))[0]
        if st.phase is not Phase.PLAY or not st.plays or len(st.plays) < 2 or _skip(ev, p, only):
            continue
        if advance(st, MakePlay(st.plays[0]))[0].phase is Phase.NAME:
            continue  # a Mexican 1-2: the plays are valued through the doubles named next
        ranked = ev.rank_plays(st, ply, TEACHER_FILTERS[:ply])
        eq0 = {i: float(equity(r["rows"]["0-ply"])) for i, r in ranked.items()}
        best0 = max(eq0, key=lambda i: (eq0[i], -i))
        if ply == 0:  # the teacher's own 0-ply values of the plays its first filter keeps
            order = sorted(eq0, key=lambda i: (-eq0[i], i))
            deep = {i: eq0[i] for i in move_filter(order, eq0, *TEACHER_FILTERS[0])}
        else:
            deep = {i: r["eq"] for i, r in ranked.items() if r["how"] == f"{ply}-ply"}
        if best0 not in deep:
            nxt_row = ev.after_value(st, MakePlay(st.plays[best0]), ply)
            deep[best0] = float(equity(nxt_row))
        if len(deep) < 2:
            continue
        for i in sorted(deep):
            nxt = advance(st, MakePlay(st.plays[i]))[0]
            if nxt.position.is_over:
                continue
            b = np.array([play_board(st.plays[i])], dtype=np.int8)
            again = nxt.player == st.player  # Mexican doubles: the mover rolls again
            sb, so = (b, np.array([p.opponent_off])) if again else swap_boards(b, np.array([p.opponent_off]),
                                                                                 net.variant)
            boards.append(tuple(int(x) for x in sb[0]))
            offs.append(int(so[0]))
            group.append(d)
            teacher.append(deep[i])
            same.append(again)
            kind.append(KINDS[position_class(p)])
    return {"boards": np.array(boards, np.int8).reshape(len(boards), -1), "offs": np.array(offs, np.int64),
            "group": np.array(group, np.int64), "teacher": np.array(teacher), "same": np.array(same, bool),
            "kind": np.array(kind, np.int8)}


def label(first: int, chunks: int, size: int, folder: str, ply: int = 2, variant: str = "standard",
          teacher: str | None = None, only: str | None = None) -> None:
    net = load_net(teacher) if teacher else _net(variant)
    if net.variant.name != variant:
        raise ValueError(f"--net {teacher!r} is a {net.variant.name} net, not {variant}")
    os.makedirs(folder, exist_ok=True)
    for s in range(first, first + chunks):
        out = os.path.join(folder, f"rank{ply}_s{s}.npz")
        if os.path.exists(out):
            continue
        t = time.process_time()
        cols: dict[str, Any] = label_chunk(net, s, size, ply, only)
        tmp = out + ".tmp.npz"
        np.savez(tmp, **cols)
        os.replace(tmp, out)
        print(f"{out}: {len(np.unique(cols['group']))} decisions, {len(cols['group'])} candidates, "
              f"{time.process_time() - t:.0f} s CPU", flush=True)


def merge(out: str, folder: str, ply: int = 2) -> None:
    def seed_of(f: str) -> int:
        return int(f.rsplit("_s", 1)[1].split(".")[0])

    files = sorted((f for f in glob.glob(os.path.join(folder, f"rank{ply}_s*.npz")) if not f.endswith(".tmp.npz")),
                   key=seed_of)
    if not files:
        raise SystemExit(f"no chunks in {folder!r}")
    parts = [dict(np.load(f)) for f in files]
    for f, p in zip(files, parts, strict=True):
        p["seeds"] = np.full(len(p["group"]), seed_of(f), np.int64)
        p.setdefault("same", np.zeros(len(p["group"]), bool))  # chunks of before the Mexican labels
        p.setdefault("kind", np.full(len(p["group"]), -1, np.int8))  # chunks of before the classes: not known
    cols: dict[str, Any] = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    np.savez_compressed(out, **cols)
    print(f"{out}: {len(cols['group'])} candidates from {len(files)} chunks")


def _decisions(seeds: np.ndarray, group: np.ndarray) -> np.ndarray:
    """A decision number for each row: (chunk, group) pairs numbered in order."""
    key = seeds.astype(np.int64) * 1_000_000 + group
    _, ids = np.unique(key, return_inverse=True)
    return ids.astype(np.int64)


def _softmax_by(z: np.ndarray, ids: np.ndarray, n: int) -> np.ndarray:
    top = np.full(n, -np.inf)
    np.maximum.at(top, ids, z)
    e = np.exp(z - top[ids])
    tot = np.zeros(n)
    np.add.at(tot, ids, e)
    return e / tot[ids]


def _outputs(net: Net, x: np.ndarray, chunk: int = 65536) -> np.ndarray:
    """``net.forward(x)[1]`` a chunk of rows at a time: the hidden layers of a million rows at
    once would need tens of GB."""
    return np.concatenate([net.forward(x[k:k + chunk])[1] for k in range(0, len(x), chunk)])


def _encode(net: Net, boards: np.ndarray, offs: np.ndarray, chunk: int = 65536) -> np.ndarray:
    """The net's input rows of ``boards``, a chunk of rows at a time: the features' intermediate
    arrays for a million boards at once took some 10 GB more than the rows themselves."""
    return np.concatenate([encode(net.variant, boards[k:k + chunk], offs[k:k + chunk], net.encoding)
                           for k in range(0, len(boards), chunk)])


def _mover(y: np.ndarray, sign: np.ndarray) -> np.ndarray:
    """The mover's equity of each candidate from the net's outputs ``y``: ``sign`` is 1 where they
    are the opponent's (it rolls next), -1 where they are the mover's own (it rolls again)."""
    return -sign * equity(y)


def _report(net: Net, x: np.ndarray, ids: np.ndarray, teacher: np.ndarray, decisions: np.ndarray,
            sign: np.ndarray) -> tuple[float, float]:
    """Agreement with the teacher's best and the teacher's equity lost, over ``decisions``."""
    rows = np.flatnonzero(np.isin(ids, decisions))
    e = _mover(_outputs(net, x[rows]), sign[rows])
    agree = lost = 0.0
    sub = ids[rows]
    for d in decisions:
        r = np.flatnonzero(sub == d)
        pick = r[np.argmax(e[r])]
        t = teacher[rows[r]]
        agree += float(teacher[rows[pick]] >= t.max() - 1e-12)
        lost += float(t.max() - teacher[rows[pick]])
    return agree / len(decisions), lost / len(decisions)


def fit_ranking(net: Net, x: np.ndarray, ids: np.ndarray, teacher: np.ndarray, *, tau: float, anchor: float,
                lr: float, epochs: int, batch: int = 64, seed: int = 1, sign: np.ndarray | None = None,
                value: float = 0.0, weight: np.ndarray | None = None) -> tuple[Net, dict[str, float]]:
    """A copy of ``net`` fitted to the teacher's ranking (see the module's text); ``sign`` as in
    :func:`_mover` (default: the opponent rolls next after every candidate); ``value`` weighs a
    squared error of each candidate's equity against the teacher's, summed over a decision's
    candidates like the ranking's cross-entropy; ``weight`` (one a decision, default 1) weighs
    each decision's ranking and value terms."""
    sign = np.ones(len(ids)) if sign is None else sign
    weights = EQUITY_WEIGHTS[net.w2.shape[0]]
    n_dec = int(ids.max()) + 1
    rng = np.random.default_rng(seed)
    order = rng.permutation(n_dec)
    k = max(1, n_dec // 10)  # at least one decision held out
    hold, train = np.sort(order[:k]), order[k:]
    out = net.copy()
    y0 = _outputs(net, x)
    q_all = _softmax_by(teacher / tau, ids, n_dec)
    assert np.all(np.diff(ids) >= 0), "rows sorted by decision"
    starts = np.searchsorted(ids, np.arange(n_dec + 1))
    before = _report(out, x, ids, teacher, hold, sign)
    some = np.sort(train[: len(hold)])  # as many training decisions, to see the fit where it learnt
    before_train = _report(out, x, ids, teacher, some, sign)
    two = out.wh is not None
    mask = out.layer2_mask()  # a joined net's second layer stays block-diagonal (zeros between its members)
    w = [out.w1, out.b1, *((out.wh, out.bh) if two else ()), out.w2, out.b2]
    m = [np.zeros_like(a) for a in w]
    v = [np.zeros_like(a) for a in w]
    step = 0
    total = epochs * ((len(train) + batch - 1) // batch)
    for _ in range(epochs):
        rng.shuffle(train)
        for k in range(0, len(train), batch):
            decs = train[k:k + batch]
            rows = np.concatenate([np.arange(starts[d], starts[d + 1]) for d in decs])
            local = np.repeat(np.arange(len(decs)), [starts[d + 1] - starts[d] for d in decs])
            xb = x[rows]
            h1 = _sigmoid(xb @ out.w1.T + out.b1)
            h = _sigmoid(h1 @ out.wh.T + out.bh) if two else h1
            y = _sigmoid(h @ out.w2.T + out.b2)
            e_mover = _mover(y, sign[rows])
            p = _softmax_by(e_mover / tau, local, len(decs))
            de = (p - q_all[rows]) / tau / len(decs)  # d loss / d mover's equity
            if value:
                de = de + value * (e_mover - teacher[rows]) / len(decs)
            if weight is not None:
                de = de * weight[ids[rows]]
            dy = -(de * sign[rows])[:, None] * weights[None, :] + anchor * (y - y0[rows]) / len(rows)
            dz2 = dy * y * (1.0 - y)
            dzh = (dz2 @ out.w2) * h * (1.0 - h)
            if two:  # back through the second hidden layer to the first
                dz1 = (dzh @ out.wh) * h1 * (1.0 - h1)
                grads: tuple[np.ndarray, ...] = (dz1.T @ xb, dz1.sum(axis=0), (dzh.T @ h1) * mask, dzh.sum(axis=0),
                                                 dz2.T @ h, dz2.sum(axis=0))
            else:
                grads = (dzh.T @ xb, dzh.sum(axis=0), dz2.T @ h, dz2.sum(axis=0))
            step += 1
            rate = lr * 0.5 * (1.0 + np.cos(np.pi * step / total)) + lr / 100
            adam_step(w, grads, m, v, step, rate)
    after = _report(out, x, ids, teacher, hold, sign)
    after_train = _report(out, x, ids, teacher, some, sign)
    drift = float(np.abs(_outputs(out, x) - y0).mean())
    return out, {"decisions": n_dec, "held_out": len(hold), "agree_before": before[0], "agree_after": after[0],
                 "lost_before": before[1], "lost_after": after[1], "output_drift": drift,
                 "train_lost_before": before_train[1], "train_lost_after": after_train[1]}


def load_labels(paths: list[str]) -> dict[str, np.ndarray]:
    """The rows of one or more label files, in the order given (``same`` False where a file has
    none). Their chunks' seeds must differ, since a decision is known by its chunk's seed."""
    parts = [np.load(p) for p in paths]
    seen: dict[int, str] = {}
    for p, d in zip(paths, parts, strict=True):
        for s in np.unique(d["seeds"]).tolist():
            if s in seen:
                raise ValueError(f"{p!r} and {seen[s]!r} both hold chunk seed {s}: their decisions would mix")
            seen[s] = p
    keys = ("boards", "offs", "group", "teacher", "seeds")
    d = {k: np.concatenate([q[k] for q in parts]) for k in keys}
    d["same"] = np.concatenate([q["same"] if "same" in q.files else np.zeros(len(q["group"]), bool) for q in parts])
    d["kind"] = np.concatenate([q["kind"] if "kind" in q.files else np.full(len(q["group"]), -1, np.int8)
                                for q in parts])
    return d


def fit(out: str, paths: list[str], tau: float, anchor: float, lr: float, epochs: int,
        variant: str = "standard", start: str | None = None, value: float = 0.0, crashed: float = 1.0,
        only: str | None = None) -> None:
    net = load_net(start) if start else _net(variant)
    d = load_labels(paths)
    if only is not None:
        keep = d["kind"] == KINDS[only]
        if only == "crashed":  # rows of unknown class: a crashed position's plays all reach crashed boards
            dec = _decisions(d["seeds"], d["group"])
            every = np.ones(int(dec.max()) + 1, bool)
            np.logical_and.at(every, dec, crashed_boards(d["boards"]))
            keep |= (d["kind"] == -1) & every[dec]
        if not keep.any():
            raise ValueError(f"no decisions from {only} positions in {' '.join(paths)!r}")
        n_all = len(np.unique(_decisions(d["seeds"], d["group"])))
        d = {k: a[keep] for k, a in d.items()}
        print(f"{len(np.unique(_decisions(d['seeds'], d['group'])))} of {n_all} decisions from {only} positions kept")
    ids = _decisions(d["seeds"], d["group"])
    order = np.argsort(ids, kind="stable")
    x = _encode(net, d["boards"][order], d["offs"][order])
    weight = None
    if crashed != 1.0:
        weight = np.ones(int(ids.max()) + 1)
        weight[np.unique(ids[crashed_boards(d["boards"])])] = crashed
        print(f"{int((weight != 1).sum())} of {len(weight)} decisions crashed, weighed {crashed}")
    t = time.process_time()
    whole = net
    if only == "crashed":  # fit the net's crashed net (the net itself, bare, when it has none)
        net = net.crashed if net.crashed is not None else net.with_race(None)
    elif only == "race":  # fit the net's race net
        if net.race is None:
            raise ValueError(f"{start or 'the shipped net'!r} has no race net to fit")
        net = net.race
    fitted, stats = fit_ranking(net, x, ids[order], d["teacher"][order], tau=tau, anchor=anchor, lr=lr,
                                epochs=epochs, sign=np.where(d["same"][order], -1.0, 1.0), value=value,
                                weight=weight)
    fitted.meta["rank_fit"] = {"labels": " ".join(os.path.basename(p) for p in paths), "tau": tau,
                               "anchor": anchor, **({"value": value} if value else {}),
                               **({"crashed": crashed} if crashed != 1.0 else {}),
                               **({"only": only} if only else {}), "lr": lr, "epochs": epochs, **{k: round(v, 6) for k, v in stats.items()}}
    # every fit the net has had, oldest first (a fit of a fitted net keeps the record of the last)
    before = net.meta.get("rank_fits") or ([net.meta["rank_fit"]] if "rank_fit" in net.meta else [])
    fitted.meta["rank_fits"] = [*before, fitted.meta["rank_fit"]]
    if only == "crashed":
        fitted = whole.with_crashed(fitted.with_prune(None))
    elif only == "race":
        fitted = whole.with_race(fitted)
    fitted.save(out)
    print(out, {k: round(v, 5) for k, v in stats.items()}, f"{time.process_time() - t:.0f} s CPU")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=("label", "merge", "fit"))
    ap.add_argument("args", nargs="+")
    ap.add_argument("--size", type=int, default=500)
    ap.add_argument("--ply", type=int, choices=(0, 1, 2), default=2,
                    help="the teacher's look-ahead (0: the teacher net's own values, to distil a net such as an ensemble)")
    ap.add_argument("--dir", default="artifacts/rank")
    ap.add_argument("--tau", type=float, default=0.01)
    ap.add_argument("--anchor", type=float, default=1.0)
    ap.add_argument("--value", type=float, default=0.0,
                    help="weight of the squared error of each candidate's equity against the teacher's (fit)")
    ap.add_argument("--crashed", type=float, default=1.0,
                    help="weight of the decisions with a crashed candidate against the others' 1 (fit)")
    ap.add_argument("--lr", type=float, default=0.0001)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--variant", choices=("standard", "mexican"), default="standard")
    ap.add_argument("--only", choices=tuple(KINDS),
                    help="label (label) or fit (fit) only the decisions from positions of this class; "
                         "fit crashed or race into the net's crashed or race net")
    ap.add_argument("--net", help="label with (or fit) this net file instead of the variant's shipped net")
    a = ap.parse_args(argv)
    try:
        if a.kind == "label":
            label(int(a.args[0]), int(a.args[1]), a.size, a.dir, a.ply, a.variant, a.net, a.only)
        elif a.kind == "merge":
            merge(a.args[0], a.dir, a.ply)
        else:
            if len(a.args) < 2:
                raise ValueError("fit needs OUT.npz and at least one LABELS.npz")
            fit(a.args[0], a.args[1:], a.tau, a.anchor, a.lr, a.epochs, a.variant, a.net, a.value, a.crashed,
                a.only)
    except (ValueError, OSError) as e:
        print(f"rank_labels: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
