"""A figure with no currency is money when the words before it say it is an amount."""

from simplemem_graph.compress.amounts import NO_CURRENCY, find_amounts


def _money(text: str) -> list[str]:
    return [m.value for m in find_amounts(text) if m.kind == "money"]


def test_a_bare_figure_after_an_amount_word_is_money():
    assert _money("尾款28800，梅姐说月底前付") == ["28800 CNY"]
    assert _money("首付到了，26400，财务打的") == ["26400 CNY"]  # the figure opens the next clause
    assert _money("bill them the 920. cc the accounts team") == [f"920 {NO_CURRENCY}"]
    assert _money("Bev paid 1,400 today") == [f"1400 {NO_CURRENCY}"]
    assert _money("the rate we agreed is 2350 per box") == [f"2350 {NO_CURRENCY}"]


def test_a_bare_figure_without_an_amount_context_stays_a_number():
    assert _money("他们有230个SKU") == []
    assert _money("the API allows 20 req/s") == []
    assert _money("38 patients couldn't book") == []
    assert _money("we paid in 2026") == []  # a year
    assert _money("the outage ran from 11:40 to 15:10, bookings paid later") == []  # times
    assert _money("快递单号20260101") == []  # an identifier
