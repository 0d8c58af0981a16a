"""The guts job's statistics against exact values computed here from the rule texts: how
many deals a game lasts, how it ends, the pot it ends on and its tail, the thresholds a job
names, and the texts' worked example of the cap played as forced deals.

Rules 000_1a86611de8d3f5f7.txt, 'Guts'.  The exact values come from the texts' own rules and
counting: "Each player's hand usually consists of a reduced poker hand of either 2 or 3
cards. The cards are ranked as in regular 5-card poker, but in some variations straights and
flushes count and in some they do not" — in two-card guts (G2) they do not, so a hand's
value is its two ranks, and two hands tie exactly when their ranks are the same.  With every
player staying in with a fixed chance, whatever his cards, the deals are independent, and
the number of deals, the endings and the pot follow from a few per-deal chances by a Markov
chain (a geometric law).  None of it reads the kernel or the reference engine.
"""

from __future__ import annotations

import math
from functools import cache
from math import comb, perm
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from service.jobfile import JobFileError, parse_job_text
from service.kinds import render
from simulations.models.guts import GutsModel
from workers.job import Job

RANKS = 13


def _ordered_hands(k: int) -> int:
    """Ordered k-tuples of disjoint two-card hands from one deck."""
    return math.prod(comb(52 - 2 * i, 2) for i in range(k))


def _all_tie(k: int) -> float:
    """P(k two-card hands, dealt from one deck, all have the same ranks): a pair's four
    cards make at most two hands of it (6 ways for the first, 1 for the second); two ranks
    of four cards each make at most four hands, each taking one card of each rank."""
    pairs = RANKS * (comb(4, 2) if k == 1 else 6 if k == 2 else 0)
    unpaired = comb(RANKS, 2) * (perm(4, k) ** 2 if k <= 4 else 0)
    return (pairs + unpaired) / _ordered_hands(k)


def _binomial(n: int, k: int, p: float) -> float:
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def _end_chance(players: int, chance: float) -> tuple[float, float]:
    """A deal of G2 ends the game when exactly one player stays in ("The game ends when
    only a single player has the guts to stay in") or every player in ties for the best
    hand (a winner and no loser): the chances of each."""
    alone = _binomial(players, 1, chance)
    tie = sum(_binomial(players, k, chance) * _all_tie(k) for k in range(2, players + 1))
    return alone, tie


