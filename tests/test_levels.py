"""The levels of play (backgammon_lab.analysis.levels): one table, whole games at every level,
deterministic for a seed, the champion the default hint's player, play() and the widget's menu."""

from __future__ import annotations

import random
import statistics

import pytest

import backgammon_lab
from backgammon_lab import find_variant
from backgammon_lab.analysis.bots import HeuristicBot
from backgammon_lab.analysis.hints import hint, opening_hint
from backgammon_lab.analysis.levels import (
    LEVELS,
    STRONGEST,
    Level,
    LevelBot,
    _noise,
    find_level,
    level_names,
    levels_for,
)
from backgammon_lab.analysis.nets import play_board
from backgammon_lab.analysis.rollout import play_out, sample_positions
from backgammon_lab.engine import Phase, dice_state, start_state
from backgammon_lab.errors import AnalysisError, GameError
from backgammon_lab.game import Game
from backgammon_lab.position import BLACK, WHITE, Roll
from backgammon_lab.widgets import GameWidget

VARIANTS = ("standard", "mexican", "minigam")


def test_one_table_weakest_first_the_champion_on_top() -> None:
    names = [lv.name for lv in LEVELS]
    assert len(set(names)) == len(names) and STRONGEST == names[-1] == "champion"
    assert LEVELS[-1].ply is None  # the default hint's player
    for v in VARIANTS:
        levels = levels_for(v)
        assert len(levels) >= 3 and levels[-1].name == STRONGEST
        noise = [lv.noise_for(v) for lv in levels if lv.ply is not None]
        assert noise == sorted(noise, reverse=True) and len(set(noise)) == len(noise)  # less noise, stronger
        assert all(lv.words and lv.title for lv in levels)
    assert level_names("minigam") == [lv.name for lv in levels_for(find_variant("minigam"))]


def test_levels_are_found_by_name_and_bad_names_are_refused() -> None:
    assert find_level("Beginner").name == "beginner" and find_level(" champion ") is LEVELS[-1]
    for bad in ("grandmaster", 3, None, ""):
        with pytest.raises(AnalysisError, match="no level"):
            find_level(bad)
    missing = next(lv for lv in LEVELS if not lv.offered("minigam"))
    with pytest.raises(AnalysisError, match="has no level"):
        missing.noise_for("minigam")
    with pytest.raises(AnalysisError, match="seed"):
        LevelBot("beginner", seed="3")  # type: ignore[arg-type]


def test_noise_is_a_function_of_seed_and_board_and_is_standard_normal() -> None:
    board = (0, 2, 0, -1, 5)
    assert _noise(3, board) == _noise(3, board)
    assert _noise(3, board) != _noise(4, board) and _noise(3, board) != _noise(3, board, salt=1)
    draws = [_noise(0, (i,)) for i in range(4000)]
    assert abs(statistics.mean(draws)) < 0.06 and abs(statistics.stdev(draws) - 1.0) < 0.05


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_level_plays_whole_games(variant: str) -> None:
    """Each level of the variant plays a whole game (against the next weaker; the weakest against
    HeuristicBot), to its end."""
    v = find_variant(variant)
    levels = levels_for(v)
    for i, lv in enumerate(levels):
        opp = LevelBot(levels[i - 1], 5) if i else HeuristicBot()
        end = play_out(start_state(v), {WHITE: LevelBot(lv, 4), BLACK: opp}, random.Random(11 + i))
        assert end.phase is Phase.OVER and end.winner in (WHITE, BLACK)


def test_play_opens_a_game_against_the_weakest_level_and_it_plays_to_the_end() -> None:
    weakest = levels_for("mexican")[0].name
    gw = backgammon_lab.play("mexican", seed=2, opponent=weakest)
    assert gw.opponent == weakest and isinstance(gw.bot, LevelBot) and gw.bot.level.name == weakest
    me = LevelBot(weakest, seed=8)
    for _ in range(3000):
        g = gw.game
        if g.phase is Phase.OVER:
            break
        if g.phase in (Phase.OPENING, Phase.ROLL):
            gw.roll_button.click()
        else:
            action = me.choose(g)
            assert gw._act(lambda a=action, g=g: g.apply(a))
    assert gw.game.phase is Phase.OVER


