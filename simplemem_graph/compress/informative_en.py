"""The phatic test for English: spaCy's parse read by structure (who the subject is, what the verb
and its objects are, which determiners and owners mark a noun). `compress/informative.py` holds the
test itself (`says_something`) and the rules shared by both languages."""

from __future__ import annotations

from simplemem_graph.compress.informative_zh import (
    TYPED_SOUND,
)
from simplemem_graph.compress.requests import is_task
from simplemem_graph.lexicon import (
    DEICTIC_DAY_WORDS,
    EN_ACK_ADJECTIVES,
    EN_ADDRESS_TERMS,
    EN_FORMULA_NEGATED_VERBS,
    EN_PHATIC_WORDS,
    EN_PREFERENCE_VERBS,
    EN_THANKS_WORDS,
    EN_WISH_VERBS,
)

# Finite verbs (a declarative has one, with its subject); imperatives ("Take care", "Appreciate your
# help") and verbless formulas ("Good night", "Thanks for the support") do not.
_EN_FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
_EN_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "expl", "csubj"})
_EN_POINTING = frozenset({"it", "that", "this"})
_EN_NOUNS = ("NOUN", "PROPN")
_EN_THIRD_PERSONS = frozenset({"he", "she", "they"})
_EN_COPULAS = frozenset({"be", "look", "sound", "seem"})
# Laughter however spelled: "haha", "Ahhahha", "hehe", "lolol".
_EN_LISTENER = frozenset({"you", "your", "yours", "yourself", "yourselves", "ya", "u"})
_EN_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
_EN_FIRST_PERSON = frozenset({"i", "my", "mine", "myself", "we", "our", "ours", "ourselves"})
# What marks a noun phrase as pointed back at ("this path") or tied to someone ("my friend").
_EN_SPECIFIER_DEPS = frozenset({"det", "poss", "nummod", "predet"})
# A clause that hands its point to another clause: its adjective is not the speaker's whole state
# ("I'm glad it helped", "I'm so happy to see my words motivating you").
_EN_CLAUSAL_DEPS = frozenset({"ccomp", "xcomp", "advcl"})
_EN_STATE_VERBS = frozenset({"be", "feel", "get", "seem", "look", "become", "stay"})
# A gerund names an activity ("For walking or running?", "What got you into running?").
_EN_GERUND_DEPS = frozenset({"pcomp", "pobj", "dobj", "nsubj", "conj", "attr", "ROOT"})
EN_REFERENT_POS = frozenset({"NOUN", "PROPN", "NUM"})


def en_says(span, named: set[str], question: bool, seen: set[str]) -> bool:
    tokens = [t for t in span if not t.is_punct and not t.is_space]
    if not question:
        if (
            _en_speaker_state(span)
            or _en_own_experience(span)
            or _en_negated_visit(span)
            or _en_own_negated_act(span)
            or _en_own_past_act(span)
            or _en_own_preference(span, named)
        ):
            return True
        subjects = _en_main_subjects(span)
        if not subjects and (_en_wellbeing_wish(span, named) or _en_advice(span, named, seen)):
            return False
        if (
            subjects
            and all(s.lower_ in _EN_LISTENER for s in subjects)
            and not _en_advice_to_listener(subjects)
        ):
            # "You've got guts", "you make life's struggles more bearable": praise; but what the
            # listener did for the speaker is their shared history ("You've always been there for me")
            return any(_en_done_for_speaker(s.head) for s in subjects)
        if subjects and all(s.lower_ in _EN_THIRD_PERSONS for s in subjects):
            # "They're a real support.", "She loves it": about someone; but a bare verdict on them
            # ("They're priceless.") is a reaction like "That's awesome"
            return not _en_copular(subjects[0].head) or any(
                t.dep_ == "attr" and t.pos_ == "NOUN" for t in subjects[0].head.children
            )
        if (subjects and all(s.lower_ in _EN_POINTING and _en_copular(s.head) for s in subjects)) or (
            not subjects and _en_bare_verdict(span)
        ):
            # "That's the spirit!", "That must've been breathtaking!", "Sounds like a plan!" (its
            # subject left out): a judgement of what was just
            # said; a name, a number, a described thing ("an ongoing adventure of learning") or one
            # someone owns ("great for my mental health") in it is still a thing
            return any(_en_named_thing(t, named) or _en_described(t, named) for t in tokens)
        if subjects and all(_en_bare_reaction(s) for s in subjects):
            return False  # "That sucks", "this rocks": a verb alone judging what was just said
        if subjects and all(_en_discourse_verdict(s, span) for s in subjects):
            # "That makes total sense", "That means a lot to me": what was just said judged by a verb
            # that names nothing; a thing it does name comes with a determiner, an owner or a name
            # ("That explains the noise", "That took three hours")
            return any(_en_named_thing(t, named) or _en_specified(t) for t in tokens)
    things = [t for t in tokens if _en_thing(t, named, question)]
    if not things:
        return False
    if not question and not any(t.pos_ in ("VERB", "AUX") for t in tokens):
        # a verbless fragment only repeating the last turns' things is an echo
        return any(t.lemma_.lower() not in seen for t in things)
    return True


