"""Who works where (stop 49): a three-line signature and one after a sign-off tie the signer to
the firm; "their" points back, never at a firm named after it; a verb between a person and "from
<firm>" ("X claimed it from Y") is no employer. Names are made up; each case failed on the code
before (the guards pass on both)."""

from __future__ import annotations

from simplemem_graph.consolidate.aliases import ampersand_names
from simplemem_graph.consolidate.name_matching import works_at_phrase

from .conftest import run_session

CLIENT = "Quillmoor Youth Trust, Inc."
VENDOR = "Dunmere & Holt"


def test_a_three_line_signature_ties_the_signer_to_the_firm(store, make_event, embedder):
    text = (
        "pasting her sig:\n> thanks!! talk thurs\n> --\n> Odile Brannagh-Vance\n"
        f"> Director of Programs\n> {CLIENT}\n> 14 Mercer St"
    )
    ties = run_session(
        store,
        make_event,
        embedder,
        (f"new client {CLIENT}", {"orgs": (CLIENT,)}),
        (text, {"orgs": (CLIENT,), "people": ("Odile Brannagh",)}),
    )
    assert ("Odile Brannagh", CLIENT) in ties


def test_a_signature_after_a_sign_off_ties_the_signer(store, make_event, embedder):
    firm = "Harlow Cargo Pte. Ltd."
    text = (
        'fwd from their accounts: "attached PO 2231. '
        f'Regards, Tan Wei Ling | Accounts Executive | {firm}." ok'
    )
    ties = run_session(store, make_event, embedder, (text, {"orgs": (firm,), "people": ("Tan Wei Ling",)}))
    assert ("Tan Wei Ling", firm) in ties


def test_their_points_back_not_at_a_firm_named_after_it(store, make_event, embedder):
    text = (
        "budget numbers come from their board treasurer Osric. "
        f"their books are done by an outside firm, {VENDOR}"
    )
    ties = run_session(
        store,
        make_event,
        embedder,
        (f"ok new client {CLIENT}, grant application", {"orgs": (CLIENT,)}),
        (text, {"orgs": (VENDOR,), "people": ("Osric",)}),
    )
    assert ("Osric", VENDOR) not in ties


def test_their_still_ties_to_the_firm_named_before_it(store, make_event, embedder):
    """Guard: the firm named first, then "their <role> <name>", is that firm's person."""
    text = f"{VENDOR} sent the template. their partner Osric did the numbers"
    ties = run_session(store, make_event, embedder, (text, {"orgs": (VENDOR,), "people": ("Osric",)}))
    assert ("Osric", VENDOR) in ties


def test_a_verb_before_from_a_firm_is_no_employer():
    assert not works_at_phrase("the lease extension Boss Tan claim from Velmor instead", "Velmor", "Boss Tan")
    assert not works_at_phrase("odile relayed from the ED: ask is $90k", "ED", "odile")
    # guards: the forms that do say it
    assert works_at_phrase("hi its Deano from Orbitrack, fitting Thu", "Orbitrack", "Deano")
    assert works_at_phrase("Emma, sales rep at Acme Freight, rang", "Acme Freight", "Emma")
    assert works_at_phrase("Ravi who works at Acme Freight says hi", "Acme Freight", "Ravi")


def test_a_department_in_a_signature_is_no_firm_across_lines():
    """ "Director of Facilities & Operations" over the firm's name on the next line made a firm
    "Facilities & Operations Quillmoor Youth Trust" that took the signer's tie."""
    text = (
        "Kind regards,\n\nOdile Vance\nDirector of Facilities & Operations\nQuillmoor Youth Trust Ltd (QYT)"
    )
    assert ampersand_names(text) == []
    # guards: a firm written with "&" in running text, on one line
    assert ampersand_names("we signed Ashby & Rourke Homewares yesterday") == [
        ("Ashby & Rourke Homewares", ["Ashby & Rourke", "A&R"])
    ]
