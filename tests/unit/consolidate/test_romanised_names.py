"""Names in two scripts, as held-out stories wrote them (stop 56), with made-up names: a Hong Kong
firm's English name on a signature spells its Chinese trade name in Cantonese ("Wing Fat Lung
Trading Limited" of 榮發隆貿易有限公司) or a mainland one's in pinyin ("Hangzhou Qingshan Tea" of
杭州青杉茶业有限公司); initials then follow the Cantonese reading (WFL); "Dennis Cheung 張志明" is
one person (Cheung writes 張). A look-alike whose name spells another trade name stays apart and
an English word is no romanisation (the guards). Each case but the guards failed on the code
before."""

from __future__ import annotations

from datetime import UTC, datetime

from simplemem_graph.consolidate.aliases import abbreviation_score
from simplemem_graph.consolidate.romanisation import romanised_firm_name, spellings, surname_spelt

from .conftest import consolidated_memory, entity_named, story_turns

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_spellings_cover_pinyin_taiwan_and_hong_kong():
    assert {"zeng", "tseng", "tsang"} <= spellings("曾")  # pinyin, Taiwan, Hong Kong
    assert {"jin", "kam"} <= spellings("金")
    assert surname_spelt("Cheung", "張志明") and surname_spelt("Chang", "張志明")
    assert not surname_spelt("Smith", "張志明")


def test_a_latin_name_spells_the_trade_name_or_place_and_trade_name():
    assert romanised_firm_name("Wing Fat Lung Trading Limited", "榮發隆貿易有限公司", ["榮發隆"])
    assert romanised_firm_name("Hangzhou Qingshan Tea Co., Ltd.", "杭州青杉茶业有限公司", ["青杉"])
    # guards: another trade name's spelling, and English words, spell nothing
    assert not romanised_firm_name("Wing Fat Hing Trading Limited", "榮發隆貿易有限公司", ["榮發隆"])
    assert not romanised_firm_name("Westfield Trading Limited", "榮發隆貿易有限公司", ["榮發隆"])


def test_hong_kong_initials_follow_cantonese():
    # 榮發隆: wing4 faat3 lung4 in Cantonese (W F L), rong fa long in Mandarin (R F L)
    assert abbreviation_score("WFL", "榮發隆貿易有限公司") == 3
    assert abbreviation_score("RFL", "榮發隆貿易有限公司") == 3
    assert abbreviation_score("WFH", "榮發隆貿易有限公司") == 0


def test_a_signatures_english_name_is_the_chinese_client(embedder):
    client = "榮發隆貿易有限公司"
    memory = consolidated_memory(
        embedder,
        START,
        ("s1", "user", f"新客 {client}，佢哋要做成個貨倉嘅貨架"),
        ("s1", "user", "跟單係呢位：\nDennis Cheung 張志明\nBuyer\nWing Fat Lung Trading Limited"),
        ("s1", "user", "之後叫WFL算"),
        ("s2", "user", "WFL嘅貨架改咗做40組"),
        ("s2", "user", "張志明話星期五驗貨"),
    )
    entity = entity_named(memory.store, client)
    assert "Wing Fat Lung Trading Limited" in entity.aliases and "WFL" in entity.aliases
    assert "張志明" in entity_named(memory.store, "Dennis Cheung").aliases
    assert {"s1:1", "s2:3", "s2:4"} <= story_turns(memory, client)


def test_a_look_alikes_english_name_is_not_the_client(embedder):
    # a guard: 榮發興 is another firm; its English name spells its own trade name, not the client's
    client, look_alike = "榮發隆貿易有限公司", "榮發興貿易有限公司"
    memory = consolidated_memory(
        embedder,
        START,
        ("s1", "user", f"新客 {client}，佢哋要做成個貨倉嘅貨架"),
        ("s1", "user", f"另外 {look_alike} 都問價，唔同公司"),
        ("s1", "user", "佢哋個signature：\nWing Fat Hing Trading Limited"),
    )
    assert "Wing Fat Hing Trading Limited" not in entity_named(memory.store, client).aliases


def test_the_given_name_of_a_signatures_chinese_name_is_the_person(embedder):
    # "周婉清 Wanqing Zhou" makes 周婉清 an alias of the Latin name; 婉清 alone must still be her
    # (the short forms of an alias are its canonical entity's): it had been nobody
    client = "深圳市禾米科技有限公司"
    memory = consolidated_memory(
        embedder,
        START,
        ("s1", "user", f"新客户 {client} 要做喂食器外壳手板"),
        ("s1", "user", f"对接的是他们产品经理 签名贴过来\n\n周婉清 Wanqing Zhou\n产品经理\n{client}"),
        ("s2", "user", "婉清说数量改成30套"),
    )
    assert "周婉清" in entity_named(memory.store, "Wanqing Zhou").aliases
    assert "s2:2" in story_turns(memory, client)


def test_a_homophone_look_alike_is_not_the_firm_its_letters_spell(embedder):
    # a guard: 明瑞 and 明睿 are both "Ming Rui"; a Chinese name is never matched to a known
    # Latin one, so the look-alike said to be another firm stays another firm
    client, look_alike = "明睿教育事業股份有限公司", "明瑞文理補習班"
    memory = consolidated_memory(
        embedder,
        START,
        ("s1", "user", f"新客戶 {client}（MingRui Education Co.）要做報名系統"),
        ("s1", "user", f"還有一家補習班打來，叫「{look_alike}」，在大里，跟明睿完全不同家！"),
    )
    assert look_alike not in entity_named(memory.store, client).aliases
