"""suji.rules.dice: faces, rolls, operator spellings, seeded rolls and the target numbers (RULES.md §1 "Dice")."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from suji.rules.dice import (
    NUMBER_DICE_FACES,
    OPERATOR_DICE_FACES,
    OPERATOR_FACES,
    DiceError,
    Roll,
    face_readings,
    parse_number_face,
    parse_operator_face,
    random_roll,
    target_numbers,
)


def test_dice_faces_match_the_rules():
    assert NUMBER_DICE_FACES == {"A": (1, 2, 3, 4, 5, 6), "B": (1, 2, 3, 6, 7, 8), "C": (1, 2, 3, 4, 5, 8)}
    assert OPERATOR_DICE_FACES == {
        "A": ("+", "+", "−", "−", "×", "÷"),
        "B": ("×10", "×11", "×12", "²", "²", "√"),
    }


@pytest.mark.parametrize(
    ("dice", "numbers"),
    [
        ((1, 2, 5), (125, 152, 215, 251, 512, 521)),  # RULES.md example
        ((4, 4, 6), (446, 449, 464, 494, 644, 944)),  # 6 read as 9 on a target die
        ((6, 6, 1), (166, 169, 196, 199, 616, 619, 661, 691, 916, 919, 961, 991)),
        ((3, 3, 3), (333,)),
    ],
)
def test_target_numbers(dice, numbers):
    assert target_numbers(dice) == numbers


def test_six_reads_as_nine_only():
    assert face_readings(6) == (6, 9)
    assert all(face_readings(face) == (face,) for face in (1, 2, 3, 4, 5, 7, 8))


@pytest.mark.parametrize(
    ("text", "face"),
    [
        ("+", "+"), ("＋", "+"), ("plus", "+"),
        ("-", "−"), ("−", "−"), ("－", "−"),
        ("*", "×"), ("x", "×"), ("×", "×"), ("＊", "×"),
        ("/", "÷"), ("÷", "÷"), ("／", "÷"),
        ("x10", "×10"), ("*10", "×10"), ("×10", "×10"), ("x11", "×11"), ("X12", "×12"),
        ("^2", "²"), ("**2", "²"), ("2乗", "²"), ("²", "²"),
        ("sqrt", "√"), ("√", "√"), ("平方根", "√"), ("ルート", "√"),
        (" + ", "+"),
    ],
)  # fmt: skip
def test_operator_spellings(text, face):
    assert parse_operator_face(text) == face


@pytest.mark.parametrize("face", OPERATOR_FACES)
def test_a_face_as_printed_is_taken_at_once_as_the_spelling_table_reads_it(face):
    """parse_operator_face answers a printed face without the table: the table reads it as the same face."""
    from suji.rules.language.spelling import operator_face

    assert parse_operator_face(face) == operator_face(face) == face


@pytest.mark.parametrize("value", [["+"], {"+": 1}, ("+",), 1, None, b"+"])
def test_an_operator_die_that_is_no_text_is_unknown(value):
    with pytest.raises(DiceError) as info:
        parse_operator_face(value)
    assert info.value.code == "unknown_operator_die"


@pytest.mark.parametrize("text", ["", "?", "x13", "×9", "^3", "sqrt2", "0"])
def test_unknown_operator_die(text):
    with pytest.raises(DiceError) as info:
        parse_operator_face(text)
    assert info.value.code == "unknown_operator_die"


@pytest.mark.parametrize(("value", "face"), [(1, 1), ("7", 7), ("９", 9), (" 3 ", 3), (6, 6)])
def test_number_faces(value, face):
    assert parse_number_face(value) == face


@pytest.mark.parametrize("value", [0, 10, -1, "0", "12", "a", "", True, 2.5])
def test_bad_number_faces(value):
    with pytest.raises(DiceError) as info:
        parse_number_face(value)
    assert info.value.code == "unknown_number_die"


def test_roll_of_normalises_spellings_and_makes_targets():
    roll = Roll.of(["2", 1, "４", 1, 3], ["+", "+", "^2", "-"], target_dice=[4, 4, 6])
    assert roll.number_dice == (2, 1, 4, 1, 3)
    assert roll.operator_dice == ("+", "+", "²", "−")
    assert roll.targets == (446, 449, 464, 494, 644, 944)
    assert roll.to_dict() == {
        "target_dice": [4, 4, 6],
        "number_dice": [2, 1, 4, 1, 3],
        "operator_dice": ["+", "+", "²", "−"],
        "targets": [446, 449, 464, 494, 644, 944],
    }


class _Plus(str):
    """A text that is "+" but not a plain str: read like any spelling, so the roll holds the plain face."""


def _plain_faces(parse, dice):
    """The faces of dice read one by one (the plain reference of a roll's dice), or the DiceError code."""
    try:
        return tuple([parse(d) for d in dice])
    except DiceError as error:
        return error.code


DIE_VALUES = st.one_of(
    st.integers(-1, 11), st.booleans(), st.sampled_from([3.0, 2.5, "4", "９", "x", [1], None]),
    st.sampled_from(sorted(OPERATOR_FACES)), st.sampled_from(["^2", "sqrt", "x11", "-", _Plus("+")]),
)  # fmt: skip


@given(st.lists(DIE_VALUES, max_size=4), st.lists(DIE_VALUES, max_size=8), st.lists(DIE_VALUES, max_size=6))
@example([True], [1], ["+"])  # a bool equal to a face
@example([1], [1, 2.0], ["+"])  # a float equal to a face
@example([1], [1], [_Plus("+"), "−"])  # a str that is not a plain one
@example([1], [1], ["x11", "sqrt", "^2", "/", "＊１２"])  # usual names, looked up in one go
@example([1], [1], ["x11", "x13"])  # a name among them that is no die's
@example([4, 4, 6], [2, 1, 4, 1, 3], ["+", "+", "²", "−"])  # faces already: kept as they are
def test_a_roll_holds_the_faces_each_die_reads_as(targets, numbers, operators):
    """Dice given as faces already are kept in one go: the roll holds what reading each die alone gives."""
    for kind in (tuple, list):
        expected = [
            _plain_faces(parse_number_face, targets),
            _plain_faces(parse_number_face, numbers),
            _plain_faces(parse_operator_face, operators),
        ]
        try:
            roll = Roll(kind(targets), kind(numbers), kind(operators), target=7)
        except DiceError as error:
            assert error.code in expected or error.code == "too_many_dice"
            continue
        got = [roll.target_dice, roll.number_dice, roll.operator_dice]
        assert got == expected
        assert all(type(d) is int for d in roll.target_dice + roll.number_dice)
        assert all(type(d) is str for d in roll.operator_dice)


def test_explicit_target_replaces_target_dice():
    roll = Roll.of([8, 2, 1, 1], ["+", "/", "x11"], target=10)
    assert roll.targets == (10,)
    assert roll.to_dict()["target"] == 10


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"target": 0}, "bad_target"),
        ({"target": True}, "bad_target"),
        ({"target": "12"}, "bad_target"),
        ({}, "no_target"),
    ],
)
def test_bad_targets(kwargs, code):
    with pytest.raises(DiceError) as info:
        Roll.of([1, 2], ["+"], **kwargs)
    assert info.value.code == code