def _en_own_experience(span) -> bool:
    """What the speaker went through, judged ("I had a great time", "We had so much fun"): a past
    verb of the speaker with a described object is an experience, however phatic its words; not
    one about the talk itself ("I had a great time talking with you", "…chatting")."""
    if any(t.lower_ in _EN_LISTENER for t in span):
        return False
    inside = {t.i for t in span}  # a clause before it may hang on its verb
    return any(
        t.tag_ == "VBD"
        and any(c.dep_.startswith("nsubj") and c.lower_ in ("i", "we") for c in t.children)
        and not any(c.dep_ in (*_EN_CLAUSAL_DEPS, "acl") and c.i in inside for c in t.children)
        and any(
            o.dep_ == "dobj"
            and o.pos_ == "NOUN"
            and any(a.dep_ == "amod" and a.pos_ == "ADJ" for a in o.children)
            and not any(a.dep_ in (*_EN_CLAUSAL_DEPS, "acl", "relcl") for a in o.children)
            for o in t.children
        )
        for t in span
    )


def _en_discourse_verdict(subject, span) -> bool:
    """A demonstrative pronoun subject of a verb of the phatic vocabulary, the speaker left out:
    "that" points at what was just said ("That makes sense"); "it" more often at a thing ("It was
    made for a local church"), and the speaker's own part is a fact ("That helps me plan my week").
    A verb of its own in the clause says what the thing does ("This helps loosen your hips")."""
    return (
        subject.lower_ in ("that", "this")
        and subject.pos_ == "PRON"
        and subject.head.pos_ == "VERB"
        and en_phatic_word(subject.head)
        # the speaker's or the listener's part is a fact ("That helps me plan", "This will help you see")
        and not any(t.lower_ in _EN_FIRST_PERSON or t.lower_ in _EN_LISTENER for t in span)
        and not any(t.pos_ == "VERB" and t.i != subject.head.i and not en_phatic_word(t) for t in span)
    )


def _en_bare_reaction(subject) -> bool:
    """ "that/this" and an intransitive verb with nothing of its own (no object, no complement, no
    time or place, no negation): a verdict on what was said. "That happened yesterday", "That
    doesn't work" and "That works for me" carry something and stay."""
    verb = subject.head
    return (
        subject.lower_ in ("that", "this")
        and subject.pos_ == "PRON"
        and verb.pos_ == "VERB"
        and verb.tag_ == "VBZ"  # a verdict holds now; "This broke again" reports what happened
        and all(
            c.i == subject.i
            or c.dep_ in ("punct", "intj", "advmod", "aux", "cc")
            or (c.dep_ == "acomp" and en_phatic_word(c))  # "that sucks, sorry"
            for c in verb.children
        )
        and not any(c.dep_ == "advmod" and c.like_num for c in verb.children)
    )


