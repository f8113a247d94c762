"""Firms as held-out stories named them (stop 53), written here with made-up names: a firm whose
name opens with its kind, as French, Spanish or Malay put it ("Gestion Immobilière Ouellet-Papineau
inc.", "Bank Kenanga Berhad"), goes by the words after the kind (Ouellet-Papineau, Ouellet,
Kenanga), as an English one goes by its first word, and a turn that names it so is the firm's;
a firm's opening words stage 1 read as a person before the firm was named in full are the firm;
a post said with "he's" after a nickname is that person's. Each case failed on the code before."""

from __future__ import annotations

import pytest

from simplemem_graph.consolidate.aliases import short_forms, without_legal_form

from .conftest import entity_named, mentioned, run_session


@pytest.mark.parametrize(
    ("name", "forms"),
    [
        ("Gestion Immobilière Ouellet-Papineau inc.", ["Ouellet-Papineau", "Ouellet"]),
        ("Bank Kenanga Berhad", ["Kenanga"]),
        ("Importadora Médica Tlalpan, S.A. de C.V.", ["Tlalpan"]),
        ("Remorquage Gagnon", ["Gagnon"]),
        ("Kingsway Fasteners", ["Kingsway"]),  # English: the kind comes last
        ("Bank of Ireland", []),  # a place after "of" is no short form
    ],
)
def test_a_firm_named_kind_first_goes_by_the_words_after_its_kind(name, forms):
    assert short_forms(name, "org") == forms


def test_a_lower_case_legal_form_is_dropped_like_any_other():
    assert (
        without_legal_form("Gestion Immobilière Ouellet-Papineau inc.")
        == "Gestion Immobilière Ouellet-Papineau"
    )


def test_the_short_form_of_a_kind_first_firm_is_the_firm(store, make_event, embedder):
    firm = "Gestion Immobilière Ouellet-Papineau inc."
    run_session(
        store,
        make_event,
        embedder,
        (f"Signed a new one: {firm}. Snow removal, 2 condo buildings", {"orgs": (firm,)}),
        (
            "Nadège called. Ouellet is adding a 3rd building to our contract",
            {"orgs": ("Ouellet",), "people": ("Nadège",)},
        ),
    )
    assert firm in mentioned(store, "e2")


def test_a_firms_opening_words_read_as_a_person_first_are_the_firm(store, make_event, embedder):
    """ "Little Oak, 5 childcare centres" before the signature gives the full name: stage 1 read the
    two words as a person; once the firm is known they are its short name, not a second party."""
    firm = "Little Oak Learning Hub Pte. Ltd."
    run_session(
        store,
        make_event,
        embedder,
        (
            "got new job 🙏 Little Oak, 5 childcare centres, want quarterly servicing",
            {"people": ("Little Oak",)},
        ),
        (f"their ops girl email me\n\nRachel Tan\nOperations Executive\n{firm}", {"orgs": (firm,)}),
    )
    assert "Little Oak" in entity_named(store, firm).aliases


def test_a_post_said_with_he_is_after_a_nickname_ties_him_to_the_client():
    from simplemem_graph.consolidate.aliases import job_before

    text = "it all goes up to yer man they call the Major he's the operations director over the three hotels"
    assert job_before("Major", text)
    assert not job_before("Major", "the Major he's our driver")