def test_random_roll_is_reproducible_and_standard():
    assert random_roll(7) == random_roll(7)
    assert random_roll("abc") == random_roll("abc")
    rolls = {random_roll(seed) for seed in range(50)}
    assert len(rolls) > 40  # different seeds give different rolls


@given(st.integers())
def test_random_roll_uses_the_standard_set(seed):
    roll = random_roll(seed)
    a, b, c = (NUMBER_DICE_FACES[k] for k in "ABC")
    assert [roll.target_dice[0] in a, roll.target_dice[1] in b, roll.target_dice[2] in c] == [True] * 3
    assert len(roll.number_dice) == 5
    assert [face in die for face, die in zip(roll.number_dice, (a, a, b, b, c), strict=True)] == [True] * 5
    assert len(roll.operator_dice) == 4
    assert all(face in OPERATOR_DICE_FACES["A"] for face in roll.operator_dice[:3])
    assert roll.operator_dice[3] in OPERATOR_DICE_FACES["B"]
    assert set(roll.operator_dice) <= set(OPERATOR_FACES)
    assert roll.targets == target_numbers(roll.target_dice)


def test_custom_rolls_have_limits_that_keep_checks_quick():
    from suji.rules.dice import MAX_NUMBER_DICE, MAX_OPERATOR_DICE, MAX_TARGET_DICE

    Roll.of([1] * MAX_NUMBER_DICE, ["+"] * MAX_OPERATOR_DICE, target_dice=[1] * MAX_TARGET_DICE)
    for numbers, operators, targets in (
        (MAX_NUMBER_DICE + 1, 1, 3),
        (1, MAX_OPERATOR_DICE + 1, 3),
        (1, 1, MAX_TARGET_DICE + 1),
    ):
        with pytest.raises(DiceError) as caught:
            Roll.of([1] * numbers, ["+"] * operators, target_dice=[1] * targets)
        assert caught.value.code == "too_many_dice"


def test_every_usual_name_of_a_die_makes_the_face_it_reads_as():
    from suji.rules.language.spelling import die_names

    names = sorted(die_names())
    for start in range(0, len(names), 6):  # six operator dice a roll at most
        chosen = names[start : start + 6]
        assert Roll.of([1], chosen, target=1).operator_dice == tuple(parse_operator_face(n) for n in chosen)
    read_once = Roll(target_dice=(), number_dice=(1,), operator_dice=iter(["x11", "sqrt"]), target=1)  # type: ignore[arg-type]
    assert read_once.operator_dice == ("×11", "√")  # any iterable of dice, read once