def _en_specified(t) -> bool:
    """A noun tied to something: a determiner, an owner, a number, a compound or a complement
    ("the noise", "your hips", "three hours", "the end of the show", "scenarios where data is scarce")."""
    tying = (*_EN_SPECIFIER_DEPS, "compound", "prep", "relcl", "acl")
    return t.pos_ == "NOUN" and any(c.dep_ in tying for c in t.children)


def _en_advice(span, named: set[str], seen: set[str]) -> bool:
    """An imperative of a phatic verb handing on a general truth ("Just remember that sometimes
    stumbling blocks can be opened doors", "Remember, life is short"): what it says names no one and
    nothing specified (not "Remember that the meeting moved", "Remember that I'm allergic to nuts"),
    and none of the things the last turns talked about ("Remember that auditions can be subjective",
    said about the listener's audition, is about the topic)."""
    inside = {t.i for t in span}
    for root in (t for t in span if t.head.i == t.i or t.head.i not in inside):
        if (
            root.tag_ != "VB"
            or not en_phatic_word(root)
            or any(c.dep_.startswith(("nsubj", "aux", "neg")) for c in root.children)
        ):
            continue
        # what is handed on is a clause with its own subject ("…that blocks can be doors"), not a
        # bare verb ("Let cool")
        said = [
            c
            for c in root.children
            if c.dep_ == "ccomp"
            and c.i in inside
            and any(g.dep_.startswith(("nsubj", "csubj")) for g in c.children)
        ]
        if any(c.dep_ == "conj" and c.pos_ == "VERB" and not en_phatic_word(c) for c in root.children):
            continue  # "Let cool and top with fruit": a sequence of instructions
        # the whole clause, not only what is handed on: "Reach out to the store" names the store
        if said and _en_general(span, named, seen):
            return True
    return False


def _en_general(tokens, named: set[str], seen: set[str]) -> bool:
    """Words about no one and nothing in particular: no person pronoun, no name or number, no noun
    with a determiner, an owner or a number, no noun of the last turns ("stumbling blocks can be
    opened doors")."""
    return not any(
        t.lower_ in _EN_FIRST_PERSON
        or (t.pos_ == "PRON" and t.lower_ in ("us", "'s"))  # "let's spread the word": a plan of ours
        or t.lower_ in _EN_LISTENER
        or t.lower_ in _EN_THIRD_PERSONS
        or (t.pos_ == "PRON" and t.lower_ in (*_EN_POINTING, *_EN_DEMONSTRATIVES))  # "these are estimates"
        or _en_named_thing(t, named)
        or (t.pos_ == "NOUN" and any(c.dep_ in _EN_SPECIFIER_DEPS for c in t.children))
        or (t.pos_ == "NOUN" and t.lemma_.lower() in seen)
        for t in tokens
    )


def _en_own_negated_act(span) -> bool:
    """What the speaker does not do, will not do or never did ("I'm not giving up", "I never drink
    coffee") is a fact about them, unlike the set negative phrases that react ("I can't wait", "I
    don't know": lexicon.EN_FORMULA_NEGATED_VERBS)."""
    return any(
        t.pos_ == "VERB"
        and t.lemma_.lower() not in EN_FORMULA_NEGATED_VERBS
        and any(c.dep_ == "neg" for c in t.children)
        and any(c.dep_.startswith("nsubj") and c.lower_ in ("i", "we") for c in t.children)
        for t in span
    )


