"""The guts job (``kind = "guts"``): the compiled session loop against the reference session,
analytic cases, the job file, and the same result however the job is run."""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest

from service.jobfile import JobFileError, parse_job_text
from simulations.cards import parse_cards
from simulations.engine.guts import GutsSession
from simulations.engine.guts_events import DealStarted, SetAsideOverCap
from simulations.engine.variants import GUTS_VARIANTS
from simulations.models.guts import GutsModel
from simulations.models.guts_kernel import DEAL_LIMIT, session_draws
from simulations.models.guts_policy import Stay, StayPolicy, decision_value, threshold_for_top
from simulations.rules.guts_rules import NO_CAP, over_cap

SESSIONS_COMPARED = 108_000  # over every guts game: the agreement test's volume


def _reference(model: GutsModel, seed: int, deals: int) -> GutsSession:
    """The session the compiled loop played from ``seed``, replayed by the reference
    :class:`GutsSession` on the same decks and the same decisions."""
    game = model.game
    decks, decide, challenge = session_draws(seed, deals, model.players, game.cards)
    needed = model.players * game.cards  # a deal uses no more of its deck
    session = GutsSession(
        game, model.players, button=0, decks=[d[:needed] for d in decks], max_deals=model.max_deals
    )
    while not session.finished:
        legal = session.legal_actions()
        seat = legal.seats[0]
        policy = model.policies[seat]
        if policy.stay is Stay.THRESHOLD:
            stays = decision_value(game, tuple(int(c) for c in session.cards(seat))) >= (
                policy.threshold
            )
        else:
            draws = challenge if legal.challenge else decide
            stays = draws[session.deals - 1, seat] < policy.chance
        session.act(seat, "in" if stays else "out")
    return session


def _same(exact: int, carried: float) -> bool:
    return exact == int(carried)


def _close(exact: int, carried: float) -> bool:
    """A chip count carried in float64 agrees with the exact one to 53 significant bits (a
    few roundings' worth), or exactly when both are small."""
    return abs(exact - carried) <= 1e-12 * max(1.0, abs(exact))


def _mixed_policies(
    model_game: str, players: int, rng: np.random.Generator
) -> tuple[StayPolicy, ...]:
    game = GUTS_VARIANTS[model_game].guts()
    policies = []
    for _ in range(players):
        if rng.random() < 0.75:
            top = float(rng.choice([0.1, 0.3, 0.5, 0.8, 1.0]))
            policies.append(StayPolicy(Stay.THRESHOLD, threshold_for_top(game, top)))
        else:
            policies.append(StayPolicy(Stay.PROBABILITY, chance=float(rng.uniform(0.1, 0.6))))
    return tuple(policies)