def _record(seed: int, bot_seed: int, level: str = "casual", variant: str = "standard") -> dict[str, object]:
    g = Game(variant, seed=seed)
    bots = {WHITE: LevelBot(level, bot_seed), BLACK: LevelBot(level, bot_seed + 1)}
    g.play_on(lambda st: bots[st.player].choose(g))
    return g.record()


def test_a_level_is_deterministic_for_a_seed() -> None:
    assert _record(1, 10) == _record(1, 10)
    assert _record(1, 10) != _record(1, 20)  # other noise, other choices (same dice)
    bot = LevelBot("beginner", 7)
    assert repr(bot) == "LevelBot('beginner', seed=7)" and repr(bot.seeded(9)) == "LevelBot('beginner', seed=9)"


def test_the_champion_plays_the_default_hints_choice() -> None:
    champion = LevelBot(STRONGEST)
    v = find_variant("mexican")
    for pos in [p for p in sample_positions(v, 12, HeuristicBot(), seed=4) if not p.is_over][:6]:
        st = dice_state(pos, Roll(5, 3))
        if st.phase is not Phase.PLAY:
            continue
        assert play_board(champion.choose_play(st, st.plays)) == play_board(hint(pos, (5, 3)).best.play)
    for dice in ((5, 3), (2, 1), (6, 4)):
        g = Game("mexican", seed=1).roll(dice)  # White wins the opening with these dice
        assert g.phase is Phase.CHOICE
        assert champion.keep_or_reroll(g) == opening_hint(g).best.option


def test_noise_weakens_a_level_against_its_expert_self_on_the_same_dice() -> None:
    """The beginner makes plays the expert would not: on 40 standard decisions it differs often."""
    v = find_variant("standard")
    beginner, expert = LevelBot("beginner", 1), LevelBot("expert", 1)
    differ = total = 0
    for pos in [p for p in sample_positions(v, 60, HeuristicBot(), seed=2) if not p.is_over][:40]:
        st = dice_state(pos, Roll(6, 2))
        if st.phase is not Phase.PLAY or len(st.plays) < 2:
            continue
        total += 1
        differ += play_board(beginner.choose_play(st, st.plays)) != play_board(expert.choose_play(st, st.plays))
    assert total >= 20 and differ >= total // 4


def test_the_widget_menu_offers_the_variants_levels_and_follows_the_variant() -> None:
    gw = GameWidget("standard", seed=3, opponent="expert")
    values = [v for _, v in gw.opponent_choice.options]
    assert values == ["human", "random", *level_names("standard")]
    labels = [label for label, _ in gw.opponent_choice.options]
    assert labels[2] == f"{LEVELS[0].title} (level 1 of {len(levels_for('standard'))})"
    gw.opponent_choice.value = "beginner"
    assert isinstance(gw.bot, LevelBot) and gw.bot.level.name == "beginner"
    gw.opponent_choice.value = "expert"
    gw.variant_choice.value = "minigam"  # Mini-Gam has no expert: the next stronger level it has
    assert [v for _, v in gw.opponent_choice.options] == ["human", "random", *level_names("minigam")]
    assert gw.opponent == STRONGEST and gw.bot.level.name == STRONGEST
    with pytest.raises(GameError, match="has no level 'expert'"):
        GameWidget("minigam", opponent="expert")
    with pytest.raises(GameError, match="not 'grandmaster'"):
        backgammon_lab.play("mexican", opponent="grandmaster")


def test_a_level_bot_pickles_and_plays_the_same() -> None:
    import pickle

    bot = LevelBot("casual", 5)
    copy = pickle.loads(pickle.dumps(bot))
    assert repr(copy) == repr(bot) and isinstance(copy.level, Level)