def _en_own_past_act(span) -> bool:
    """What the speaker did or has been doing, to or with a thing the clause names ("So I tried to
    apologize to them", "Recently I had a setback", "I've been trying out abstract stuff"): their
    history, however light its verb. Not a reaction to what was just said, whose object points back
    or is missing ("I knew it!", "I thought so", "I was wondering"), nor talk about the talk or the
    listener ("I had a great time talking with you", "I missed you")."""
    if any(t.lower_ in _EN_LISTENER for t in span):
        return False
    inside = {t.i for t in span}
    for verb in span:
        if verb.pos_ != "VERB" or verb.dep_ not in ("ROOT", "conj"):
            continue
        if not any(c.dep_.startswith("nsubj") and c.lower_ in ("i", "we") for c in verb.children):
            continue
        auxes = {c.lemma_ for c in verb.children if c.dep_ == "aux"}
        done = verb.tag_ == "VBD" or (verb.tag_ in ("VBN", "VBG") and "have" in auxes)
        if done and any(_en_acted_on(c, inside) for c in verb.children):
            return True
    return False


def _en_acted_on(child, inside: set[int]) -> bool:
    """A dependent of the speaker's verb that names what the act was about: a noun object, or a
    verb it goes on to with a noun or a prepositional phrase of its own ("tried to apologize to
    them")."""
    if child.i not in inside:
        return False
    if child.dep_ in ("dobj", "attr") and child.pos_ in _EN_NOUNS:
        # "a great time chatting": an experience judged, left to _en_own_experience
        return not any(
            g.dep_ in (*_EN_CLAUSAL_DEPS, "acl") for g in (*child.children, *child.head.children)
        )
    if child.dep_ == "xcomp" and child.pos_ == "VERB":
        return any(
            g.i in inside and (g.pos_ in _EN_NOUNS or (g.dep_ == "prep" and list(g.children)))
            for g in child.subtree
            if g.i != child.i
        )
    return False


def _en_advice_to_listener(subjects) -> bool:
    """What the listener could or should do ("You can also try yoga or meditation"): a suggestion,
    no verdict on them; the things it names decide whether it says something ("You can do it!"
    names none). A modal before be is still a verdict ("You must be so proud")."""
    return any(
        not _en_copular(s.head)
        and any(c.dep_ == "aux" and c.tag_ == "MD" and c.lemma_ != "will" for c in s.head.children)
        for s in subjects
    )


def _en_done_for_speaker(verb) -> bool:
    """A past or perfect predicate of the listener with the speaker as its object ("you helped me
    move", "You've always been there for me", "you taught us to swim"): something that happened
    between the two, not a verdict on the listener ("You've got guts", "you make me laugh")."""
    past = verb.tag_ == "VBD" or (
        verb.tag_ == "VBN" and any(c.dep_ == "aux" and c.lemma_ == "have" for c in verb.children)
    )
    return past and any(
        t.lower_ in ("me", "us")
        # "helped us move": the parser makes the object the subject of the bare infinitive
        and (t.dep_ in ("dobj", "pobj", "dative", "iobj") or (t.dep_ == "nsubj" and t.head.i != verb.i))
        for t in verb.subtree
        if t.i != verb.i
    )


def _en_bare_verdict(span) -> bool:
    """A verdict with its "that" left out ("Sounds like a plan!", "Looks amazing"), not one that
    states something of its own ("Sounds like the parade was a blast": a subject inside) nor a
    presentation ("Here's one of the agencies": be is no verdict without a subject)."""
    return any(
        t.dep_ == "ROOT" and t.tag_ == "VBZ" and t.lemma_ in _EN_COPULAS and t.lemma_ != "be" for t in span
    ) and not any(t.dep_.startswith(("nsubj", "expl", "csubj")) for t in span)


def _en_own_preference(span, named: set[str]) -> bool:
    """The speaker's taste in something ("I hate cilantro", "I love dancing"), however the tagger
    reads the thing, but not a reaction to what was said ("I love that!", "I love hearing that")."""
    for t in span:
        if t.lemma_.lower() not in EN_PREFERENCE_VERBS:
            continue
        if not any(c.dep_.startswith("nsubj") and c.lower_ in ("i", "we") for c in t.children):
            continue
        if any(
            c.dep_ in ("dobj", "advmod", "xcomp", "acomp", "attr", "oprd")
            and c.is_alpha
            and c.pos_ not in ("PRON", "DET", "ADV")
            and not en_phatic_word(c)
            and c.lower_ not in named
            for c in t.children
        ):
            return True
    return False


