"""The Japanese catalog reads as one voice with one term per concept (issue 25): a test per rule.

Each test names the rule it keeps; a message that breaks one fails with its msgid, so a new entry that slips
back (かける for "risk", 版 for a version, 〜だよ on a pupil's page) is caught where it is written.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from suji.dev import catalogs

JAPANESE = r"[\u3040-\u30ff\u4e00-\u9fff]"


@pytest.fixture(scope="module")
def ja() -> dict[str, str]:
    """msgid → Japanese (the singular form of plural entries)."""
    with catalogs.catalog_path("ja").open("rb") as f:
        catalog = read_po(f, locale="ja")
    out = {}
    for m in catalog:
        if m.id:
            key = m.id if isinstance(m.id, str) else m.id[0]
            out[key] = m.string if isinstance(m.string, str) else m.string[0]
    return out


def offending(ja: dict[str, str], pattern: str, where=lambda msgid: True) -> dict[str, str]:
    return {k: v for k, v in ja.items() if where(k) and re.search(pattern, v)}


def test_risk_is_shobu_never_kakeru(ja):
    """Silence in Class!'s "risk" is 勝負する / 勝負ライン: かける is ×, and かけ reads as gambling."""
    risky = {k: v for k, v in ja.items() if re.search(r"\brisk", k, re.I)}
    assert len(risky) > 20
    assert {k: v for k, v in risky.items() if "かけ" in v or "勝負" not in v} == {}
    assert ja["times"] == "かける"  # × keeps its word


def test_target_number_and_how_many_targets_are_two_phrases(ja):
    assert ja["Number of targets"] != ja["Target numbers"] and "いくつ" in ja["Number of targets"]
    assert ja["number of targets"] != ja["Target numbers"]


def test_no_calque_of_looking_bad(ja):
    assert offending(ja, "悪く見せ") == {}
    assert "足を引っぱる" in ja["Make everyone else look bad"]


def test_clearing_a_formula_and_deleting_records_have_different_labels(ja):
    assert ja["Clear"] == "式を消す" and "記録" in ja["Delete everything"]
    assert offending(ja, "^ぜんぶ消す$") == {}


def test_versions_are_printouts_not_han(ja):
    """版 beside A4 reads as 判: a version is プリントA, their number 種類."""
    assert offending(ja, "版") == {}
    assert ja["Version %(version)s"] == "プリント%(version)s"


def test_seed_is_print_number_on_sheets_and_tane_in_lessons(ja):
    assert offending(ja, "シード") == {}
    assert ja["Seed"] == "プリント番号" and ja["Seed (the same seed gives the same simulation)"].startswith(
        "たね"
    )


def test_working_on_it_is_torikumichu(ja):
    assert ja["working on it"] == "取り組み中" and offending(ja, "とき中") == {}


def test_best_score_pupils_ichiban_takai_teachers_saikou(ja):
    pupils = ["Best", "Best possible", "Best possible score at this level", "best score", "Best possible with these dice: %(score)s",
              "One best formula:", "Show the best answer"]  # fmt: skip
    teachers = ["Best score", "Best score with every die rolled.", "best %(score)s",
                "Yes: each hint takes a quarter of the best possible score"]  # fmt: skip
    assert [k for k in pupils if "いちばん" not in ja[k]] == []
    assert [k for k in teachers if "最高" not in ja[k]] == []
    assert offending(ja, "最高点|いちばん良い点|いちばんよい答え|いちばん点が高い") == {}


def test_redundant_dice_are_muda_na_saikoro(ja):
    assert offending(ja, "なくても答えが変わらない") == {}
    assert "むだなサイコロ" in ja["Dice that change nothing do not count"]


def test_daisu_only_in_the_games_compound_names(ja):
    """サイコロ everywhere, ダイス only in お題ダイス 数字ダイス 記号ダイス (演算子ダイス) and ダイスモンスター."""
    bare = re.compile(r"(?<!お題)(?<!数字)(?<!記号)(?<!演算子)ダイス(?!モンスター)")
    assert {k: v for k, v in ja.items() if bare.search(v)} == {}
    assert (
        "演算子ダイス"
        in ja[
            "Sūji de Asobo (“let’s play with numbers”) is a dice game: roll number dice and operator dice, "
            "then join them into one formula that makes a target number."
        ]
    )  # glossed once, as the original rules name it


def test_one_counter_for_dice(ja):
    assert offending(ja, r"(サイコロ|ダイス)[0-9]+つ|[0-9%]\)?s?こ[（、。につ]|[0-9]こ$|1こ") == {}


