"""The shared tokeniser: FTS5 indexing and queries depend on it agreeing with itself."""

from simplemem_graph.text import clause_window, count_tokens, detect_lang, tokenize


def test_mixed_chinese_and_latin_split_at_the_script_boundary():
    assert tokenize("锐拓报价QM-220铝支架含税单价3.6元") == [
        "锐拓",
        "报价",
        "qm-220",
        "铝",
        "支架",
        "含税",
        "单价",
        "3.6",
        "元",
    ]


def test_english_words_keep_apostrophes_and_drop_stopwords():
    assert tokenize("Caroline's support group is in the city") == ["caroline's", "support", "group", "city"]


def test_token_count_is_one_per_cjk_character_or_word_or_mark():
    assert count_tokens("下周二开会, OK?") == 5 + 1 + 1 + 1  # 5 characters, ",", "OK", "?"


def test_language_detection():
    assert (detect_lang("下周二之前把报告发给李经理"), detect_lang("Send the report by Friday")) == (
        "zh",
        "en",
    )


def test_a_clause_window_keeps_whole_clauses_about_the_terms_within_the_budget():
    text = (
        "我最近看的电影很少，但我最喜欢的是《阿凡达》。"
        + "至于惊悚片，我推荐《寂静岭》和《咒怨》，这些电影非常经典。"
    )
    part = clause_window(text, 30, set(tokenize("你推荐我看的那两部惊悚片是哪两部？")))
    assert part.startswith("…至于惊悚片，我推荐《寂静岭》和《咒怨》") and "阿凡达" not in part
    assert count_tokens(part) <= 30
    assert clause_window(text, 200, set()) == text  # it fits: nothing is cut
    assert clause_window(text, 3, {"推荐"}) == ""  # no whole clause fits


def test_a_clause_window_does_not_cut_inside_a_number():
    text = "The quote came to $1,420.50 in total, due Friday, and the deposit is paid."
    part = clause_window(text, 14, {"quote"})
    assert "1,420.50" in part and part.endswith("…")
    assert not part.startswith("…")