def _en_wellbeing_wish(span, named: set[str]) -> bool:
    """A wish for the listener or a bare imperative of well-being names nothing: "Hope you slept
    well", "Sleep tight", "Talk soon", "Stay safe" (not "Hope you get the job", "Call me", "Book the
    room")."""
    tokens = [t for t in span if t.is_alpha or t.like_num]  # an emoji is neither word nor thing
    inside = {t.i for t in span}
    # the clause's own head: "talk soon" in "Take care, talk soon!" hangs on "Take"
    root = next((t for t in tokens if t.head.i == t.i or t.head.i not in inside), None)
    if root is None or root.pos_ != "VERB":
        return False
    if root.lemma_.lower() in EN_WISH_VERBS:
        wished = [c for c in root.children if c.dep_ in _EN_CLAUSAL_DEPS]
        return bool(wished) and all(
            any(s.lower_ in _EN_LISTENER for s in _en_main_subjects(_subtree_span(w)))
            and not any(t.pos_ in EN_REFERENT_POS and _en_thing(t, named, False) for t in w.subtree)
            for w in wished
        )
    return (
        root.tag_ in ("VB", "VBP")  # without a subject (the caller's test), a present form commands
        and len(tokens) <= 3
        and not any(c.dep_.startswith("aux") or c.dep_ == "neg" for c in root.children)
        # a determiner or a pronoun introduces a thing, whatever the tagger makes of it ("Love the
        # tattoo" with "tattoo" read as an adverb); a taste is the speaker's with "I" left out
        and not any(t.pos_ in (*EN_REFERENT_POS, "PRON", "DET") for t in tokens)
        and root.lemma_.lower() not in EN_PREFERENCE_VERBS
        and not is_task(span.text)
    )


def _subtree_span(t):
    return t.doc[t.left_edge.i : t.right_edge.i + 1]


def _en_main_subjects(span) -> list:
    """Subjects of the clause's own predicate (not of a relative clause: "that book you recommended")."""
    inside = {t.i for t in span}
    heads = [t for t in span if t.head.i not in inside or t.head.i == t.i]
    roots = {t.i for t in heads}
    heads += [t for t in span if t.dep_ == "conj" and t.head.i in roots]
    return [c for h in heads for c in h.children if c.dep_ in _EN_SUBJECT_DEPS and c.i in inside]


def _en_copular(head) -> bool:
    """A verdict's predicate: be / look / sound, or an adjective-like participle after be
    ("must've been breathtaking")."""
    return head.lemma_ in _EN_COPULAS or (
        head.tag_ in ("VBG", "VBN") and any(c.dep_ == "aux" and c.lemma_ == "be" for c in head.children)
    )


def _en_described(t, named: set[str]) -> bool:
    """In a verdict: a thing described ("an ongoing adventure of learning") or owned ("my health")."""
    if t.pos_ != "NOUN" or not _en_thing(t, named, False):
        return False
    if t.dep_ == "attr":
        return any(c.dep_ in ("amod", "compound", "prep") for c in t.children)
    return any(c.dep_ == "poss" and c.lower_ not in _EN_LISTENER for c in t.children)


def _en_negated_visit(span) -> bool:
    """A negated experience of a place or an event ("Never been to something like that", "I haven't
    been there") is a fact even when a pronoun stands for it."""
    return any(
        t.lemma_ == "be"
        and any(c.dep_ == "neg" for c in t.children)
        and any(c.dep_ == "prep" and any(g.dep_ == "pobj" for g in c.children) for c in t.children)
        for t in span
    )


def _en_named_thing(t, named: set[str]) -> bool:
    return (
        # the tagger reads an emoji as a number ("lol same 😂"): a number is written as one
        ((t.pos_ == "PROPN" and t.text[:1].isupper()) or (t.pos_ == "NUM" and t.like_num))
        and t.lower_ not in named
        and t.lemma_.lower() not in EN_PHATIC_WORDS
    )


