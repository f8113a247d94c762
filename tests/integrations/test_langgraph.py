"""LangGraph: `SimpleMemStore` as a compiled graph's store, its batch ops, and the same answers as
LangGraph's own InMemoryStore for everything that does not depend on ranking."""

from __future__ import annotations

import asyncio
from typing import TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore, GetOp, InvalidNamespaceError, ListNamespacesOp, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore

from simplemem_graph.integrations.langgraph import SimpleMemStore, namespace_name, namespace_tuple

LISBON = "I moved to Lisbon in March to start a job at Feedzai."


class ChatState(TypedDict, total=False):
    user_id: str
    message: str
    recalled: list[str]
    seen: list[str]


def remember_and_recall(state: ChatState, *, store: BaseStore) -> ChatState:
    """Recall what the store knows about the message, then remember the message."""
    namespace = ("memories", state["user_id"])
    hits = store.search(namespace, query=state["message"], limit=3)
    seen = [*state.get("seen", []), state["message"]]
    store.put(namespace, f"m{len(seen)}-{abs(hash(state['message']))}", {"text": state["message"]})
    return {"recalled": [hit.value["text"] for hit in hits], "seen": seen}


def _graph(store: BaseStore):
    builder = StateGraph(ChatState)
    builder.add_node("remember_and_recall", remember_and_recall)
    builder.add_edge(START, "remember_and_recall")
    builder.add_edge("remember_and_recall", END)
    return builder.compile(checkpointer=InMemorySaver(), store=store)


def test_a_compiled_graph_remembers_across_threads(memory):
    graph = _graph(SimpleMemStore(memory))
    first = graph.invoke({"user_id": "ana", "message": LISBON}, {"configurable": {"thread_id": "t1"}})
    assert first["recalled"] == []

    later = graph.invoke(
        {"user_id": "ana", "message": "Which city do I live in now?"}, {"configurable": {"thread_id": "t2"}}
    )
    assert later["recalled"] == [LISBON]
    assert later["seen"] == ["Which city do I live in now?"]  # the thread's own state: not thread t1's
    other_user = graph.invoke(
        {"user_id": "ben", "message": "Which city do I live in now?"}, {"configurable": {"thread_id": "t3"}}
    )
    assert other_user["recalled"] == []
    # The items are our memories, readable without LangGraph in namespace "memories.ana".
    hits = memory.with_namespace("memories.ana").search("Where does the user live?").hits
    assert any("Lisbon" in hit.event.text for hit in hits)


def test_batch_reads_before_puts_and_abatch(memory):
    store = SimpleMemStore(memory)
    ns = ("prefs", "ana")
    results = store.batch(
        [
            PutOp(ns, "tea", {"drink": "tea", "cups": 2}),
            GetOp(ns, "tea"),
            PutOp(ns, "tea", {"drink": "green tea", "cups": 3}),  # the last put of a key wins
            ListNamespacesOp(),
        ]
    )
    assert results[0] is None and results[1] is None and results[3] == []
    assert store.get(ns, "tea").value == {"drink": "green tea", "cups": 3}

    async def run():
        return await store.abatch([GetOp(ns, "tea"), SearchOp(("prefs",), filter={"cups": {"$gte": 3}})])

    got, found = asyncio.run(run())
    assert got.value == {"drink": "green tea", "cups": 3}
    assert [(item.namespace, item.key) for item in found] == [(ns, "tea")]


def test_update_and_delete_replace_the_memories(memory):
    store = SimpleMemStore(memory)
    ns = ("memories", "ana")
    store.put(ns, "home", {"text": LISBON})
    assert [i.key for i in store.search(ns, query="Where do I live?")] == ["home"]

    store.put(ns, "home", {"text": "I moved to Porto in June and work remotely now."})
    texts = [h.event.text for h in memory.with_namespace("memories.ana").search("Lisbon Feedzai job").hits]
    assert texts and not any("Lisbon" in t for t in texts)
    found = store.search(ns, query="Where do I live?")
    assert [i.value["text"] for i in found] == ["I moved to Porto in June and work remotely now."]
    assert found[0].score is not None and found[0].created_at < found[0].updated_at

    store.put(ns, "home", {"text": "I moved to Porto in June and work remotely now."})  # same text again
    assert [i.key for i in store.search(ns, query="Where do I live?")] == ["home"]

    store.delete(ns, "home")
    assert store.get(ns, "home") is None
    assert store.search(ns, query="Where do I live?") == []
    assert not memory.with_namespace("memories.ana").search("Porto").hits


def test_query_search_ranks_memories_then_fills_with_unindexed_items(memory):
    store = SimpleMemStore(memory)
    ns = ("memories", "ana")
    store.put(ns, "pet", {"text": "My dog Biscuit is a three year old beagle."})
    store.put(ns, "home", {"text": LISBON})
    store.put(ns, "raw", {"text": "Biscuit hates the vacuum cleaner."}, index=False)
    found = store.search(ns, query="What kind of dog do I have?", limit=5)
    assert found[0].key == "pet" and found[0].score is not None
    assert found[-1].key == "raw" and found[-1].score is None  # kept, but no memory: never ranked
    assert store.search(ns, query="What kind of dog do I have?", limit=1)[0].key == "pet"


def test_a_prefix_keeps_applications_apart(memory):
    app, other = SimpleMemStore(memory, prefix=("app",)), SimpleMemStore(memory, prefix=("other",))
    app.put(("prefs",), "lang", {"value": "pt"})
    other.put(("prefs",), "lang", {"value": "de"})
    assert app.get(("prefs",), "lang").value == {"value": "pt"}
    assert app.list_namespaces() == [("prefs",)] and other.list_namespaces() == [("prefs",)]
    assert [i.value for i in SimpleMemStore(memory).search(("app",))] == [{"value": "pt"}]
    assert "app.prefs" in memory.namespaces()
    with pytest.raises(InvalidNamespaceError):
        SimpleMemStore(memory, prefix=("a.b",))


