"""Simplified and traditional Chinese forms of the rules' words."""

import re

from pipelines.hanzi import both, either, simplified


def test_either_reads_both_forms_of_each_character() -> None:
    pattern = re.compile(either("记者|来源|回复"))
    for text in ("记者", "記者", "来源", "來源", "回复", "回覆", "回復"):
        assert pattern.fullmatch(text), text
    assert not pattern.fullmatch("作者")


def test_both_spells_every_form_and_simplified_maps_back() -> None:
    assert set(both(["楼主", "作者"])) == {"楼主", "樓主", "作者"}
    assert simplified("發布時間：2023年5月1日") == "发布时间：2023年5月1日"
    assert simplified("回覆") == simplified("回復") == "回复"