def en_list_item(span, named: set[str]) -> bool:
    """A clause with no verb that names a thing: an item of the list (or an apposition) of the
    clause before it, cut off at a comma ("onions", "educational books"). A noun conjoined to a
    noun ("and" / "or") is an item even when alone it would read as an address or a phatic
    word ("and honey.", "love, acceptance, and hope"); an address, a sound, a question tag, or
    thanks joined to a verb are not ("buddy!", "huh?", "I'll send it tomorrow, and thanks!")."""
    tokens = [t for t in span if not t.is_punct and not t.is_space]
    if not tokens or any(t.pos_ in ("VERB", "AUX") for t in tokens):
        return False
    return any(
        _en_thing(t, named, False)
        or (t.dep_ == "conj" and t.pos_ == "NOUN" and t.head.pos_ in _EN_NOUNS and t.lower_ not in named)
        for t in tokens
    )


def _en_thing(t, named: set[str], question: bool) -> bool:
    """A token naming something: a noun, a name, a number, a verb or place adverb outside the
    phatic vocabulary (in a question: no verb but a gerund, "For walking or running?")."""
    if t.lower_ in named or en_phatic_word(t) or TYPED_SOUND.fullmatch(t.lower_):
        return False
    if t.dep_ in ("intj", "punct"):
        return False  # the parser's own reading: "Aw bless", the kiss of "Sleep well x"
    if t.pos_ == "ADJ" and t.dep_ in ("amod", "compound") and _laughter_phrase(t.head):
        return t.is_alpha  # "got a puppy lol": the parser took the laughter for the phrase's noun
    if t.pos_ in ("PROPN", "NUM"):
        return _en_named_thing(t, named)
    if not t.text.rstrip("-").isalpha():  # "my family- they…": the tokenizer keeps the dash
        return False
    if t.pos_ == "NOUN":
        head = t
        while head.dep_ == "compound" and head.head.i != head.i:
            head = head.head  # "guinea pig": the phrase's own determiners
        marks = [c for c in head.children if c.dep_ in _EN_SPECIFIER_DEPS]
        if t.lemma_.lower() in EN_ADDRESS_TERMS and not marks:
            return False  # "Cheers mate": the listener addressed
        if not question and any(c.lower_ in _EN_DEMONSTRATIVES for c in marks):
            return False  # pointed back at: "this path"
        if question and _en_about_pointed(head):
            return False  # "What's the best part you remember from it?": about what was just said
        if _en_thanked_for(head, marks):
            return False  # "thank you for your patience", "Thanks for having my back"
        # a bare lower-case singular subject opening its sentence is a reaction the tagger read as
        # a noun ("cool sounds good", "omg love it"): English needs a determiner there. A mass noun
        # needs none, inside a sentence or capitalised at its start: "where pottery takes me",
        # "Yoga keeps me sane", "Art gives me so much joy" say what the thing is to the speaker
        return not (
            t.dep_.startswith("nsubj")
            and t.tag_ == "NN"
            and not list(t.children)
            and t.is_lower
            and t.i == t.sent.start
        )
    if t.pos_ == "VERB" and not t.is_stop:
        if t.tag_ in ("VBG", "VBN", "VBD") and (
            t.dep_ in ("acomp", "amod", "oprd") or (t.dep_ == "conj" and _en_adjective_like(t.head))
        ):
            return False  # a participle used as an adjective: "so exciting", "resilient and focused"
        if question:
            return (
                t.tag_ == "VBG"
                and t.dep_ in _EN_GERUND_DEPS
                and not any(c.dep_.startswith("aux") for c in t.children)
            )
        return True
    # "home", "abroad", "downtown": a place; "-ly" adverbs are manner and stance ("honestly")
    return t.pos_ == "ADV" and not question and not t.is_stop and not t.lemma_.lower().endswith("ly")