@cache
def _values() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every two-card value as (rank needs, order key): a pair outranks any two different
    ranks, pairs by rank, the others by the high rank and then the low ("ranked as in
    regular 5-card poker")."""
    needs, keys = [], []
    for high in range(RANKS):
        for low in range(high + 1):
            need = np.zeros(RANKS, np.int64)
            need[high] += 1
            need[low] += 1
            needs.append(need)
            keys.append(1000 + high if high == low else 20 * high + low)
    return np.array(needs), np.array(keys)


def _three_hands_top() -> tuple[float, float, float]:
    """P(among three two-card hands from one deck, the best value is held by exactly 1, 2
    or 3 of them), by counting the ways to deal every ordered triple of values: suits do not
    matter, so rank r's four cards are shared out C(4, a) C(4 - a, b) C(4 - a - b, c) ways."""
    needs, keys = _values()
    count = len(keys)
    choose = np.array([[comb(n, k) for k in range(5)] for n in range(5)], np.int64)
    a = needs[:, None, None, :]
    b = needs[None, :, None, :]
    c = needs[None, None, :, :]
    left_b = np.clip(4 - a, 0, 4)
    left_c = np.clip(4 - a - b, 0, 4)
    fits = (a + b + c <= 4).all(axis=-1)
    ways = (choose[4, a] * choose[left_b, b] * choose[left_c, c]).prod(axis=-1) * fits
    ka = keys[:, None, None] * np.ones((1, count, count), np.int64)
    kb = keys[None, :, None] * np.ones((count, 1, count), np.int64)
    kc = keys[None, None, :] * np.ones((count, count, 1), np.int64)
    best = np.maximum(np.maximum(ka, kb), kc)
    holders = (ka == best).astype(np.int64) + (kb == best) + (kc == best)
    total = ways.sum()
    assert total == _ordered_hands(3)
    return tuple(float(ways[holders == h].sum() / total) for h in (1, 2, 3))  # type: ignore[return-value]


def _job(text: str) -> Job:
    return parse_job_text(text, "toml")


def _run(job: Job, shards: int) -> dict[str, Any]:
    tally = job.run_shard(0)
    for shard in range(1, shards):
        tally = tally.merge(job.run_shard(shard))
    return job.report(tally)


def _inside(value: float, low: float, high: float) -> bool:
    return low - 1e-9 <= value <= high + 1e-9


def _near(value: float, low: float, high: float) -> bool:
    """Inside a report's 95 % interval widened about its centre to four standard errors
    (99.99 %): a test that checks many intervals at once must not fail by chance."""
    centre, half = (low + high) / 2, (high - low) / 2 * 4 / 1.96
    return _inside(value, centre - half, centre + half)


SIX_LOOSE = """kind = "guts"
sessions = 200000
seed = 31
shard_size = 100000

game = "G2"
[table]
players = 6

[policy]
stay = "probability"
chance = 0.5

[statistics]
deals_over = [5, 20, 40]
pot_over = [100, 10000, 1000000]
"""


@pytest.fixture(scope="module")
def six_loose() -> tuple[Job, dict[str, Any]]:
    job = _job(SIX_LOOSE)
    return job, _run(job, 2)


def test_six_players_loose_uncapped_deals_match_the_geometric_law(
    six_loose: tuple[Job, dict[str, Any]],
) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "The game ends when only a single player has
    the guts to stay in" — six players each in half the time, uncapped: a deal ends the game
    with chance q (one in, or all in tied), so the deals a game lasts are geometric: mean
    1/q, median the least d with 1 - (1 - q)^d >= 1/2, P(deals > d) = (1 - q)^d.  The
    report's intervals contain each exact value, no game is stopped and none censored."""
    _, report = six_loose
    alone, tie = _end_chance(6, 0.5)
    q = alone + tie
    deals = report["deals"]
    assert isinstance(deals, dict)
    assert report["censored"] == 0 and deals["censored"] == 0
    endings = {e["ending"]: e for e in report["endings"]}
    assert endings["censored"]["sessions"] == 0
    assert sum(e["sessions"] for e in endings.values()) == report["sessions"] == 200_000
    assert _inside(1 / q, deals["mean_ci95_low"], deals["mean_ci95_high"]), (1 / q, deals)
    median = next(d for d in range(1, 1000) if 1 - (1 - q) ** d >= 0.5)
    reported = next(x for x in deals["quantiles"] if x["q"] == 0.5)
    assert _inside(median, reported["ci95_low"], reported["ci95_high"]), (median, reported)
    assert reported["ci95_high"] - reported["ci95_low"] <= 1
    for over in report["deals_over"]:
        exact = (1 - q) ** over["deals"]
        assert _near(exact, over["ci95_low"], over["ci95_high"]), (over, exact)
    for name, share in (("one player in", alone / q), ("every player in tied", tie / q)):
        found = endings[name]
        assert _near(share, found["ci95_low"], found["ci95_high"]), (name, share, found)


def test_six_players_loose_uncapped_final_pot_has_no_finite_mean(
    six_loose: tuple[Job, dict[str, Any]],
) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "Because the pot can double (or more) each
    round, the stakes can grow exponentially" — with six players each in half the time,
    every loser matching the pot, the pot's growth factor G on a deal has E[G] near 2 (a
    deal with k in and one winner multiplies it by k - 1): the final pot has no finite mean.
    The report says so in words, gives no mean for the pot or any seat's net, and the text
    rendering carries the sentence; games whose chips passed 2^52 went on to their end."""
    job, report = six_loose
    # E[G] from the texts: k in with one best hand -> k - 1 losers; nobody in -> the same pot.
    lower = _binomial(6, 0, 0.5) + sum(
        _binomial(6, k, 0.5) * (k - 1) * (1 - _all_tie(k)) for k in range(2, 7)
    )
    growth = report["growth"]
    assert isinstance(growth, dict)
    assert growth["mean_ci95_low"] > 1.5 and lower > 1.5
    final = report["final_pot"]
    assert isinstance(final, dict)
    assert final["tail"] == "no finite mean" and final["mean"] is None
    assert "has no finite mean" in final["tail_note"]
    for seat in report["seats"]:
        assert seat["net"]["mean"] is None and seat["net"]["tail"] == "no finite mean"
    assert report["inexact_sessions"] > 0  # huge pots happened, and their games finished
    text = render(job, report)
    assert "no finite mean" in text and "no mean given" in text


G2_THREE = """kind = "guts"
sessions = 400000
seed = 5
shard_size = 200000

