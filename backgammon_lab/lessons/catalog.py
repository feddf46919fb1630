"""The course: every exercise, in stages, from easy to tricky.

Each stage practises one rule row (``S1``-``S4`` for the standard basics, ``M1``-``M11`` for
Mexican Backgammon, ``G1``-``G8`` for Mini-Gam, as in ``docs/lessons.md``) or mixes them in a
review. Only the task and the lesson are written here: every answer is the engine's
(:func:`backgammon_lab.lessons.solve`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .exercises import Exercise, LessonError
from .rows import ROW_TITLES

__all__ = ["Stage", "STAGES", "EXERCISES", "ROW_TITLES", "stage", "exercise", "stages_of", "VARIANT_STAGES",
           "course_table"]


@dataclass(frozen=True)
class Stage:
    """A group of exercises on one rule row (or a review): ``id`` (``"M4"``), a title, the
    variant, the rows it covers and the exercises in order."""

    id: str
    title: str
    variant: str
    rows: tuple[str, ...]
    exercises: tuple[Exercise, ...]

    def __len__(self) -> int:
        return len(self.exercises)


def _ex(id: str, kind: str, position: str, dice: str | None, goal: str, text: str = "", **kw: Any) -> Exercise:
    row = id.split(".")[0].upper()
    rows = kw.pop("rows", (row,))
    return Exercise(id, kind, position, dice, goal, text, rows=tuple(rows), **kw)


START = "24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"
STD = f"standard/w/{START}"
MEX = f"mexican/w/{START}"
FAR = "13x5,8x5,7x5"  # Black's checkers far from White's home board


_S = [
    # S1 moving
    _ex("s1.1", "play", STD, "3-1", "Play 3-1 from the start: click a checker, then where it goes.",
        "Each die is a move of its own; one checker may take both."),
    _ex("s1.2", "spot", STD, "6-5", "One step of 24/19 13/7 breaks a rule. Click it, then say why.",
        "A point held by two or more opposing checkers is closed.", proposal="24/19 13/7"),
    _ex("s1.3", "count", STD, "6-5", "How many different plays does 6-5 allow from the start?",
        "Plays that end in the same position count once.", level=2),
    _ex("s1.4", "play", "standard/w/24,6x5,5x5,4x4/24x2,13x5,12x2,9x3,8x3", "6-5",
        "Only one die can be played here. Play what the rules allow.",
        "When only one die can be played, it must be the larger one.", target="only", trap="24/19", level=3),
    # S2 hitting
    _ex("s2.1", "play", "standard/w/24x2,13x5,8x3,6x5/24x2,20,15x2,13x5,8x3,6x2", "4-3",
        "Black has a single checker (a blot) on your 5-point. Play 4-3 so that you hit it.",
        "Landing on a blot sends it to the bar.", target="hit"),
    _ex("s2.2", "play", "standard/w/24x2,13x5,8x3,6x5/24x2,18,13x5,8x3,6x4", "6-1",
        "Hit the blot on your 7-point.", "A blot can be hit with one die or with both.", target="hit",
        level=2),
    _ex("s2.3", "land", "standard/w/24x2,13x5,8x3,6x5/24x2,22,13x5,8x3,6x4", "5-3",
        "Click the point where White's checker on point 8 lands with the 5.",
        "Count the 5 from point 8 towards point 1.", start=8, die=5, level=1),
    # S3 entering
    _ex("s3.1", "play", "standard/w/bar,24,13x5,8x3,6x5/13x5,8x3,6x5,3x2", "6-4",
        "White has a checker on the bar. Play 6-4.", "A checker on the bar enters first.",
        target="enter", trap="13/7"),
    _ex("s3.2", "land", "standard/w/bar,24,13x5,8x3,6x5/13x5,8x3,6x5,3x2", "6-4",
        "Click the point where the checker on the bar enters with the 4.",
        "With a 4 a checker enters on point 21: the 4th point from the entry side.", start=25, die=4),
    _ex("s3.3", "lost", "standard/w/bar,24,13x5,8x3,6x5/13x5,8x3,6x3,5x2,4x2", "6-5",
        "White has a checker on the bar and rolls 6-5. Will White lose the turn?",
        "No other checker may move while one waits on the bar.", level=2),
    # S4 bearing off
    _ex("s4.1", "play", "standard/w/5x2,3/24x2,13x5,8x3,6x5", "6-1", "All White's checkers are home. Bear off.",
        "A larger die bears off from the highest point.", target="bear_off"),
    _ex("s4.2", "bearoff", "standard/w/7,5x2,3/24x2,13x5,8x3,6x5", "6-1",
        "One checker is still on point 7. Can White bear a checker off with 6-1?",
        "Bear-off starts the moment the last checker is home, even in the middle of a roll.", level=3),
    _ex("s4.3", "count", "standard/w/5x2,3/24x2,13x5,8x3,6x5", "6-1",
        "How many different plays does 6-1 allow here?", "Both dice must be used when they can be.", level=2),
    # review
    _ex("s.r1", "play", "standard/w/bar,24,13x5,8x3,6x5/13x5,8x3,6x4,3x2,20", "3-2",
        "Enter and hit: find a play that hits the blot on your 5-point.", "Enter first; then any checker may move.",
        target="hit", rows=("S2", "S3"), level=2),
    _ex("s.r2", "moves", "standard/w/24x2,13,6x5,5x5,4x2/24x2,13x5,8x3,7x2,6x3", "6-6",
        "How many of the four 6s can White play?", "As many of the four moves as the points allow.",
        rows=("S1",), level=2),
    _ex("s.r3", "play", f"standard/w/2,1/{FAR}", "2-1", "Win the game.",
        "The last checker off ends the game.", target="win", rows=("S4",)),
    _ex("s.r4", "worth", "standard/w/3/24x2,13x5,8x3,6x5", None,
        "White bore off its last checker; Black has borne off none and still has two in White's home "
        "board. How many points does White win?",
        "A gammon (no checker off) is worth 2; a backgammon (also a checker in the winner's home board or "
        "on the bar) is worth 3.", before=("2-1", "3/2/off"), rows=("S4",), level=3),
]

_M = [
    # M1 set-up
    _ex("m1.1", "land", MEX, "4-2", "The set-up is the standard one. Click where the checker on point 24 "
        "lands with the 2.", "White's back checkers start on point 24, Black's on White's point 1.", start=24, die=2),
    _ex("m1.2", "count", MEX, "6-5", "How many plays does 6-5 allow from the start?",
        "Fewer than in standard backgammon: the 5 is played first.", level=2),
    _ex("m1.3", "spot", MEX, "4-1", "One step of 24/20 8/7 breaks a rule. Click it, then say why.",
        "White's 20-point is Black's 5-point, which Black does not hold at the start; the order of the "
        "dice is what matters here.", proposal="24/20 8/7", level=2),
    # M2 the opening choice
    _ex("m2.1", "play", "mexican", None, "The opening: White rolls 3, Black 1, and White keeps the dice. "
        "Play them.", "Kept opening dice are played like any roll: lower die first.", opening=True,
        before=("3-1", "keep"), trap="8/5"),
    _ex("m2.2", "play", "mexican", None, "White won the opening with 2-1 and kept it: a Mexican. Play it.",
        "Kept opening dice of 2 and 1 are a Mexican: play the 1, then the 2, then name doubles.",
        opening=True, before=("2-1", "keep"), trap="13/11", level=2),
    _ex("m2.3", "count", "mexican", None, "White won the opening with 5-3 and rolled both dice again: 6-6. "
        "How many different plays are there?", "A re-roll is played like any roll.", opening=True,
        before=("5-3", "reroll", "6-6"), level=3),
    _ex("m2.4", "choose", "mexican", "2-1", "The opening: White rolls 2, Black rolls 1, so White goes first. "
        "White wants to play a Mexican this turn. Keep the dice, or roll both again?",
        "The winner of the opening decides: the two opening dice, or a new roll.", opening=True,
        before=("2-1",), trap="reroll", level=1),
    # M3 lower die first
    _ex("m3.1", "play", MEX, "5-2", "Play 5-2 from the start.", "The 2 comes first, then the 5.", trap="13/8"),
    _ex("m3.2", "spot", MEX, "5-2", "One step of 13/8 24/22 breaks a rule. Click it, then say why.",
        "The lower die is always played first.", proposal="13/8 24/22"),
    _ex("m3.3", "lost", "mexican/w/13x5,8x5,7x5/24x2,20x2,19x2,14x2,13x5,6x2", "6-2",
        "White rolls 6-2. Will White lose the turn?",
        "If the lower die cannot be played the turn ends, even when the higher could be.", level=2),
    _ex("m3.4", "lost", "mexican/w/13x5,8x5,7x5/24x2,20x2,19x2,14x2,13x5,6x2", "6-3",
        "Same position, now 6-3. Will White lose the turn?", "Only the lower die decides whether the turn "
        "starts.", level=3),
    # M4 as much of the roll as possible
    _ex("m4.1", "play", "mexican/w/13,3x5,2x5,1x4/18x2,16x5,8x3,6x5", "6-1",
        "Play 6-1. Careful: one 1 would leave the 6 without a move.",
        "You must choose a lower-die move after which the higher die can be played.", target="only",
        trap="2/1", level=3, interpretation="M4"),
    _ex("m4.2", "moves", "mexican/w/24x2,13,6x5,5x5,4x2/24x2,13x5,8x3,7x2,6x3", "6-6",
        "How many of the four 6s can White play?", "Doubles are played as many times as possible.", level=2),
    _ex("m4.3", "count", "mexican/w/13,3x5,2x5,1x4/18x2,16x5,8x3,6x5", "6-1",
        "How many legal plays does 6-1 have here?", "2/1 and 3/2 are out: one leaves the 6 unplayable, "
        "the other puts a sixth checker on a point.", level=2, interpretation="M4"),
    # M5 combined moves
    _ex("m5.1", "spot", "mexican/w/13x3,11,6x4,4x3,3x4/24x2,15x2,13x3,8x3,6x5", "5-3",
        "One checker tries 13/10/5. Which step breaks a rule, and why?",
        "A checker using both dice stops on the point between: it must be open.", proposal="13/10/5", level=2),
    _ex("m5.2", "play", "mexican/w/13x3,11,6x4,4x3,3x4/24x2,15x2,13x3,8x3,6x5", "5-3", "Play 5-3.",
        "The 3 first; the intermediate point must be open.", trap="13/10"),
    _ex("m5.3", "count", "mexican/w/13x3,11,6x4,4x3,3x4/24x2,15x2,13x3,8x3,6x5", "5-3",
        "How many plays does 5-3 allow?", "Each combined move goes through the lower die's point.", level=3),
    # M6 the cap
    _ex("m6.1", "play", "mexican/w/13x3,8x5,7x2,6x5/24x2,13x5,8x3,6x5", "2-1",
        "White has five checkers on points 8 and 6. Play 2-1.", "No point may hold six checkers of one player.",
        trap="7/6"),
    _ex("m6.2", "count", "mexican/w/13x3,8x5,7x2,6x5/24x2,13x5,8x3,6x5", "2-1",
        "How many plays does 2-1 allow here?", "The cap removes every play that makes a sixth checker.", level=2),
    _ex("m6.3", "lost", "mexican/w/bar,24x5,13x4,6x5/24x2,13x5,8x3,6x5", "2-1",
        "White has a checker on the bar and rolls 2-1. Will White lose the turn?",
        "The cap holds for entering too.", level=3),
    # M7 doubles and rolling again
    _ex("m7.1", "play", "mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x3,4x2", "3-3",
        "Play 3-3: four moves of 3.", "Doubles are four moves, and each may take any checker.", trap="24/21"),
    _ex("m7.2", "moves", f"mexican/w/6,5x2,3x2/{FAR}", "6-6",
        "After 1-1 and 2-2 were played in full, White rolls 6-6. How many of the four 6s can White play?",
        "When not all four can be played the rest is lost and there is no re-roll.",
        before=("1-1", "3/2(2) 2/1(2)", "2-2", "5/3(2) 3/1(2)"), level=3),
    _ex("m7.3", "spot", MEX, "4-4", "One step of 24/20/16/12 13/9 breaks a rule. Click it, then say why.",
        "Each of the four moves of doubles is a step of its own.", proposal="24/20/16/12 13/9", level=2),
    # M8 the Mexican
    _ex("m8.1", "play", MEX, "2-1", "A Mexican from the start. Play the 1 and the 2.",
        "The 1 comes first, then the 2; doubles are named only when both could be played.", trap="13/11"),
    _ex("m8.2", "name", "mexican/w/5x5,3x4,1x4/bar,23x3,13x3,10,6x4,5,4x2", None,
        "White played the Mexican 5/4 5/3. Which doubles would you name to play all four moves?",
        "Named doubles that cannot all be played lose the rest, and the re-roll.",
        before=("2-1", "5/4 5/3"), level=2, trap=6),
    _ex("m8.3", "moves", "mexican/w/13x5,8x5,7x5/24x2,20x2,19x2,15x2,14x2,6x5", "2-1",
        "A Mexican, but Black blocks many points. How many of the two dice can White play?",
        "If the 2 cannot be played there is no naming and no re-roll.", level=2),
    _ex("m8.4", "play", MEX, None, "White played a Mexican, named 3-3, played all four and rolled again: "
        "1-2 once more. Play it.", "A re-rolled 1-2 is another Mexican: White names doubles again.",
        before=("2-1", "24/23 13/11", 3, "13/10(2) 24/21 23/20", "2-1"), level=3),
    # M9 entering
    _ex("m9.1", "play", "mexican/w/bar,24x2,13x4,8x3,6x5/13x5,8x3,6x5,2x2", "4-3", "Enter the checker from the bar.",
        "The bar comes first, and the lower die first too.", target="enter", trap="13/10"),
    _ex("m9.2", "lost", "mexican/w/bar,24x2,13x4,8x3,6x5/13x5,8x3,6x5,2x2", "5-2",
        "White has a checker on the bar and rolls 5-2. Will White lose the turn?",
        "The first die that cannot enter ends the turn.", level=2),
    _ex("m9.3", "spot", "mexican/w/bar,24x2,13x4,8x3,6x5/13x5,8x3,6x5,2x2", "4-3",
        "One step of bar/21 21/18 breaks a rule. Click it, then say why.",
        "Entering follows the lower-die rule.", proposal="bar/21 21/18", level=2),
    _ex("m9.4", "play", "mexican/w/barx2,24,13x4,8x3,6x5/13x5,8x3,6x5,3x2", "3-1",
        "Two checkers on the bar and 3-1. Enter what the rules allow.",
        "Each die in order enters a checker; the first die that cannot enter ends the turn, and the other "
        "checker stays on the bar.", target="only", trap="bar/22", level=3),
    # M10 exact bear-off
    _ex("m10.1", "play", "mexican/w/6,4x2,3x2/23x2,13x5,8x3,6x5", "5-1", "Bear a checker off with 5-1.",
        "A checker on point p bears off only with a p.", target="bear_off"),
    _ex("m10.2", "bearoff", "mexican/w/4,2x3,1/13x5,8x5,7x5", "6-3",
        "Can White bear a checker off with 6-3?", "A 6 never bears off from a lower point.", level=2),
    _ex("m10.3", "count", "mexican/w/6,4/1x2", "4-1", "Two checkers left, 4-1 to play. How many different plays?",
        "A die that bears nothing off may move a checker instead: the player chooses.", level=3,
        interpretation="M10"),
    _ex("m10.4", "play", "mexican/w/6,4/1x2", "4-1", "Play 4-1 without bearing a checker off.",
        "Bearing off is allowed, not required, when another move exists.", target="no_bear_off", level=3,
        interpretation="M10"),
    _ex("m10.5", "bearoff", "mexican/w/8,5x2,3x2/23x2,13x5,8x3,6x5", "3-2",
        "One checker is still on point 8. Can White bear a checker off with 3-2?",
        "The lower die can bring the last checker home; then the higher may bear off.", level=3),
    _ex("m10.6", "bearoff", "mexican/w/bar,5x2,3x3/13x5,8x5,7x5", "3-2",
        "White's checker was hit during the bear-off. Can White bear a checker off with 3-2?",
        "A hit checker must come home again before bearing off goes on.", level=3),
    # M11 winning
    _ex("m11.1", "play", f"mexican/w/2,1/{FAR}", "2-1", "Win the game.",
        "One point: no gammons in Mexican Backgammon.", target="win"),
    _ex("m11.2", "play", "mexican/w/21,3/3x5,2x5,1x5", "3-3",
        "White played 3-3 in full (21/9) and rolled 3-3 again. Win.",
        "The game ends the moment the last checker is off, even inside a chain of re-rolls.",
        before=("3-3", "21/9"), target="win", trap="3/off", level=3),
    _ex("m11.3", "play", f"mexican/w/3/{FAR}", "2-1", "A Mexican with one checker left. Win.",
        "The game ends at once: no doubles are named.", target="win", trap="3/1", level=2),
    _ex("m11.4", "worth", "mexican/w/3/24x2,13x5,8x3,6x5", None,
        "White bore off its last checker; Black has borne off none and still has two in White's home "
        "board. How many points does White win?",
        "One point, always: Mexican Backgammon has no gammons and no backgammons.",
        before=("2-1", "3/2/off"), level=2),
    # review
    _ex("m.r1", "lost", "mexican/w/bar,24x2,13x4,8x3,6x5/13x5,8x3,6x5,2x2", "4-2",
        "A checker on the bar and 4-2. Will White lose the turn?", "Lower die first, on entering too.",
        rows=("M3", "M9"), level=2),
    _ex("m.r2", "play", "mexican/w/24x2,13x5,8x3,6x5/24x2,20,15x2,13x5,8x3,6x2", "4-3",
        "Hit the blot on your 5-point.", "The 3 first: 8/5* hits.", target="hit", rows=("M3",)),
    _ex("m.r3", "spot", "mexican/w/6,4x2,3x2/23x2,13x5,8x3,6x5", "5-1",
        "One step of 4/off 4/3 breaks a rule. Click it, then say why.",
        "Exact bear-off and the lower die first, together.", proposal="4/off 4/3", rows=("M3", "M10"), level=2),
    _ex("m.r4", "name", "mexican/w/5x5,3x4,1x4/bar,23x3,13x3,10,6x4,5,4x2", None,
        "White played the Mexican 1/off 3/1. Which doubles would you name to play all four moves?",
        "Each number is a different problem: try them one by one.", before=("2-1", "1/off 3/1"),
        rows=("M8", "M10"), level=3),
]

_G = [
    # G1 opposite directions
    _ex("g1.1", "land", "minigam/w/5,4,barx6/5,barx7", "3-1", "Click where White's checker on point 5 lands "
        "with the 3.", "White moves towards its point 1.", start=5, die=3),
    _ex("g1.2", "land", "minigam/b/5,4,barx6/5,barx7", "3-1", "Black to play. Click where Black's checker on "
        "its point 5 lands with the 3.", "Black counts its own points 1-6 from its exit: the other way round.",
        start=5, die=3, level=2),
    _ex("g1.3", "play", "minigam/b/5,4,barx6/5x2,barx6", "3-1", "Black to play 3-1. Move Black's checkers.",
        "Each player moves towards its own exit.", level=2),
    # G2 all on the bar
    _ex("g2.1", "play", "minigam/w/barx8/barx8", "3-1", "Every checker starts on the bar. Play 3-1.",
        "Both dice enter checkers, or one checker enters and moves on."),
    _ex("g2.2", "count", "minigam/w/barx8/barx8", "4-1", "How many different plays does 4-1 allow at the start?",
        "Each play counts once, by where the checkers end up.", level=2),
    _ex("g2.3", "land", "minigam/w/barx8/barx8", "5-2", "Click where a checker enters with the 2.",
        "With die d a checker enters on its point 7-d.", start=7, die=2),
    # G3 entering
    _ex("g3.1", "play", "minigam/w/barx6,4,2/barx5,4x2,1", "5-1", "Black has a blot. Enter and hit it.",
        "Entering on a blot hits it.", target="hit", level=1),
    _ex("g3.2", "spot", "minigam/w/barx6,4,2/barx5,4,2x2", "4-2", "One step of bar/3 bar/5 breaks a rule. "
        "Click it, then say why.", "A point with two opposing checkers is closed to entering too.",
        proposal="bar/3 bar/5", level=2),
    _ex("g3.3", "land", "minigam/w/barx6,4,2/barx5,4,2x2", "5-3", "Click where a checker from the bar enters "
        "with the 5.", "The 5th point from White's entry side is White's point 2.", start=7, die=5, level=2),
    # G4 free entry
    _ex("g4.1", "play", "minigam/w/barx2,5,3x5/barx8", "2-1", "Checkers wait on the bar. Play 2-1 without "
        "entering any of them.", "Checkers on the bar need not enter first.", target="free_entry", level=2,
        interpretation="G4"),
    _ex("g4.2", "bearoff", "minigam/w/bar,3x7/barx8", "4-3", "One checker on the bar, seven home. Can White "
        "bear a checker off with 4-3?", "Bearing off waits until no checker is on the bar; a checker that "
        "enters first may let it start in the same turn.", level=3),
    _ex("g4.3", "count", "minigam/w/bar,5,3/barx8", "2-1", "How many different plays does 2-1 allow?",
        "Any checker may use any die, the bar's included.", level=3, interpretation="G4"),
    # G5 forced moves
    _ex("g5.1", "play", "minigam/w/bar,5/barx4,4x2,3x2", "4-3", "Only one die can be played. Play what the "
        "rules require.", "If either die but not both can be played, play the larger.", target="only",
        trap="5/2", level=2),
    _ex("g5.2", "spot", "minigam/w/barx6,4,2/barx5,4,2x2", "3-2", "One step of 4/1 bar/5 breaks a rule. "
        "Click it, then say why.", "Both dice must be used when they can be.",
        proposal="4/1 bar/5", level=3),
    _ex("g5.3", "moves", "minigam/w/6x2,5x2/barx4,3x2,4x2", "3-3", "How many of the four 3s can White play?",
        "Doubles: as many of the four moves as possible.", level=2),
    # G6 bearing off
    _ex("g6.1", "play", "minigam/w/4,2,1/barx8", "5-3", "Bear off with 5-3.",
        "A larger die bears off from the highest point.", target="bear_off"),
    _ex("g6.2", "bearoff", "minigam/w/6,4,2/barx8", "5-3", "Point 6 is occupied. Can White bear a checker off "
        "with 5-3?", "After 6/3 the highest point is 4: the 5 bears it off.", level=3),
    _ex("g6.3", "spot", "minigam/w/6,4,2/barx8", "5-3", "One step of 4/off 6/3 breaks a rule. Click it, then "
        "say why.", "A larger die bears off only from the highest occupied point.", proposal="4/off 6/3", level=2),
    # G7 enter and bear off
    _ex("g7.1", "play", "minigam/w/bar,2/barx8", "6-1", "Enter the checker and bear one off in the same turn.",
        "A checker may enter and bear off in the same turn.", target="bear_off", level=2),
    _ex("g7.2", "count", "minigam/w/bar,2/barx8", "6-1", "How many different plays does 6-1 allow?",
        "Entering on point 1, then bearing off: one checker, both dice.", level=2),
    _ex("g7.3", "spot", "minigam/w/bar,2/barx8", "6-1", "One step of 2/off bar/6 breaks a rule. Click it, then "
        "say why.", "Nothing bears off while a checker is on the bar.", proposal="2/off bar/6", level=3),
    # G8 opening, stacking, winning
    _ex("g8.1", "count", "minigam", None, "The opening: White rolls 3, Black 1. White plays both dice at once. "
        "How many different plays?", "No choice to roll again in Mini-Gam.", opening=True, before=("3-1",),
        level=2),
    _ex("g8.2", "play", "minigam/w/3x7,4/barx6,5x2", "1-1", "No stacking limit in Mini-Gam. Play 1-1.",
        "Eight checkers may stand on one point.", trap="3/2", level=1),
    _ex("g8.3", "play", "minigam/w/2,1/barx8", "2-2", "Win the game.", "The first to bear off all 8 wins one "
        "point.", target="win"),
    # review
    _ex("g.r1", "play", "minigam/w/barx6,4,2/barx5,4,2x2", "3-1", "Hit Black's blot.",
        "A checker that enters may move on with the other die, and hit.", target="hit", rows=("G3", "G4")),
    _ex("g.r2", "lost", "minigam/w/bar/barx4,2x2,1x2", "2-1", "White has one checker, on the bar. "
        "Will White lose the turn with 2-1?", "Entering needs an open point.", rows=("G3",), level=2),
    _ex("g.r3", "land", "minigam/b/barx6,4,2/barx5,4,2x2", "3-1", "Black to play. Click where Black's checker on "
        "its point 4 lands with the 3.", "Black's point 1 is White's point 6.", start=4, die=3,
        rows=("G1",), level=2),
    _ex("g.r4", "play", "minigam/w/bar,5/barx8", "6-5", "Enter and bear off: find a play that bears a checker off.",
        "Nothing bears off while a checker waits on the bar: it enters first, then another checker may bear off.",
        target="bear_off", rows=("G4", "G6"), level=3),
]


def _stages() -> tuple[Stage, ...]:
    out = []
    for variant, items, rows, review in (("standard", _S, ("S1", "S2", "S3", "S4"), "s.r"),
                                          ("mexican", _M, tuple(f"M{i}" for i in range(1, 12)), "m.r"),
                                          ("minigam", _G, tuple(f"G{i}" for i in range(1, 9)), "g.r")):
        for row in rows:
            exs = tuple(sorted((e for e in items if e.id.split(".")[0].upper() == row), key=lambda e: e.level))
            out.append(Stage(row, ROW_TITLES[row], variant, (row,), exs))
        rev = tuple(sorted((e for e in items if e.id.startswith(review)), key=lambda e: e.level))
        covered = tuple(dict.fromkeys(r for e in rev for r in e.rows))
        out.append(Stage(f"{review[0].upper()}-review", "Review: mixed exercises", variant, covered, rev))
    return tuple(out)


STAGES: tuple[Stage, ...] = _stages()
EXERCISES: tuple[Exercise, ...] = tuple(e for s in STAGES for e in s.exercises)
VARIANT_STAGES: dict[str, tuple[Stage, ...]] = {
    v: tuple(s for s in STAGES if s.variant == v) for v in ("standard", "mexican", "minigam")}


def stage(stage_id: str) -> Stage:
    """The stage with this id (``"M4"``, ``"G-review"``); :class:`LessonError` for an unknown id."""
    for s in STAGES:
        if s.id.lower() == str(stage_id).lower():
            return s
    raise LessonError(f"no stage {stage_id!r}; stages: {', '.join(s.id for s in STAGES)}")


def stages_of(variant: str) -> tuple[Stage, ...]:
    """The stages of one variant, in order."""
    if variant not in VARIANT_STAGES:
        raise LessonError(f"no lessons for variant {variant!r}; variants: {', '.join(VARIANT_STAGES)}")
    return VARIANT_STAGES[variant]


def exercise(exercise_id: str) -> Exercise:
    """The exercise with this id (``"m4.1"``)."""
    for e in EXERCISES:
        if e.id == exercise_id:
            return e
    raise LessonError(f"no exercise {exercise_id!r}")


_KIND_WORDS = {"play": "play", "spot": "spot the illegal step", "lost": "turn lost?", "count": "how many plays",
               "moves": "how many moves", "name": "which doubles", "bearoff": "bear off?", "land": "where it lands",
               "choose": "keep or re-roll", "worth": "what the win is worth"}


def course_table() -> str:
    """The course as a Markdown table: each stage, the rows it covers, its exercises (id, kind,
    level 1-3). ``docs/lessons.md`` shows it; a test keeps the two equal."""
    lines = ["| stage | title | rows | exercises (kind, level) | count |", "|---|---|---|---|---|"]
    for s in STAGES:
        exs = ", ".join(f"`{e.id}` {_KIND_WORDS[e.kind]} {e.level}" for e in s.exercises)
        lines.append(f"| {s.id} | {ROW_TITLES.get(s.id, s.title)} | {', '.join(s.rows)} | {exs} | {len(s)} |")
    lines.append(f"| | | | **in all** | **{len(EXERCISES)}** |")
    return "\n".join(lines)
