"""Starting-hand rankings: the order a seat plays its share of hands by — the equity of each
hand against one random hand, both to the river — hold'em's against the exact published
figures, every class reproducible from its own stream, and a share played exactly."""

from __future__ import annotations

import numpy as np

from simulations.cards import parse_cards
from simulations.models.starting_hands import (
    HOLDEM,
    HOLDEM_DEALS,
    OMAHA,
    combo_index,
    combo_of,
    equities,
    holdem_classes,
    omaha_classes,
    plays,
    ranking,
)

# jazbo.com/poker/huholdem.html: every head-to-head matchup enumerated, a tie worth half.
EXACT = {"AA": 0.8520371, "KK": 0.8239568, "QQ": 0.7992516, "JJ": 0.7746947, "TT": 0.7501178,
         "99": 0.7205725, "88": 0.6916304, "AKs": 0.6704463, "77": 0.6623602}  # fmt: skip


def test_holdem_equities_match_the_exact_published_figures() -> None:
    """The shipped estimates (200,000 deals a class) within four standard errors of the exact
    equity against a random hand."""
    shipped = ranking(HOLDEM)
    names = list(shipped.names)
    classes, _ = holdem_classes()
    by_class = dict(zip(classes.tolist(), shipped.equity.tolist(), strict=True))
    for name, exact in EXACT.items():
        se = (exact * (1 - exact) / HOLDEM_DEALS) ** 0.5
        assert abs(by_class[names.index(name)] - exact) < 4 * se, name


def test_the_order_of_holdem_hands() -> None:
    order = ranking(HOLDEM)
    top = order.share_at_least(parse_cards("As Ah"))
    assert top == 6 / 1326  # aces alone at the top
    assert order.share_at_least(parse_cards("Kd Kc")) == 12 / 1326
    # Worst against a random hand: three-deuce offsuit.
    assert order.share_at_least(parse_cards("3c 2d")) == 1.0
    assert order.share_at_least(parse_cards("Ah Kh")) < order.share_at_least(parse_cards("Ah Kd"))


def test_every_class_rebuilds_exactly_from_its_own_stream() -> None:
    """The table file holds what the build makes: a few classes of each game rebuilt alone."""
    holdem = ranking(HOLDEM)
    assert np.array_equal(
        equities(HOLDEM, [0, 50, 168]),
        holdem.equity[np.unique(holdem.classes, return_index=True)[1]][[0, 50, 168]],
    )
    classes = omaha_classes()
    omaha = ranking(OMAHA)
    assert np.array_equal(classes, omaha.classes)
    first = np.unique(classes, return_index=True)[1]
    picks = [0, 7_777, 16_431]
    assert np.array_equal(equities(OMAHA, picks), omaha.equity[first[picks]])


def test_omaha_classes_are_the_hands_under_an_exchange_of_suits() -> None:
    """16,432 classes of the 270,725 four-card hands; a hand and its suits exchanged share one."""
    classes = omaha_classes()
    assert len(classes) == 270_725 and classes.max() + 1 == 16_432
    a = combo_index(parse_cards("As Ks Qh Jh"))[0]
    b = combo_index(parse_cards("Ad Kd Qc Jc"))[0]
    c = combo_index(parse_cards("As Kh Qs Jh"))[0]
    assert classes[a] == classes[b] != classes[c]
    order = ranking(OMAHA)
    # Double-suited aces and kings among the very best; a rainbow 2-2-2-7 among the worst.
    assert order.share_at_least(parse_cards("As Ks Ah Kh")) < 0.001
    assert order.share_at_least(parse_cards("2c 2d 2h 7s")) > 0.99


def test_the_kernel_indexes_hands_as_the_ranking_does() -> None:
    rng = np.random.default_rng(4)
    for count in (2, 4):
        for _ in range(500):
            cards = rng.choice(52, count, replace=False).astype(np.int64)
            assert combo_of(cards.reshape(1, count), 0, count) == combo_index(cards)[0]


def test_a_seat_plays_exactly_its_share_of_hands() -> None:
    """Hands ranked together are played with the chance that makes the share exact: the chance
    of each hand (its place above its class, its class's share) summed over every hand is the
    share asked for, and a seat plays a hand when its uniform is below that chance."""
    order = ranking(HOLDEM)
    for vpip in (0.0, 0.137, 0.25, 0.5, 1.0):
        chance = np.clip((vpip - order.above) / order.width, 0.0, 1.0)
        assert abs(chance.mean() - vpip) < 1e-12
        for index in (0, 500, 1325):
            a, w = order.above[index], order.width[index]
            for u in (0.0, 0.3, 0.999):
                assert plays(a, w, u, vpip) == (u < chance[index])