@pytest.mark.parametrize("code", list(GUTS_VARIANTS))
def test_the_compiled_loop_plays_every_session_as_the_reference_does(code: str) -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts' — every rule of every guts game file (the match,
    the worst hand doubling, the vicious rule, the dealer's pair and challenge, the cap and
    its set-aside): over 108,000 sessions (an equal share for each game, a case each) the
    compiled loop and the reference session, on the same decks and decisions, end alike
    deal for deal — deals played, how the game ended, every seat's net, the pot each deal
    was played for, the chips set aside."""
    rng = np.random.default_rng([2024, list(GUTS_VARIANTS).index(code)])
    compared = 0
    per_game = SESSIONS_COMPARED // len(GUTS_VARIANTS)
    game = GUTS_VARIANTS[code].guts()
    for batch in range(4):
        players = int(rng.integers(2, min(game.max_players, 8) + 1))
        model = GutsModel(code, players, _mixed_policies(code, players, rng), max_deals=25)
        seeds = rng.integers(0, 2**64, size=per_game // 4, dtype=np.uint64)
        out = model._play(seeds, model.policies)
        for i, seed in enumerate(seeds):
            session = _reference(model, int(seed), int(out.deals[i]))
            pots = [e.pot for e in session.events if isinstance(e, DealStarted)]
            # Chips within 2^52 are carried exactly; past it, to 53 significant bits.
            exact = bool(out.exact[i])
            nets = [int(v) for v in out.nets[i]]
            shown = [int(p) for p in out.pots[i, : min(len(pots), out.pots.shape[1])]]
            agree = _same if exact else _close
            assert (
                session.deals == out.deals[i]
                and (session.stopped is None) == (out.outcome[i] != DEAL_LIMIT)
                and sum(isinstance(e, SetAsideOverCap) for e in session.events) == out.hits[i]
                and all(agree(a, b) for a, b in zip(session.nets, nets, strict=True))
                and agree(max(pots), out.largest[i])
                and agree(session.set_aside, out.aside[i])
                and all(agree(a, b) for a, b in zip(pots, shown, strict=False))
            ), (code, batch, i, int(seed))
            compared += 1
    assert compared == per_game and per_game * len(GUTS_VARIANTS) >= 100_000


def _two_card_pairs() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every ordered pair of disjoint two-card hands, as the values of the first and of the
    second, from the reference evaluator by enumeration."""
    game = GUTS_VARIANTS["G2"].guts()
    hands = list(itertools.combinations(range(52), 2))
    values = np.array([game.ranking(h).value for h in hands], dtype=np.int64)
    bits = np.array([(1 << a) | (1 << b) for a, b in hands], dtype=np.uint64)
    first, second = np.meshgrid(np.arange(len(hands)), np.arange(len(hands)), indexing="ij")
    disjoint = (bits[first] & bits[second]) == 0
    return values[first][disjoint], values[second][disjoint]


def _first_deal_ends(model: GutsModel, sessions: int, seed: int) -> tuple[int, int]:
    seeds = np.random.default_rng(seed).integers(0, 2**64, size=sessions, dtype=np.uint64)
    deals = model._play(seeds, model.policies).deals
    return int(np.sum(deals == 1)), sessions


def test_two_players_always_in_end_only_on_a_tie() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': the game ends "when only a single player has
    the guts to stay in" — two players always in end it only by tying (a winner and no
    loser), and the pot stays at the antes, each loser matching it: the chance of ending
    on a deal is the chance of a tie, counted over every pair of two-card hands."""
    first, second = _two_card_pairs()
    tie = float(np.mean(first == second))
    everyone = StayPolicy(Stay.THRESHOLD, -1)
    model = GutsModel("G2", 2, (everyone, everyone), max_deals=200)
    ended, n = _first_deal_ends(model, 200_000, 5)
    half_width = 4 * (tie * (1 - tie) / n) ** 0.5
    assert abs(ended / n - tie) < half_width, (ended / n, tie)
    seeds = np.random.default_rng(6).integers(0, 2**64, size=2000, dtype=np.uint64)
    out = model._play(seeds, model.policies)
    assert set(out.largest.tolist()) == {2}  # 'two players will be forced to add' — here one
    reached = out.pots[out.pots > 0]
    assert reached.size and set(reached.tolist()) == {2}


def test_fixed_thresholds_end_the_first_deal_as_enumeration_says() -> None:
    """Two players with fixed thresholds: the first deal ends the game when exactly one
    stays in, or both do and tie; its chance counted over every deal of two hands lies
    within the simulation's interval."""
    game = GUTS_VARIANTS["G2"].guts()
    pair = game.ranking(parse_cards("2c 2d")).value
    queen = game.ranking(parse_cards("Qc 9d")).value
    first, second = _two_card_pairs()
    in0, in1 = first >= pair, second >= queen
    expected = float(np.mean((in0 ^ in1) | (in0 & in1 & (first == second))))
    model = GutsModel(
        "G2", 2, (StayPolicy(Stay.THRESHOLD, pair), StayPolicy(Stay.THRESHOLD, queen))
    )
    ended, n = _first_deal_ends(model, 200_000, 8)
    assert abs(ended / n - expected) < 4 * (expected * (1 - expected) / n) ** 0.5


def test_the_caps_fifty_dollar_example() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Guts': "each loser would pay $40, but the pot would
    now be at $50 and the extra $30 would be set aside as the ante" — the arithmetic the
    session and the compiled loop share."""
    assert over_cap(0, 80, 50) == 30
    assert over_cap(0, 40, 50) == 0
    assert over_cap(40, 40, NO_CAP) == 0


_JOB = """kind = "guts"
sessions = 30000
seed = 9
shard_size = 10000