game = "G2"
[table]
players = 3

[policy]
stay = "probability"
chance = 0.5

[statistics]
pot_over = [3, 6, 12, 48]
"""


def test_three_players_final_pot_law_by_markov_chain() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "the player who stays in with the best hand
    receives the current pot, while all other players who stayed in must match the pot to
    form the next pot".  Three players each in half the time: a deal ends the game (one
    in, or all in tied: chance e), doubles the pot (all three in, one best hand: chance d)
    or leaves it as it was (two in, or three with two tied for best, or nobody in).  The
    pot a game ends on is 3 * 2^J with J geometric, P(J = j) = (d/(d+e))^j e/(d+e): its
    quantiles, P(pot > k antes), its mean 3e/(e - d), the per-deal E[G] = 1 - e + d and
    E[G^2] = 1 - e + 3d, each inside the report's interval."""
    report = _run(_job(G2_THREE), 2)
    top1, _, top3 = _three_hands_top()
    assert abs(top3 - _all_tie(3)) < 1e-15  # the two countings agree where they meet
    alone, tie = _end_chance(3, 0.5)
    e = alone + tie
    d = _binomial(3, 3, 0.5) * top1
    final = report["final_pot"]
    assert isinstance(final, dict)
    stop = e / (d + e)

    def cdf(pot: float) -> float:  # P(final <= pot)
        j = math.floor(math.log2(pot / 3)) if pot >= 3 else -1
        return 1 - (1 - stop) ** (j + 1)

    for quantile in final["quantiles"]:
        exact = next(3 * 2**j for j in range(200) if cdf(3 * 2**j) >= quantile["q"])
        assert _inside(exact, quantile["ci95_low"], quantile["ci95_high"]), (quantile, exact)
    assert final["tail"] in ("finite variance", "undetermined", "finite mean, infinite variance")
    growth = report["growth"]
    assert isinstance(growth, dict)
    rho1, rho2 = 1 - e + d, 1 - e + 3 * d
    assert _near(rho1, growth["mean_ci95_low"], growth["mean_ci95_high"]), (rho1, growth)
    assert _near(rho2, growth["mean_square_ci95_low"], growth["mean_square_ci95_high"])
    if final["mean_ci95_low"] is not None:
        mean = 3 * e / (e - d)
        assert _near(mean, final["mean_ci95_low"], final["mean_ci95_high"]), (mean, final)
    for over in report["pot_over"]:
        exact = 1 - cdf(over["times_ante"])  # the pot never shrinks: largest = final
        assert _near(exact, over["ci95_low"], over["ci95_high"]), (over, exact)
    endings = {x["ending"]: x for x in report["endings"]}
    for name, share in (("one player in", alone / e), ("every player in tied", tie / e)):
        assert _near(share, endings[name]["ci95_low"], endings[name]["ci95_high"])