def test_namespace_names_round_trip_and_bad_ones_are_typed_errors():
    for namespace in [("memories", "ana"), ("a/b", "c|d", "50%"), ("用户", "张伟"), ("tab\there",)]:
        name = namespace_name(namespace)
        assert not any(c in name for c in "/|\\\t")
        assert namespace_tuple(name) == namespace
    assert namespace_name(("memories", "ana")) == "memories.ana"
    with pytest.raises(InvalidNamespaceError):
        namespace_name(("x" * 200,))


def test_puts_of_reserved_or_invalid_namespaces_are_refused(memory):
    store = SimpleMemStore(memory)
    with pytest.raises(InvalidNamespaceError):
        store.put(("langgraph", "x"), "k", {"a": 1})
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(("a.b",), "k", {"a": 1})])
    with pytest.raises(NotImplementedError):
        store.put(("a",), "k", {"a": 1}, ttl=5)


# ---- the same answers as LangGraph's InMemoryStore ---------------------------------------------------
OPERATIONS = [
    ("put", ("users", "ana", "prefs"), "lang", {"value": "pt", "rank": 1}),
    ("put", ("users", "ana", "prefs"), "tz", {"value": "Europe/Lisbon", "rank": 2}),
    ("put", ("users", "ben", "prefs"), "lang", {"value": "de", "rank": 3, "tags": ["x", "y"]}),
    ("put", ("users", "ben", "notes"), "n1", {"meta": {"kind": "todo"}, "rank": 5}),
    ("put", ("docs", "v1"), "readme", {"rank": 7}),
    ("put", ("users", "ana", "prefs"), "lang", {"value": "en", "rank": 4}),
    ("delete", ("users", "ana", "prefs"), "tz", None),
    ("put", ("tmp",), "gone", {"rank": 0}),
    ("delete", ("tmp",), "gone", None),
]
QUERIES = [
    ("get", ("users", "ana", "prefs"), "lang"),
    ("get", ("users", "ana", "prefs"), "tz"),
    ("get", ("users", "zed"), "lang"),
    ("search", ("users",), {}),
    ("search", ("users",), {"filter": {"rank": {"$gt": 2}}}),
    ("search", ("users",), {"filter": {"value": "de"}}),
    ("search", ("users",), {"filter": {"meta": {"kind": "todo"}}}),
    ("search", ("users",), {"filter": {"rank": {"$gte": 3, "$lt": 5}}}),
    ("search", ("users",), {"filter": {"value": {"$ne": "de"}}}),
    ("search", ("users",), {"filter": {"tags": ["x", "y"]}}),
    ("search", ("users",), {"limit": 1, "offset": 1}),
    ("search", (), {}),
    ("list", {}),
    ("list", {"prefix": ("users",)}),
    ("list", {"prefix": ("users", "*", "prefs")}),
    ("list", {"suffix": ("prefs",)}),
    ("list", {"prefix": ("users",), "max_depth": 2}),
    ("list", {"limit": 2, "offset": 1}),
]


def _answer(store: BaseStore, query):
    if query[0] == "get":
        item = store.get(query[1], query[2])
        return None if item is None else (item.namespace, item.key, item.value)
    if query[0] == "search":
        return [(i.namespace, i.key, repr(i.value)) for i in store.search(query[1], **query[2])]
    return store.list_namespaces(**query[1])


def test_same_answers_as_langgraphs_in_memory_store(any_memory):
    ours, reference = SimpleMemStore(any_memory, prefix=(any_memory.namespace,)), InMemoryStore()
    for store in (ours, reference):
        for op, namespace, key, value in OPERATIONS:
            if op == "put":
                store.put(namespace, key, value)
            else:
                store.delete(namespace, key)
    for query in QUERIES:
        expected = _answer(reference, query)
        if query[0] == "list":
            # InMemoryStore also lists namespaces that hold nothing (emptied by a delete, or made
            # by a get of a missing key); ours lists those with items, then pages.
            page = {k: query[1].pop(k) for k in ("limit", "offset") if k in query[1]}
            listed = [ns for ns in _answer(reference, query) if reference.search(ns, limit=1)]
            start = page.get("offset", 0)
            expected = listed[start : start + page.get("limit", 100)]
            query[1].update(page)
        assert _answer(ours, query) == expected, query


def test_an_async_graph_uses_the_async_store_methods(memory):
    async def recall_then_remember(state: ChatState, *, store: BaseStore) -> ChatState:
        namespace = ("memories", state["user_id"])
        hits = await store.asearch(namespace, query=state["message"], limit=3)
        await store.aput(namespace, f"k{len(hits)}", {"text": state["message"]})
        return {"recalled": [hit.value["text"] for hit in hits]}

    builder = StateGraph(ChatState)
    builder.add_node("recall_then_remember", recall_then_remember)
    builder.add_edge(START, "recall_then_remember")
    builder.add_edge("recall_then_remember", END)
    graph = builder.compile(checkpointer=InMemorySaver(), store=SimpleMemStore(memory))

    async def talk():
        await graph.ainvoke({"user_id": "ana", "message": LISBON}, {"configurable": {"thread_id": "a1"}})
        return await graph.ainvoke(
            {"user_id": "ana", "message": "Which city do I live in now?"},
            {"configurable": {"thread_id": "a2"}},
        )

    assert asyncio.run(talk())["recalled"] == [LISBON]