def _laughter_phrase(head) -> bool:
    """Laughter read as the noun of a phrase with its own determiner ("a puppy lol")."""
    return bool(TYPED_SOUND.fullmatch(head.lower_)) and any(c.dep_ in ("det", "poss") for c in head.children)


def _en_about_pointed(noun) -> bool:
    """A noun whose own complement is a pronoun pointing back ("the best part … from it", "the
    funniest bit about that"): it names a piece of what was just said, not a thing of its own; a
    compound, a name or a number inside still names one ("the drive to Lyon about it")."""
    inside = [t for t in noun.subtree if t.i != noun.i]
    return (
        # "the …": a piece of something known; "a blazer like that" is a thing compared to it
        any(c.dep_ == "det" and c.lower_ == "the" for c in noun.children)
        and any(
            t.lower_ in _EN_POINTING
            and t.pos_ == "PRON"
            and t.dep_ == "pobj"
            and t.head.lower_ not in ("like", "than")
            for t in inside
        )
        and not any(c.dep_ == "compound" for c in noun.children)
        and not any(t.pos_ in ("PROPN", "NUM", "NOUN") for t in inside)
    )


def _en_thanked_for(noun, marks) -> bool:
    """A noun in what thanks or an apology is for, owned and nothing else: the listener's ("thank
    you for your patience") or the object of a light verb ("Thanks for having my back") is the
    listener's own act said back to them; an article, a compound or a content verb names a thing
    ("Thanks for the book", "Thanks for my birthday card", "Thanks for feeding my cat")."""
    if not marks or not all(c.dep_ == "poss" and c.pos_ == "PRON" for c in marks):
        return False
    if noun.dep_ == "poss" or any(c.dep_ in ("compound", "prep") for c in noun.children):
        return False
    if any(a.dep_.startswith(("nsubj", "csubj")) for a in (noun, *noun.ancestors)):
        return False  # "my mom will appreciate that": who thanks is no thanked-for act
    thanked = any(a.lemma_.lower() in EN_THANKS_WORDS or a.lower_ in EN_THANKS_WORDS for a in noun.ancestors)
    owner = marks[0].lower_
    return thanked and (owner in _EN_LISTENER or (noun.head.pos_ == "VERB" and en_phatic_word(noun.head)))


def _en_adjective_like(t) -> bool:
    return t.pos_ == "ADJ" or any(c.dep_ == "acomp" for c in t.children)


def en_phatic_word(t) -> bool:
    """The token's lemma (or, for a verbal noun the tagger left unlemmatised, its verb: "staying")
    is in the phatic vocabulary, or is a day word of the moment of speaking."""
    forms = {t.lemma_.lower(), t.lower_}
    if t.lower_.endswith("ing") and len(t.lower_) > 5:
        stem = t.lower_[:-3]
        forms |= {stem, stem + "e", stem[:-1]}
    return bool(forms & (EN_PHATIC_WORDS | DEICTIC_DAY_WORDS))


def _en_speaker_state(span) -> bool:
    """The speaker's own state ("I'm excited!", "I've been feeling anxious lately"), a fact, unless it
    concerns the listener, hands its point to another clause or is the formulaic "I'm good"."""
    words = {t.lower_ for t in span}
    if words & _EN_LISTENER or {"each", "other"} <= words:
        return False
    for t in span:
        if t.pos_ not in ("ADJ", "VERB") or t.dep_ not in ("acomp", "ROOT") or t.tag_ not in ("JJ", "VBN"):
            continue
        head = t if t.dep_ == "ROOT" else t.head
        has_i = any(c.dep_.startswith("nsubj") and c.lower_ == "i" for c in head.children)
        if (
            has_i
            and (head.i == t.i or head.lemma_ in _EN_STATE_VERBS)
            and t.lemma_.lower() not in EN_ACK_ADJECTIVES
            and t.lower_ not in EN_ACK_ADJECTIVES
            and not any(c.dep_ in _EN_CLAUSAL_DEPS for c in (*t.children, *head.children))
        ):
            return True
    return False