def test_mixed_is_mikkusu(ja):
    assert offending(ja, "混合|まぜる|レベルミックス") == {}
    assert ja["mixed"] == "ミックス"


def test_pupils_are_jidou_on_teacher_pages_and_seito_only_in_the_9am_story(ja):
    pupil_ids = {k: v for k, v in ja.items() if re.search(r"\bpupil", k, re.I) and "pupil card" not in k}
    assert {k: v for k, v in pupil_ids.items() if "生徒" in v} == {}
    assert {
        k: v for k, v in ja.items() if "生徒" in v and not re.search(r"student|pupil card|class!", k, re.I)
    } == {}


def test_pupils_use_a_tablet_teachers_a_device(ja):
    pupil_messages = [
        "You have not joined this class on this device. Join with the code and your name.",
        "Too many wrong codes from this device. Wait %(minutes)s minutes and try again.",
        "Your teacher let your name join again on another device, so this one is no longer in the class. "
        "Carry on there, or join here again with your name.",
    ]
    assert [k for k in pupil_messages if "タブレット" not in ja[k] or "端末" in ja[k]] == []
    assert (
        "端末"
        in ja[
            "Let %(name)s join again? The next device that joins with this name carries on with their work."
        ]
    )


@pytest.mark.parametrize(("word", "kana"), [("得点", "点数"), ("名前", "なまえ"), ("答え", "こたえ"), ("問題", "もんだい"),
                                            ("ほか", "他")])  # fmt: skip
def test_one_spelling_for_common_words(ja, word, kana):
    assert offending(ja, kana if kana != "他" else "(?<!その)他") == {}


def test_pupil_voice_is_desu_masu_with_shiyou(ja):
    """No 〜してね / 〜だよ / 〜いいよ / 〜かな: です・ます, and 〜しよう for an invitation."""
    assert offending(ja, "てね|だよ|いいよ|かな[？。]|かな$|よ！|ね！") == {}
    assert ja["Press “Check” to score it."].endswith("見てみよう。")


def test_full_width_colon_and_no_space_between_full_and_half_width(ja):
    assert offending(ja, rf"{JAPANESE}:|{JAPANESE}\s*: ") == {}
    assert offending(ja, rf"{JAPANESE} [A-Za-z0-9]|[A-Za-z0-9] {JAPANESE}") == {}


def test_the_games_name_stands_in_brackets_in_prose(ja):
    prose = {k: v for k, v in ja.items() if "すうじであそぼ" in v and v != "すうじであそぼ"}
    assert len(prose) >= 6
    assert {k: v for k, v in prose.items() if "「すうじであそぼ」" not in v} == {}


def test_the_two_languages_say_the_same(ja):
    """Meaning differences the review found, fixed on the side that was wrong."""
    assert ja["Questions answered correctly: %(done)s of %(total)s"].startswith("正解した問題")
    assert "Questions answered: %(done)s of %(total)s" not in ja
    assert (
        "毎日の問題"
        in ja[
            "This deletes all your games, your daily puzzle answers and your nickname. It cannot be undone."
        ]
    )
    assert offending(ja, "^1〜20文字の、文字|^名前に使えるのは、文字|^文字・数字") == {}  # letters are 英字
    assert (
        "正確な値は出していません"
        in ja["A lone gooball, whole inches. The 3-player games include bumps; they have no exact value."]
    )


def test_a_confidence_interval_is_the_95_percent_range(ja):
    """信頼区間 is high-school statistics: the lessons say 「95%のはんい」, as the chart's grey band is explained
    (「100回のうち95回がおさまるはんい」), and a die's sides before its d-name."""
    assert offending(ja, "信頼区間") == {}
    assert ja["95%% confidence interval"] == "95%%のはんい"
    monsters = [v for k, v in ja.items() if k.startswith("Each monster is a set of dice")]
    assert monsters and "6面のサイコロ「d6」" in monsters[0]


def test_a_teachers_class_is_kurasu_and_a_live_session_is_raibu_jugyou(ja):
    """The teacher's school class (the roster kept all year) is クラス; class mode's live session is ライブ授業: the
    button that makes a class for the year said ライブ授業を作る."""
    assert ja["Make a class"] == ja["Make the class"] == "クラスを作る"
    assert ja["Delete the class"] == "クラスを削除する"  # a whole year's class, not one lesson
    assert "ライブ授業" in ja["Make the class session"]
