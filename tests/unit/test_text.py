"""The shared tokeniser: FTS5 indexing and queries depend on it agreeing with itself."""

from simplemem_graph.text import count_tokens, detect_lang, tokenize


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
