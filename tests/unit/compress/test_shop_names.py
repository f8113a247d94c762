"""Shops and firms told from people by structure, and nicknames by their form."""

from simplemem_graph.compress.names_zh import find_names_zh


def _names(text: str) -> set[tuple[str, str]]:
    return {(m.kind, m.value) for m in find_names_zh(text)}


def test_a_name_running_into_a_business_noun_is_a_shop():
    assert ("org", "野麦咖啡") in _names("野麦咖啡问我们能不能做个排队叫号")
    assert ("org", "麦田烘焙") in _names("另外麦田烘焙那边官网改版，下周给他们出首页稿")


def test_a_person_keeps_the_person_reading():
    assert _names("李明电话打不通") == {("person", "李明")}  # a person's phone, not a firm
    assert ("person", "孙总") in _names("孙总那边还没回")
    assert not {k for k, _ in _names("王磊咖啡喝多了")} & {"org"}


def test_nicknames_by_form():
    assert ("person", "阿珂") in _names("接手的是他们新来的运营阿珂")
    assert ("person", "胖哥") in _names("老板姓葛，大家都叫他胖哥，拍板的是他。")
    assert not any(v.startswith("阿") for _, v in _names("阿姨说好"))