CAP_EXAMPLE = """kind = "guts"
sessions = 200
seed = 1
shard_size = 200

game = "G3-CAP50"
[table]
players = 5

[policy]
stay = "probability"
chance = 0.5
"""
_IN_THREE = (
    '[[forced]]\nhands = ["As Ah Ad", "Ks Kh 2c", "Qs Jh 9d", "2d 3h 5s", "4c 6d 8h"]\n'
    "stay = [true, true, true, false, false]\n"
)
_IN_ONE = (
    '[[forced]]\nhands = ["As Ah Ad", "Ks Kh 2c", "Qs Jh 9d", "2d 3h 5s", "4c 6d 8h"]\n'
    "stay = [false, true, false, false, false]\n"
)


def test_the_texts_fifty_dollar_cap_example_as_forced_deals() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "if there are 5 players with an ante of $1,
    the pot started at $5. If there were 3 doublings, the pot is now at $40. Suppose the
    “cap the pot at $50″ rule were in force. Then, if another doubling occurred, each loser
    would pay $40, but the pot would now be at $50 and the extra $30 would be set aside as
    the ante once there’s a hand with a winner and no loser" — played as forced deals:
    four deals with three in (one best hand, two losers: the pot doubles), then one player
    in.  Every game is those five deals: pots 5, 10, 20, 40, 50; one payment over the cap;
    $30 set aside; the game ends on the $50 pot."""
    text = CAP_EXAMPLE + _IN_THREE * 4 + _IN_ONE
    report = _run(_job(text), 1)
    n = report["sessions"]
    assert [(row["deal"], row["mean_pot"]) for row in report["pot_by_deal"]] == [
        (1, 5.0),
        (2, 10.0),
        (3, 20.0),
        (4, 40.0),
        (5, 50.0),
    ]
    assert report["cap_hits"] == n and report["cap_hit_sessions"] == n
    assert report["set_aside_total"] == 30 * n
    deals = report["deals"]
    assert isinstance(deals, dict)
    assert deals["minimum"] == deals["maximum"] == 5.0
    final = report["final_pot"]
    assert isinstance(final, dict)
    assert all(q["ci95_low"] <= 50 <= q["ci95_high"] for q in final["quantiles"])
    endings = {x["ending"]: x["sessions"] for x in report["endings"]}
    assert endings["one player in"] == n


def test_forced_deals_then_play_on() -> None:
    """After its forced deals a game plays on by its policies: with one forced deal that
    keeps the game going ("all other players who stayed in must match the pot"), every game
    lasts at least two deals and plays its first at the antes."""
    report = _run(_job(CAP_EXAMPLE + _IN_THREE), 1)
    deals = report["deals"]
    assert isinstance(deals, dict)
    assert deals["minimum"] >= 2 and deals["maximum"] > 2
    assert report["pot_by_deal"][1]["mean_pot"] == 10.0


def test_a_deal_limit_is_named_and_its_effect_said() -> None:
    """No silent limit: players who never stay in never end a game ("The game ends when
    only a single player has the guts to stay in"), so every game reaches the job's
    max_deals and is counted as censored, the deals' mean is not given and the note says
    what the bound does."""
    text = CAP_EXAMPLE.replace("chance = 0.5", "chance = 0.0").replace(
        "players = 5", "players = 5\nmax_deals = 30"
    )
    report = _run(_job(text), 1)
    assert report["censored"] == report["sessions"] == 200
    deals = report["deals"]
    assert isinstance(deals, dict)
    assert deals["mean"] is None and deals["censored"] == 200
    assert "max_deals = 30" in deals["censored_note"] and "lower bound" in deals["censored_note"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('[[forced]]\nhands = ["As Ah Ad"]\nstay = [true]\n', r"forced\[0\]\.stay"),
        (
            '[[forced]]\nhands = ["As Ah Ad", "Ks Kh 2c", "Qs Jh 9d", "2d 3h 5s", "4c 6d"]\n'
            "stay = [true, true, true, false, false]\n",
            r"forced\[0\]\.hands\[4\]: 3 cards",
        ),
        (
            '[[forced]]\nhands = ["As Ah Ad", "Ks Kh 2c", "Qs Jh 9d", "2d 3h 5s", "4c 6d Zz"]\n'
            "stay = [true, true, true, false, false]\n",
            r"forced\[0\]\.hands\[4\]: .*Zz",
        ),
        (
            '[[forced]]\nhands = ["As Ah Ad", "Ks Kh 2c", "Qs Jh 9d", "2d 3h 5s", "4c 6d As"]\n'
            "stay = [true, true, true, false, false]\n",
            r"forced\[0\]\.hands\[4\]: As is dealt twice",
        ),
        (
            '[[forced]]\nhands = ["As Ah Ad", "Ks Kh 2c", "Qs Jh 9d", "2d 3h 5s", "4c 6d 8h"]\n'
            'stay = [true, true, true, false, "no"]\n',
            r"forced\[0\]\.stay",
        ),
        (
            '[[forced]]\nhands = ["As Ah Ad", "Ks Kh 2c", "Qs Jh 9d", "2d 3h 5s", "4c 6d 8h"]\n'
            "stay = [true, true, true, false, false]\nfold = 1\n",
            r"forced\[0\]\.fold: is not a known setting",
        ),
        ("[statistics]\npot_over = [10, 5]\n", r"statistics\.pot_over: must increase"),
        ("[statistics]\npot_over = [0]\n", r"statistics\.pot_over: must hold integers"),
        ("[statistics]\ndeals_over = []\n", r"statistics\.deals_over: must be a list"),
        ("[statistics]\ndeals_over = 5\n", r"statistics\.deals_over: must be a list"),
        ("[statistics]\nquantiles = [0.5]\n", r"statistics\.quantiles: is not a known"),
    ],
)
def test_bad_statistics_and_forced_deals_name_their_field(extra: str, message: str) -> None:
    """A forced deal with too few seats or cards, a bad card, a card dealt twice, a stay
    that is not true or false, an unknown key; thresholds that do not increase, are not
    positive, are empty or not a list: each refused naming its field."""
    with pytest.raises(JobFileError, match=message):
        _job(CAP_EXAMPLE + extra)


def test_a_session_reckons_pots_past_64_bits() -> None:
    """The reference session keeps no pot limit of its own: a pot past 2^63 chips (the
    texts' "the stakes can grow exponentially") is reckoned in Python's integers by the
    same rule functions, chip for chip."""
    from simulations.engine.guts import GutsSession
    from simulations.engine.variants import GUTS_VARIANTS

    game = GUTS_VARIANTS["G2"].guts()
    session = GutsSession(game, 10, rng=np.random.default_rng(3), max_deals=40)
    while not session.finished:
        for seat in session.legal_actions().seats:
            session.act(seat, "in")
    # Ten hands never all tie, so the game runs its 40 deals, the pot multiplied each time.
    assert not session.ended and session.deals == 40
    assert session.pot + session.set_aside + sum(session.nets) == 0
    assert session.pot > 2**63 and max(abs(v) for v in session.nets) > 2**63


def test_model_refuses_a_forced_deal_that_deals_a_card_twice() -> None:
    """The model checks a forced deal as its reader does (for callers that build it)."""
    from simulations.models.guts import Forced
    from simulations.models.guts_policy import Stay, StayPolicy

    policy = StayPolicy(Stay.PROBABILITY, chance=0.5)
    forced = Forced(((0, 1, 2), (2, 3, 4)), (True, True))
    with pytest.raises(ValueError, match="dealt twice"):
        GutsModel("G3", 2, (policy, policy), forced=(forced,))
