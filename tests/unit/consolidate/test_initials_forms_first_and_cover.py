"""Ties as held-out stories wrote them (stop 54), written here with made-up names: initials leave
the legal form out (SKM of "Skarvik Marine ApS", letters inside a word allowed as for any
abbreviation); a signature whose firm line opens with Indonesia's PT ties the signer to the firm;
"X is covering ops while she's out" and "采购这块交给X" hand a client's post over, so X works at the
client; whom a client outsources its production to ("产品全部外包给…一个厂 叫X", "they've got a supply
agreement with X", "punya kontraktor sendiri, CV X") is its supplier. Each case failed on the code
before."""

from __future__ import annotations

from simplemem_graph.consolidate.aliases import abbreviation_accepted, abbreviation_score, best_abbreviated

from .conftest import run_session


def test_initials_leave_the_legal_form_out():
    assert abbreviation_score("SKM", "Skarvik Marine ApS") == 2  # S, k inside Skarvik, M
    assert abbreviation_accepted("SKM", "Skarvik Marine ApS")
    # the look-alike's extra word holds none of the letters: it is not what SKM stands for
    assert best_abbreviated("SKM", [("Skarvik Marine ApS", 1), ("Skarvika Outdoor Marine AS", 2)]) == 1
    assert not abbreviation_accepted("PO", "Skarvik Marine ApS")


def test_a_signature_with_the_legal_form_first_ties_the_signer(store, make_event, embedder):
    firm = "Kopi Lereng Merapi"
    ties = run_session(
        store,
        make_event,
        embedder,
        (
            f"PIC-nya orang marketing, gue copas signature emailnya:\n\n--\nWulan Sari Pratiwi\n"
            f"Brand & Marketing Manager\nPT {firm}",
            {"orgs": (firm,), "people": ("Wulan Sari Pratiwi",)},
        ),
    )
    assert ("Wulan Sari Pratiwi", firm) in ties


def test_covering_someones_post_while_they_are_out_is_a_handover(store, make_event, embedder):
    firm = "Lindenhall Dental Partners, LLC"
    ties = run_session(
        store,
        make_event,
        embedder,
        (
            f"day to day is their ops director\n\nOdalys Brenner\nDirector of Operations\n{firm}",
            {"orgs": (firm,), "people": ("Odalys Brenner",)},
        ),
        (
            "also odalys is going on maternity leave end of the month!! baby boy. "
            "kai marlowe is covering ops while shes out",
            {"people": ("Odalys Brenner", "Kai Marlowe")},
        ),
    )
    assert ("Kai Marlowe", firm) in ties


def test_handing_a_post_over_in_chinese_ties_the_new_holder(store, make_event, embedder):
    firm = "杭州青榆文化创意有限公司"
    ties = run_session(
        store,
        make_event,
        embedder,
        (f"对接的是他们采购 邮件签名\n柯雨桐 | 采购主管\n{firm}", {"orgs": (firm,), "people": ("柯雨桐",)}),
        ("雨桐下礼拜开始休产假了 采购这块交给卫子航 以后单子都找他", {"people": ("柯雨桐", "卫子航")}),
    )
    assert ("卫子航", firm) in ties


def test_whom_a_client_outsources_to_is_its_supplier(store, make_event, embedder):
    firm = "杭州青榆文化创意有限公司"
    maker = "森茂木制品厂"
    ties = run_session(
        store,
        make_event,
        embedder,
        (f"新客户 {firm} 要彩盒三款", {"orgs": (firm,)}),
        (f"他们公司自己不生产的 产品全部外包给丽水一个厂 叫{maker} 彩盒做好直接送厂里", {"orgs": (maker,)}),
    )
    assert (maker, firm) in ties


def test_a_supply_agreement_they_have_got_makes_a_supplier(store, make_event, embedder):
    firm = "Saltbush Crewing Pty Ltd"
    parts = "Harbourline Diesel Parts"
    ties = run_session(
        store,
        make_event,
        embedder,
        (f"new client 👍 {firm}. labour hire, want the ute fleet done", {"orgs": (firm,)}),
        (
            f"catch is i dont supply parts on this one. they've got a supply agreement with {parts}, "
            "everything ordered thru them on Saltbush's account and dropped at the yard",
            {"orgs": (parts,)},
        ),
    )
    assert (parts, firm) in ties


def test_a_contractor_of_its_own_said_in_indonesian_is_the_clients_supplier(store, make_event, embedder):
    firm = "Kopi Lereng Merapi"
    builder = "Sinar Baja Utama"
    ties = run_session(
        store,
        make_event,
        embedder,
        (f"klien baru nih PT {firm}, coffee chain, materi cetak buat 18 outlet", {"orgs": (firm,)}),
        (
            "lightbox di outlet2 itu bukan kita yg bikin. "
            f"Kopi Lereng punya kontraktor sendiri, CV {builder}, mereka yg produksi rangka + pasang.",
            {"orgs": (builder,)},
        ),
    )
    assert (builder, firm) in ties