game = "G3-CAP50"
[table]
players = 4

[policy]
top = 0.35
"""


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ('game = "G3-CAP50"', "game"),
        ("players = 4", "table.players"),
        ("top = 0.35", "policy.top"),
    ],
)
def test_bad_guts_jobs_name_their_field(change: str, field: str) -> None:
    """A code that is not a guts game, players beyond the game's, a share outside 0..1."""
    bad = {
        "game": 'game = "NT"',
        "table.players": "players = 19",
        "policy.top": "top = 1.5",
    }[field]
    with pytest.raises(JobFileError, match="job: " + field.replace(".", r"\.") + ": "):
        parse_job_text(_JOB.replace(change, bad), "toml")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('hand = "Qs Jh"', r"policy\.hand: give hand or top"),
        ("[[seats]]\ntop = 0.5\n", r"seats: gives 1 seats; the game seats 4"),
        ("[equilibrium]\nsearch = true\n", r"equilibrium\.search: plays the equilibrium"),
        ("[equilibrium]\nrounds = 3\n", r"equilibrium\.rounds: goes with search = true"),
    ],
)
def test_more_bad_guts_jobs(extra: str, message: str) -> None:
    """Two thresholds for one policy, seats that do not fill the table, a policy beside the
    equilibrium, search settings without the search."""
    if extra.startswith("hand"):
        text = _JOB.replace("top = 0.35", f"top = 0.35\n{extra}")
    else:
        text = _JOB + extra
    with pytest.raises(JobFileError, match=message):
        parse_job_text(text, "toml")


def test_a_hand_threshold_needs_the_cards_a_decision_holds() -> None:
    """G3-DEALER deals the third card up to the players in: a decision holds two cards."""
    text = _JOB.replace('game = "G3-CAP50"', 'game = "G3-DEALER"').replace(
        "top = 0.35", 'hand = "Qs Jh 4d"'
    )
    with pytest.raises(JobFileError, match=r"policy\.hand: a decision holds 2 cards"):
        parse_job_text(text, "toml")
    job = parse_job_text(text.replace('"Qs Jh 4d"', '"Qs Jh"'), "toml")
    assert isinstance(job.model, GutsModel)


def test_the_equilibrium_search_is_reported_and_the_same_in_every_shard() -> None:
    """Fictitious play over thresholds: the result names the share staying in and seat 0's
    value there; two shards of the job found the same equilibrium (the merge checks it)."""
    text = _JOB.replace(
        "[policy]\ntop = 0.35\n", "[equilibrium]\nsearch = true\nrounds = 4\nsessions = 2000\n"
    )
    job = parse_job_text(text, "toml")
    tally = job.run_shard(0).merge(job.run_shard(1))
    report = job.report(tally)
    found = report["equilibrium"]
    assert found is not None and 0 < found["top"] <= 1 and "or better" in found["threshold"]


def test_a_pot_past_what_a_float_holds_refuses_the_job_in_one_line() -> None:
    """rules/guts: without a cap "the pot is matched" by every loser, so a pot multiplies each
    deal; uncapped three-card guts with six players staying 99 % of the time passes float64's
    range within its deal limit, and the job says so rather than failing on a NaN."""
    job = parse_job_text(
        'kind = "guts"\nsessions = 2_000\nseed = 3\ngame = "G3"\n[table]\nplayers = 6\n'
        '[policy]\nstay = "probability"\nchance = 0.99\n',
        "toml",
    )
    with pytest.raises(ValueError, match=r"^a game's pot passed 1\.8e\+308 chips.*max_deals"):
        job.run_shard(0)
    capped = parse_job_text(
        'kind = "guts"\nsessions = 2_000\nseed = 3\ngame = "G3"\n[table]\nmax_deals = 50\n'
        'players = 6\n[policy]\nstay = "probability"\nchance = 0.99\n',
        "toml",
    )
    assert capped.run_shard(0).sessions > 0
