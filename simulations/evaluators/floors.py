"""Hand floors: the weakest high hand a written description covers.

Qualifiers such as a bad-beat jackpot's losing hand are written the way a cardroom
posts them: by ranks (``AAATT`` is aces full of tens, ``8888`` four eights with any
kicker, ``KKQQ`` kings up over queens, ``9TJQK`` a king-high straight, ``9TJQK flush``
the straight flush) or by category (``full house``, ``quads``, ``straight flush``).
The floor is the smallest packed value that a hand matching the description can have,
so "at least this good" is one integer comparison.
"""

from __future__ import annotations

from collections import Counter

from simulations.cards import RANK_SYMBOLS
from simulations.evaluators.hand_value import Category, describe_value, pack_value
from simulations.evaluators.high_tables import straight_top
from simulations.spec import echo

_CATEGORY_WORDS = {
    "high card": Category.HIGH_CARD,
    "pair": Category.ONE_PAIR,
    "one pair": Category.ONE_PAIR,
    "two pair": Category.TWO_PAIR,
    "three of a kind": Category.THREE_OF_A_KIND,
    "trips": Category.THREE_OF_A_KIND,
    "set": Category.THREE_OF_A_KIND,
    "straight": Category.STRAIGHT,
    "flush": Category.FLUSH,
    "full house": Category.FULL_HOUSE,
    "boat": Category.FULL_HOUSE,
    "four of a kind": Category.FOUR_OF_A_KIND,
    "quads": Category.FOUR_OF_A_KIND,
    "straight flush": Category.STRAIGHT_FLUSH,
}
_SHAPES = {
    (4,): Category.FOUR_OF_A_KIND,
    (4, 1): Category.FOUR_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (3,): Category.THREE_OF_A_KIND,
    (3, 1): Category.THREE_OF_A_KIND,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (2, 2): Category.TWO_PAIR,
    (2, 2, 1): Category.TWO_PAIR,
    (2,): Category.ONE_PAIR,
    (2, 1): Category.ONE_PAIR,
    (2, 1, 1): Category.ONE_PAIR,
    (2, 1, 1, 1): Category.ONE_PAIR,
}


def hand_floor(text: str) -> int:
    """The lowest high-hand value matching ``text``; ``ValueError`` says what is wrong."""
    words = " ".join(text.lower().replace("-", " ").split())
    if words in _CATEGORY_WORDS:
        return pack_value(_CATEGORY_WORDS[words])
    if words == "royal flush":
        return pack_value(Category.STRAIGHT_FLUSH, 12)
    ranks_text, flush = text.strip(), False
    if words.endswith(" flush"):
        ranks_text, flush = text.strip()[: -len("flush")].strip(), True
    ranks = _parse_ranks(ranks_text, text)
    counts = Counter(ranks)
    # Order the ranks as a hand value does: bigger groups first, then higher ranks.
    ordered = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = tuple(counts[r] for r in ordered)
    if flush or shape == (1, 1, 1, 1, 1):
        return _five_distinct(ordered, flush, text)
    if shape in _SHAPES:
        return pack_value(_SHAPES[shape], *ordered)
    if all(c == 1 for c in shape):
        return pack_value(Category.HIGH_CARD, *ordered)
    raise ValueError(f"{echo(text)} is not a poker hand (no hand holds those ranks)")


def describe_floor(text: str) -> str:
    """The floor in words: 'a flush' for a category, 'Aces full of Tens' for ranks."""
    words = " ".join(text.lower().replace("-", " ").split())
    if words in _CATEGORY_WORDS:
        return f"any {_CATEGORY_WORDS[words].label}"
    return describe_value(hand_floor(text))


def _parse_ranks(ranks_text: str, text: str) -> list[int]:
    symbols = ranks_text.upper().replace("10", "T").replace(" ", "")
    if not symbols:
        raise ValueError(f"{echo(text)} names no ranks")
    ranks = []
    for symbol in symbols:
        if symbol not in RANK_SYMBOLS:
            known = ", ".join(repr(w) for w in (*_CATEGORY_WORDS, "royal flush"))
            raise ValueError(
                f"{echo(text)} is not a hand: {symbol!r} is not a rank (write ranks like 'AAATT' "
                f"or a category: {known})"
            )
        ranks.append(RANK_SYMBOLS.index(symbol))
    if len(ranks) > 5:
        raise ValueError(f"{echo(text)} has {len(ranks):,} cards; a hand has at most five")
    return ranks


def _five_distinct(ordered: list[int], flush: bool, text: str) -> int:
    if len(ordered) != 5 or len(set(ordered)) != 5:
        raise ValueError(f"{echo(text)}: a flush or straight is written as five different ranks")
    mask = sum(1 << r for r in ordered)
    top = straight_top(mask)
    if top >= 0:
        return pack_value(Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT, top)
    return pack_value(Category.FLUSH if flush else Category.HIGH_CARD, *ordered)
