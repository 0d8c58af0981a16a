"""The compiled replay kernel against the reference engine, hand for hand.

Random games (every limit, caps, spreads, units, antes, one to three blinds, both pot-limit
blind conventions, the full and half bet rules) and random hands (2 to 10 players, stacks
from all in before the deal to deep) are played through :class:`Hand` with actions chosen
at random among the legal ones — short all-in raises, the smallest, largest and a middle
bet, folds — and then replayed through the kernel from the same deck order: every final
stack, payoff and contribution must be the reference's.  Mutated sequences must be
rejected at the same action and for the same reason as the reference rejects them.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import pytest

from simulations.cards import parse_cards
from simulations.engine.events import Awarded, BetOrRaised
from simulations.engine.game import (
    HOLDEM_PHASES,
    BigBlindAnteOrder,
    ForcedBets,
    GameDefinition,
    JackpotDrop,
    Rake,
    StraddleRule,
)
from simulations.engine.hand import (
    Action,
    ActionKind,
    BlindSeats,
    Hand,
    IllegalAction,
    LegalActions,
    Post,
)
from simulations.engine.limits import (
    HeadsUpCap,
    IncompleteRaiseRule,
    Limit,
    PotLimitBlinds,
    ShortAllInRule,
    Stakes,
)
from simulations.engine.phases import Deal
from simulations.engine.pots import OddChipRule
from simulations.engine.replay import (
    ActionCode,
    HandRecord,
    ReplayBatch,
    ReplayRules,
    ReplayStatus,
    record_hand,
    replay,
    replay_games,
)
from simulations.evaluators.selection import OMAHA
from tests.factories import holdem, seven_card_stud

BLIND_STRUCTURES: tuple[tuple[tuple[int, ...], bool], ...] = (
    ((1, 2), False),
    ((2, 4), False),
    ((1, 2, 4), False),
    ((1, 1, 2), True),  # three blinds, the first on the button
    ((2,), False),
    ((), False),  # antes only
)


@dataclass(frozen=True)
class Played:
    hand: Hand
    record: HandRecord


def _random_game(chooser: random.Random, limit: Limit, index: int) -> GameDefinition:
    """A hold'em game; blind structures, conventions and bet rules cycle with ``index`` so
    that every combination is met, the rest is drawn."""
    blinds, on_button = BLIND_STRUCTURES[index % len(BLIND_STRUCTURES)]
    ante = chooser.choice([0, 0, 1, 2, 5]) if blinds else chooser.choice([1, 2, 5])
    big = blinds[-1] if blinds else 2
    unit = chooser.choice([1, 1, 1, 2]) if big % 2 == 0 else 1
    max_bets = chooser.choice([None, 3, 4, 5])
    lifted = chooser.random() < 0.7
    if limit is Limit.FIXED:
        small = chooser.choice([big, 2 * big])
        stakes = Stakes(small, 2 * small, chooser.choice([1, 2]), (), max_bets, lifted, unit)
    elif limit is Limit.SPREAD:
        spreads = []
        for _ in range(chooser.randint(1, 4)):  # the last spread repeats
            low = unit * chooser.randint(1, 5)
            spreads.append((low, low * chooser.choice([1, 2, 5])))
        stakes = Stakes(big, spreads=tuple(spreads), max_bets=max_bets, unit=unit)
        stakes = replace(stakes, cap_lifted_heads_up=lifted)
    else:
        stakes = Stakes(chooser.choice([big, big, 2 * big]), max_bets=None, unit=unit)
        if chooser.random() < 0.2:
            stakes = replace(stakes, max_bets=chooser.choice([3, 4]), cap_lifted_heads_up=lifted)
    half = limit in (Limit.FIXED, Limit.SPREAD) and (index // len(BLIND_STRUCTURES)) % 2 == 1
    pot_blinds = list(PotLimitBlinds)[(index // len(BLIND_STRUCTURES)) % 2]
    game = holdem(
        limit,
        blinds=blinds,
        ante=ante,
        stakes=stakes,
        incomplete_raise=IncompleteRaiseRule.HALF_BET if half else IncompleteRaiseRule.FULL_BET,
        pot_limit_blinds=pot_blinds,
        # Both whole-chip odd-chip rules and both readings of short all-ins in a row, so
        # that the kernel is held to each.
        odd_chips=ODD_CHIP_RULES[(index // 3) % len(ODD_CHIP_RULES)],
        short_all_ins=list(ShortAllInRule)[(index // 5) % len(ShortAllInRule)],
    )
    if stakes.max_bets is not None and stakes.cap_lifted_heads_up:
        # Both readings of when the cap's heads-up exception counts the players.
        game = replace(game, heads_up_cap=list(HeadsUpCap)[(index // 7) % len(HeadsUpCap)])
    if on_button:
        game = replace(game, forced=ForcedBets(ante, blinds, first_blind_on_button=True))
    if blinds and (index // 2) % 3 == 1:
        # A big-blind ante, paid after the blind or before it.
        order = list(BigBlindAnteOrder)[(index // 6) % 2]
        ante_of_table = chooser.choice([1, big, 2 * big])
        forced = replace(game.forced, big_blind_ante=ante_of_table, big_blind_ante_order=order)
        game = replace(game, forced=forced)
    if blinds and index % 3 != 2:
        game = replace(game, straddles=[StraddleRule.LIVE, StraddleRule.MISSISSIPPI][index % 3])
    return game


def _blind_posters(game: GameDefinition, n: int, button: int) -> list[int]:
    blinds = game.forced.blinds
    if n == 2 and len(blinds) == 2:
        return [button, (button + 1) % 2]
    first = button if game.forced.first_blind_on_button else button + 1
    return [(first + j) % n for j in range(len(blinds))]


def _random_straddles(
    game: GameDefinition, stacks: list[int], button: int, chooser: random.Random
) -> list[tuple[int, int]]:
    """One to three straddles the game allows (each a minimum raise or more, up to all in),
    or none."""
    blinds = game.forced.blinds
    n = len(stacks)
    if game.straddles is StraddleRule.NONE or not blinds or chooser.random() < 0.4:
        return []
    posters = _blind_posters(game, n, button)
    to_match = last_raise = blinds[-1]
    previous = posters[-1]
    found: list[tuple[int, int]] = []
    for k in range(chooser.randint(1, 3)):
        if game.straddles is StraddleRule.LIVE or k > 0:
            seat = (previous + (1 if game.straddles is StraddleRule.LIVE else -1)) % n
        else:
            seat = chooser.randrange(n)
        if seat in posters or any(s == seat for s, _ in found):
            break
        chips = stacks[seat] - min(game.forced.ante, stacks[seat])
        minimum = to_match + last_raise
        if chips < minimum:
            break
        total = chooser.choice([minimum, min(chips, 2 * minimum), chips])
        found.append((seat, total))
        last_raise, to_match, previous = total - to_match, total, seat
    return found


ODD_CHIP_RULES = (OddChipRule.FIRST_LEFT_OF_BUTTON, OddChipRule.ONE_EACH_LEFT_OF_BUTTON)


def _random_stack(chooser: random.Random, forced: int) -> int:
    kind = chooser.random()
    if kind < 0.08:
        return chooser.randint(1, max(1, forced))  # all in before the deal, or nearly
    if kind < 0.3:
        return chooser.randint(1, 30)
    if kind < 0.9:
        return chooser.randint(20, 400)
    return chooser.randint(400, 3000)


def _legal_totals(legal: LegalActions, unit: int, chooser: random.Random) -> list[int]:
    """The smallest, largest and a middle legal total, on the betting unit, and all in."""
    assert legal.wager is not None
    low, high = legal.wager
    candidates = {low, high, chooser.randint(low, high), legal.all_in_total}
    on_low, on_high = -(-low // unit) * unit, high // unit * unit
    if on_low <= on_high:
        candidates |= {on_low, on_high, chooser.randint(on_low // unit, on_high // unit) * unit}
    return sorted(
        t
        for t in candidates
        if (t == legal.all_in_total and t <= high) or (low <= t <= high and t % unit == 0)
    )


def _choose(legal: LegalActions, unit: int, chooser: random.Random) -> Action:
    options = [Action.check() if legal.can_check else Action.call()] * 2
    if legal.can_fold:
        options.append(Action.fold())
    if legal.wager is not None:
        options += [legal.wager_action(t) for t in _legal_totals(legal, unit, chooser)]
    return chooser.choice(options)


def _play(game: GameDefinition, seed: int) -> Played:
    """One random hand through the reference engine, recorded as it is played."""
    chooser = random.Random(seed)
    blinds = game.forced.blinds
    n = chooser.randint(max(2, len(blinds)), 10)
    forced = game.forced.ante + (blinds[-1] if blinds else 0)
    stacks = [_random_stack(chooser, forced) for _ in range(n)]
    button = chooser.randrange(n)
    deck = [int(c) for c in np.random.default_rng(seed).permutation(52)]
    straddles = _random_straddles(game, stacks, button, chooser)
    hand = Hand(game, stacks, button, deck=deck, straddles=straddles)
    actions = []
    while not hand.finished:
        action = _choose(hand.legal_actions(), game.stakes.unit, chooser)
        actions.append(action)
        hand.act(action)
    record = HandRecord(tuple(stacks), button, tuple(deck), tuple(actions), tuple(straddles))
    return Played(hand, record)


def _random_hands(
    limit: Limit, games: int, hands_per_game: int, seed: int
) -> list[tuple[GameDefinition, list[Played]]]:
    chooser = random.Random(seed)
    found = []
    for index in range(games):
        game = _random_game(chooser, limit, index)
        first = seed * 1_000_003 + index * hands_per_game
        found.append((game, [_play(game, first + k) for k in range(hands_per_game)]))
    return found


def _assert_same_results(game: GameDefinition, played: list[Played]) -> Counter[str]:
    """Replay ``played`` through the kernel and demand the reference's results; count what
    the hands exercised."""
    batch = ReplayBatch.from_records(p.record for p in played)
    result = replay(game, batch, contributions=True)
    assert result.contributed is not None
    assert not result.errors()
    seen: Counter[str] = Counter()
    for i, p in enumerate(played):
        hand = p.hand
        n = hand.n
        seen["hands"] += 1
        assert result.stacks[i, :n].tolist() == list(hand.stacks), (game, p.record)
        assert result.payoffs[i, :n].tolist() == list(hand.payoffs)
        assert result.contributed[i, :n].tolist() == hand.contributed
        seen["side pots"] += len(hand.pots) > 1
        awards = Counter(e.pot for e in hand.events if isinstance(e, Awarded))
        seen["split pots"] += any(count > 1 for count in awards.values())
        seen["odd chips"] += any(
            count > 1 and hand.pots[pot].amount % count for pot, count in awards.items()
        )
        wagers = [e for e in hand.events if isinstance(e, BetOrRaised)]
        seen["short all-ins"] += any(e.all_in and not e.reopens for e in wagers)
        seen["no actions"] += not p.record.actions
        seen["showdowns"] += sum(not f for f in hand.folded) > 1
        seen["straddles"] += bool(p.record.straddles)
        seen["big-blind antes"] += any(hand.dead)
    return seen


@pytest.mark.parametrize("limit", list(Limit))
def test_kernel_matches_reference_on_random_hands(limit: Limit) -> None:
    """Rules 002_376df91f076a6501.txt, 'Limits', 'Incomplete bet or raise', 'All in before
    the deal' and '"All in"': 2,400 random hands per limit (48 games of 50) end with every
    stack, payoff and contribution the reference engine gives."""
    seen: Counter[str] = Counter()
    for game, played in _random_hands(
        limit, games=48, hands_per_game=50, seed=list(Limit).index(limit)
    ):
        seen += _assert_same_results(game, played)
    assert seen["hands"] == 2400
    # The random play must reach the cases the rules are about, or this test proves little.
    cases = ("side pots", "split pots", "short all-ins", "showdowns", "no actions")
    for case in (*cases, "straddles", "big-blind antes"):
        assert seen[case] > 0, (case, seen)


@pytest.mark.slow
@pytest.mark.parametrize("limit", list(Limit))
def test_kernel_matches_reference_on_many_random_hands(limit: Limit) -> None:
    """The same as the quick test on 10,000 hands per limit (250 games of 40)."""
    seen: Counter[str] = Counter()
    seed = 100 + list(Limit).index(limit)
    for game, played in _random_hands(limit, games=250, hands_per_game=40, seed=seed):
        seen += _assert_same_results(game, played)
    assert seen["hands"] == 10_000 and seen["odd chips"] > 0


def _reference_verdict(game: GameDefinition, record: HandRecord) -> tuple[int, str, Hand]:
    """Where the reference engine stops on ``record``: (index, reason, hand); index -1 when
    it completes, the number of actions when they run out first."""
    hand = Hand(game, record.stacks, record.button, deck=record.deck, straddles=record.straddles)
    for index, action in enumerate(record.actions):
        try:
            hand.act(action)
        except IllegalAction as err:
            return index, str(err), hand
    if not hand.finished:
        return len(record.actions), f"the actions ran out: seat {hand.actor} is to act", hand
    return -1, "", hand


def _mutate(record: HandRecord, chooser: random.Random) -> HandRecord:
    """One random change of an action sequence: a total bumped out of range or off unit, a
    check facing a bet, a bet for a raise, an action too many, or too few."""
    actions = list(record.actions)
    wagers = [i for i, a in enumerate(actions) if a.total is not None]
    how = chooser.choice(["bump", "replace", "insert", "append", "truncate"])
    if how == "bump" and wagers:
        i = chooser.choice(wagers)
        total = actions[i].total
        assert total is not None
        bumped = chooser.choice([total + 1, total - 1, total * 2, total + 10**6, 0, -5, 1])
        actions[i] = Action(actions[i].kind, bumped)
    elif how in ("replace", "insert", "append"):
        total = chooser.choice([1, 2, 3, 4, 8, 20, 100, 10**9])
        new = chooser.choice(
            [
                Action.fold(),
                Action.check(),
                Action.call(),
                Action.bet(total),
                Action.raise_to(total),
            ]
        )
        at = len(actions) if how == "append" else chooser.randint(0, len(actions))
        if how == "replace" and actions:
            actions[min(at, len(actions) - 1)] = new
        else:
            actions.insert(at, new)
    elif actions:
        del actions[chooser.randint(0, len(actions) - 1) :]
    return replace(record, actions=tuple(actions))


@pytest.mark.parametrize("limit", list(Limit))
def test_kernel_rejects_what_the_reference_rejects(limit: Limit) -> None:
    """Rules 002_376df91f076a6501.txt, 'Procedure' ('a check cannot answer a bet'), 'Limits'
    (amounts and units), 'Maximum number of raises' and 'Incomplete bet or raise' (no raise
    when not reopened): 1,200 mutated sequences per limit stop at the action where the
    reference engine raises IllegalAction, with its message; too few actions or one after
    the hand is over are reported too, and a sequence still legal completes identically."""
    chooser = random.Random(7 + list(Limit).index(limit))
    statuses: Counter[ReplayStatus] = Counter()
    for game, played in _random_hands(limit, games=24, hands_per_game=50, seed=50):
        records = [_mutate(p.record, chooser) for p in played]
        result = replay(game, ReplayBatch.from_records(records))
        for i, record in enumerate(records):
            index, reason, hand = _reference_verdict(game, record)
            status = ReplayStatus(int(result.status[i]))
            statuses[status] += 1
            if index < 0:
                assert status is ReplayStatus.COMPLETED, (record, result.message(i))
                assert result.stacks[i, : hand.n].tolist() == list(hand.stacks)
                continue
            assert int(result.failed_action[i]) == index, (record, reason, result.message(i))
            assert result.reason(i) == reason, record
            assert (status is ReplayStatus.TOO_FEW_ACTIONS) == (index == len(record.actions))
            assert not result.payoffs[i].any()
    for status in (
        ReplayStatus.COMPLETED,
        ReplayStatus.HAND_OVER,
        ReplayStatus.TOO_FEW_ACTIONS,
        ReplayStatus.OUT_OF_RANGE,
        ReplayStatus.CHECK_FACING_BET,
    ):
        assert statuses[status] > 0, (status, statuses)


_STRADDLE_REFUSALS = (
    ReplayStatus.STRADDLE_OUT_OF_ORDER,
    ReplayStatus.STRADDLE_AFTER_POST,
    ReplayStatus.STRADDLE_NOT_A_RAISE,
    ReplayStatus.STRADDLE_NOT_COVERED,
)


def test_kernel_refuses_the_straddles_the_reference_refuses() -> None:
    """Rules 002_376df91f076a6501.txt, 'Straddle bets': a straddle from the wrong seat, from
    a blind, short of a minimum raise or beyond the player's chips is refused as the
    reference engine refuses it (its message), and a sound one is posted."""
    chooser = random.Random(11)
    refused: Counter[ReplayStatus] = Counter()
    for game, played in _random_hands(Limit.NO, games=30, hands_per_game=30, seed=300):
        if game.straddles is StraddleRule.NONE:
            continue
        records = []
        for p in played:
            straddles = list(p.record.straddles)
            if straddles:
                seat, total = straddles[-1]
                n = len(p.record.stacks)
                how = chooser.choice(["seat", "blind", "small", "cover", "none"])
                if how == "seat":
                    straddles[-1] = ((seat + 1) % n, total)
                elif how == "blind":
                    straddles[-1] = (_blind_posters(game, n, p.record.button)[0], total)
                elif how == "small":
                    straddles[-1] = (seat, total - 1)
                elif how == "cover":
                    straddles[-1] = (seat, p.record.stacks[seat] + 1)
            records.append(replace(p.record, straddles=tuple(straddles)))
        result = replay(game, ReplayBatch.from_records(records))
        for i, record in enumerate(records):
            status = ReplayStatus(int(result.status[i]))
            deck, straddles = record.deck, record.straddles
            try:
                Hand(game, record.stacks, record.button, deck=deck, straddles=straddles)
            except ValueError as error:
                assert status in _STRADDLE_REFUSALS, (record, str(error))
                assert result.reason(i) == str(error), record
                assert int(result.failed_action[i]) == -1 and not result.payoffs[i].any()
                refused[status] += 1
            else:
                assert status not in _STRADDLE_REFUSALS, (record, result.message(i))
    assert all(refused[status] > 0 for status in _STRADDLE_REFUSALS), refused


def _reference_short_of(game: GameDefinition, record: HandRecord) -> list[int]:
    """Per action, the smallest full bet or raise where the reference engine takes a bet or
    raise below it (``LegalActions.full_total``: an all-in short of a full one), else 0."""
    hand = Hand(game, record.stacks, record.button, deck=record.deck, straddles=record.straddles)
    found = []
    for action in record.actions:
        legal = hand.legal_actions()
        short = (
            action.kind in (ActionKind.BET, ActionKind.RAISE)
            and legal.full_total is not None
            and action.total is not None
            and action.total < legal.full_total
        )
        found.append(legal.full_total if short and legal.full_total is not None else 0)
        hand.act(action)
    return found


@pytest.mark.parametrize("limit", list(Limit))
def test_one_call_plays_hands_of_many_games(limit: Limit) -> None:
    """One kernel call, the hands of 16 games (stakes, antes, blinds, caps, conventions) in
    turn, each under its own rules: every stack and contribution the reference engine gives,
    and every bet or raise short of a full one (with that full total) where it takes one."""
    games = _random_hands(limit, games=16, hands_per_game=12, seed=200 + list(Limit).index(limit))
    order = [(g, k) for k in range(12) for g in range(len(games))]  # the games interleaved
    played = [games[g][1][k] for g, k in order]
    rows = np.array([g for g, _ in order], dtype=np.int64)
    rules = [ReplayRules.from_game(game) for game, _ in games]
    batch = ReplayBatch.from_records(p.record for p in played)
    result = replay_games(rules, rows, batch, contributions=True, short_wagers=True)
    assert result.contributed is not None and result.short_of is not None
    assert not result.errors()
    shorts = 0
    for i, (p, (g, _)) in enumerate(zip(played, order, strict=True)):
        n = p.hand.n
        assert result.stacks[i, :n].tolist() == list(p.hand.stacks), (games[g][0], p.record)
        assert result.contributed[i, :n].tolist() == p.hand.contributed
        start, stop = int(batch.action_offsets[i]), int(batch.action_offsets[i + 1])
        expected = _reference_short_of(games[g][0], p.record)
        assert result.short_of[start:stop].tolist() == expected, p.record
        shorts += sum(1 for x in expected if x)
    assert shorts > 0
    # The same hands one game at a time give the same results.
    for g, (game, hands) in enumerate(games):
        alone = replay(game, ReplayBatch.from_records(p.record for p in hands))
        mine = [i for i, (h, _) in enumerate(order) if h == g]
        assert alone.stacks.tolist() == [
            result.stacks[i, : alone.stacks.shape[1]].tolist() for i in mine
        ]


def test_hands_of_many_games_are_checked_against_their_own() -> None:
    """A hand is refused for its own game's player range; rows must name a game."""
    three = holdem(Limit.NO, blinds=(1, 2, 4))
    two = holdem(Limit.NO, blinds=(1, 2))
    checks = (Action.call(), *(Action.check(),) * 7)  # to the showdown
    record = HandRecord((50, 50), 1, tuple(range(12)), checks)
    batch = ReplayBatch.from_records([record, record])
    rules = [ReplayRules.from_game(two), ReplayRules.from_game(three)]
    assert replay_games(rules, [0, 0], batch).completed == 2
    with pytest.raises(ValueError, match=r"hand 1 has 2 players; this game replays 3 to 10"):
        replay_games(rules, [0, 1], batch)
    with pytest.raises(ValueError, match=r"rows must name games 0\.\.1"):
        replay_games(rules, [0, 2], batch)
    with pytest.raises(ValueError, match="one game per hand"):
        replay_games(rules, [0], batch)


def _deck(holes: list[str], board: str, button: int) -> list[int]:
    """A deck order dealing ``holes[seat]`` and ``board``, burns from the unused cards."""
    n = len(holes)
    hole_cards = [parse_cards(h) for h in holes]
    board_cards = parse_cards(board)
    used = {c for h in hole_cards for c in h} | set(board_cards)
    spare = iter(c for c in range(52) if c not in used)
    order = [int(hole_cards[(button + 1 + k) % n][r]) for r in range(2) for k in range(n)]
    for street in (board_cards[:3], board_cards[3:4], board_cards[4:5]):
        order += [next(spare), *(int(c) for c in street)]
    return order + list(spare)


def test_sample_hand_through_the_kernel() -> None:
    """Rules 000_1a86611de8d3f5f7.txt, 'Sample hand': Bob's three nines beat Carol's kings
    and nines for the $26 pot; Alice loses $6, Carol $10."""
    alice = 0  # then Bob, Carol and Ted clockwise
    game = holdem(Limit.FIXED, blinds=(1, 2), stakes=Stakes(2, 4))
    deck = _deck(["Ac 7c", "Qs 9h", "Ks Jh", "2d 3d"], "9c Kc 3h 5s 9d", button=alice)
    actions = [Action.fold(), Action.call(), Action.call(), Action.check()]
    actions += [Action.check(), Action.bet(2), Action.raise_to(4), Action.call(), Action.call()]
    actions += [Action.check()] * 3 + [Action.bet(4), Action.call(), Action.fold()]
    record = HandRecord((100,) * 4, alice, tuple(deck), tuple(actions))
    result = replay(game, ReplayBatch.from_records([record]))
    assert result.payoffs[0].tolist() == [-6, 16, -10, 0]


def test_all_in_before_the_deal_through_the_kernel() -> None:
    """Rules 002_376df91f076a6501.txt, 'All in before the deal': Alice has $8 in the big
    blind after a $1 ante; Bob calls $8, Carol raises to $16, all fold; Alice's aces win the
    $35 main pot and Carol gets back her unmatched $8 and the side pot."""
    button, small, alice, bob, carol = 9, 0, 1, 2, 3
    stacks = [500] * 10
    stacks[alice] = 8
    holes = ["3c 4d", "As Ah", "5c 6d", "Kd Qc", "8c 9d", "Th Jh", "2h 3h", "4h 5h", "6h 7h"]
    deck = _deck([*holes, "8h 9h"], "2s 7s Ts Js 4s", button)
    game = holdem(Limit.NO, blinds=(4, 8), ante=1)
    actions = [Action.call(), Action.raise_to(16)] + [Action.fold()] * 8
    record = HandRecord(tuple(stacks), button, tuple(deck), tuple(actions))
    result = replay(game, ReplayBatch.from_records([record]))
    assert result.stacks[0, alice] == 35
    assert result.stacks[0, carol] == 500 - 17 + 10
    assert result.stacks[0, small] == 500 - 5 and result.stacks[0, bob] == 500 - 9


@pytest.mark.parametrize("rule", list(IncompleteRaiseRule))
def test_full_and_half_bet_rules_through_the_kernel(rule: IncompleteRaiseRule) -> None:
    """Rules 002_376df91f076a6501.txt, 'Incomplete bet or raise': one opens for $20; the next
    goes all in for $30; a third calls; the opener may re-raise only under the half bet
    rule."""
    game = holdem(Limit.FIXED, blinds=(), ante=1, stakes=Stakes(20, 40), incomplete_raise=rule)
    deck = tuple(range(52))
    actions = (Action.bet(20), Action.raise_to(30), Action.call(), Action.raise_to(50))
    record = HandRecord((1000, 31, 1000), 2, deck, actions)
    result = replay(game, ReplayBatch.from_records([record]))
    if rule is IncompleteRaiseRule.FULL_BET:
        assert result.status[0] == ReplayStatus.NOT_REOPENED and result.failed_action[0] == 3
        assert result.message(0) == (
            "hand 0, action 3 (seat 0): the betting was not reopened since this player "
            "acted: call or fold"
        )
        with pytest.raises(IllegalAction, match="not reopened"):
            result.raise_for_status()
    else:
        assert result.status[0] == ReplayStatus.TOO_FEW_ACTIONS  # the raise stood
        assert result.failed_action[0] == 4


_SMALL_AS_BIG = holdem(
    Limit.POT, blinds=(5, 10), stakes=Stakes(10), pot_limit_blinds=PotLimitBlinds.SMALL_AS_BIG
)
_CAPPED_GAME = holdem(Limit.FIXED, blinds=(10, 20), stakes=Stakes(20, 40, max_bets=4))
_SUB_MINIMUM_BLIND = holdem(Limit.FIXED, blinds=(1, 2), stakes=Stakes(5, 10, max_bets=4))
_CALLED_ROUND = [Action.call(), Action.call(), Action.check()]


@pytest.mark.parametrize(
    ("game", "players", "actions", "refused", "status"),
    [
        # Rules 000_1a86611de8d3f5f7.txt, 'cap': 'at the time that what would have otherwise
        # been the last raise is made': capped three-handed, a fold does not lift it.
        (
            _CAPPED_GAME,
            3,
            [*_CALLED_ROUND, Action.bet(20), *map(Action.raise_to, (40, 60, 80)), Action.fold()],
            Action.raise_to(100),
            ReplayStatus.CAPPED,
        ),
        # Rules 001_af8fb40237a5ae1f.txt: a big blind below the small bet is treated as a
        # sub-minimum bring-in: 5 completes it, 10, 15 and 20 are the three raises.
        (
            _SUB_MINIMUM_BLIND,
            4,
            [*map(Action.raise_to, (5, 10, 15, 20))],
            Action.raise_to(25),
            ReplayStatus.CAPPED,
        ),
        # Rules 002_376df91f076a6501.txt, 'Pot limit': the small blind's own raise is to 50
        # (call 5 into 35, raise 40), the credit not counted on top of his call ...
        (_SMALL_AS_BIG, 4, [Action.call()] * 2, Action.raise_to(55), ReplayStatus.OUT_OF_RANGE),
        # ... and once he has called, the pot is the real pot of 40 for the big blind.
        (_SMALL_AS_BIG, 4, [Action.call()] * 3, Action.raise_to(55), ReplayStatus.OUT_OF_RANGE),
    ],
    ids=["cap after a fold", "sub-minimum blind", "small blind's raise", "after his call"],
)
def test_the_caps_and_blind_credits_through_the_kernel(
    game: GameDefinition,
    players: int,
    actions: list[Action],
    refused: Action,
    status: ReplayStatus,
) -> None:
    """The kernel plays the cap, a sub-minimum blind and the small blind counted as a big one
    as the reference engine does: every action before ``refused`` stands (the hand then
    waits for more), ``refused`` is refused for the same reason."""
    button = players - 1
    deck = tuple(range(52))
    played = HandRecord((1000,) * players, button, deck, tuple(actions))
    result = replay(game, ReplayBatch.from_records([played]))
    assert result.status[0] == ReplayStatus.TOO_FEW_ACTIONS
    assert result.failed_action[0] == len(actions)
    tried = HandRecord((1000,) * players, button, deck, (*actions, refused))
    result = replay(game, ReplayBatch.from_records([tried]))
    assert result.status[0] == status and result.failed_action[0] == len(actions)
    reference = Hand(game, [1000] * players, button, deck=list(deck))
    for action in actions:
        reference.act(action)
    with pytest.raises(IllegalAction):
        reference.act(refused)


def test_record_hand_rebuilds_the_deck_and_the_actions() -> None:
    """A recorded hand replays to the reference's stacks from the rebuilt deck, and decodes
    back to the actions played (bets before any bet on a street, raises after)."""
    game = holdem(Limit.NO, blinds=(1, 2), ante=1)
    played = [_play(game, seed) for seed in range(200)]
    records = [record_hand(p.hand) for p in played]
    for p, record in zip(played, records, strict=True):
        assert record.actions == p.record.actions
        assert record.stacks == p.record.stacks and record.button == p.record.button
        n = p.hand.n
        assert record.deck[: 2 * n] == p.record.deck[: 2 * n]  # the hole cards
        board = [record.deck[2 * n + q] for q in (1, 2, 3, 5, 7)][: len(p.hand.board)]
        assert board == p.hand.board
        assert len(set(record.deck)) == len(record.deck) == 2 * n + 8
    result = replay(game, ReplayBatch.from_records(records))
    batch = ReplayBatch.from_records(records)
    for i, p in enumerate(played):
        assert result.stacks[i, : p.hand.n].tolist() == list(p.hand.stacks)
        assert batch.record(i).actions == records[i].actions


def test_unsupported_games_are_refused() -> None:
    """Rake, the jackpot drop, exact odd chips and games other than hold'em
    (Omaha, seven-card stud) are refused up front with a message naming what is not played."""
    record = HandRecord((100, 100, 100), 0, tuple(range(52)), (Action.fold(), Action.fold()))
    batch = ReplayBatch.from_records([record])
    cases = [
        (holdem(Limit.NO, rake=Rake(Fraction(1, 20))), "rake"),
        (holdem(Limit.NO, jackpot_drop=JackpotDrop(1, 20)), "jackpot drop"),
        (holdem(Limit.NO, odd_chips=OddChipRule.EXACT), "exact fractional"),
    ]
    omaha = GameDefinition(
        name="Omaha",
        phases=(Deal("preflop", down=4), *HOLDEM_PHASES[1:]),
        forced=ForcedBets(blinds=(1, 2)),
        limit=Limit.POT,
        stakes=Stakes(2),
        selection=OMAHA,
    )
    cases.append((omaha, "hold'em's streets"))
    cases.append((seven_card_stud(), "bring-in"))
    for game, words in cases:
        with pytest.raises(ValueError, match=words):
            replay(game, batch)
    assert replay(holdem(Limit.NO), batch).errors() == []


def test_unplayable_hands_are_refused() -> None:
    """Kill blinds, posts and placed blinds cannot be recorded (straddles can); straddles in
    a game without them, three blinds heads-up, repeated cards, empty stacks and bad buttons
    are refused before anything is replayed."""
    game = holdem(Limit.NO, blinds=(1, 2))
    killed = Hand(game, [100] * 4, 0, rng=np.random.default_rng(1), kill=(3, Fraction(2)))
    with pytest.raises(ValueError, match="seat 3 posted a kill blind"):
        record_hand(killed)
    posted = Hand(game, [100] * 4, 0, rng=np.random.default_rng(1), posts=[Post(3, True)])
    with pytest.raises(ValueError, match="seat 3 posted a new player's post"):
        record_hand(posted)
    placed = BlindSeats((0,), (1, 2))  # a moving button's extra big blind
    moved = Hand(game, [100] * 4, 0, rng=np.random.default_rng(1), blind_seats=placed)
    with pytest.raises(ValueError, match="blinds after the button"):
        record_hand(moved)
    straddling = holdem(Limit.NO, straddles=StraddleRule.LIVE)
    straddled = Hand(straddling, [100] * 4, 0, rng=np.random.default_rng(1), straddles=[(3, 4)])
    assert record_hand(straddled).straddles == ((3, 4),)
    straddle = HandRecord((100,) * 4, 0, tuple(range(52)), (), ((3, 4),))
    with pytest.raises(ValueError, match="hand 0: its game allows no straddles"):
        replay(game, ReplayBatch.from_records([straddle]))
    three = holdem(Limit.NO, blinds=(1, 2, 4))
    heads_up = HandRecord((100, 100), 0, tuple(range(52)), ())
    with pytest.raises(ValueError, match="3 blinds need as many players"):
        replay(three, ReplayBatch.from_records([heads_up]))
    repeated = (0, 1, 2, 3, 0, *range(5, 52))
    with pytest.raises(ValueError, match="repeats"):
        ReplayBatch.from_records([HandRecord((100, 100), 0, repeated, ())])
    decks = np.arange(52, dtype=np.int8)[None, :].copy()
    decks[0, 5] = 1  # the second hole card of the second player repeats the first's
    with pytest.raises(ValueError, match="deck card 5"):
        ReplayBatch(
            seats=np.array([2]),
            buttons=np.array([0]),
            stacks=np.array([[10, 10]]),
            decks=decks,
            action_offsets=np.array([0, 0]),
            action_kinds=np.array([], dtype=np.int8),
            action_totals=np.array([], dtype=np.int64),
        )
    with pytest.raises(ValueError, match="stacks positive"):
        ReplayBatch.from_records([HandRecord((100, 0), 0, tuple(range(52)), ())])
    with pytest.raises(ValueError, match="button"):
        ReplayBatch.from_records([HandRecord((100, 100), 2, tuple(range(52)), ())])
    with pytest.raises(ValueError, match="needs a total"):
        bad = (Action(ActionKind.RAISE),)
        ReplayBatch.from_records([HandRecord((100, 100), 0, tuple(range(52)), bad)])


def test_unknown_action_codes_and_actions_after_the_end() -> None:
    """An action code outside the encoding stops the hand; so does an action after everyone
    is all in before the deal (Rules 002_376df91f076a6501.txt, 'All in before the deal')."""
    game = holdem(Limit.NO, blinds=(1, 2), ante=5)
    deck = np.arange(52, dtype=np.int8)[None, :].repeat(2, axis=0)
    batch = ReplayBatch(
        seats=np.array([2, 2]),
        buttons=np.array([0, 1]),
        stacks=np.array([[100, 100], [3, 4]]),
        decks=deck,
        action_offsets=np.array([0, 1, 2]),
        action_kinds=np.array([9, ActionCode.CALL]),
        action_totals=np.array([0, 0]),
    )
    result = replay(game, batch)
    assert result.status.tolist() == [ReplayStatus.UNKNOWN_ACTION, ReplayStatus.HAND_OVER]
    assert result.reason(0) == "unknown action code 9"
    assert result.reason(1) == "no one is to act: the hand is over"
    assert len(result.errors()) == 2


def test_actions_out_of_turn() -> None:
    """With each action's seat given, an action for a seat other than the one to act stops
    the hand there, in the reference engine's words; the same actions in turn complete
    ('Procedure': the button's small blind acts first before the flop heads-up, the big
    blind first after it)."""
    game = holdem(Limit.NO, blinds=(1, 2))
    kinds = [ActionCode.CALL, *[ActionCode.CHECK] * 7]
    in_turn = [0, 1, 1, 0, 1, 0, 1, 0]
    swapped_first = [1, 0, 1, 0, 1, 0, 1, 0]
    swapped_flop = [0, 1, 0, 1, 1, 0, 1, 0]
    batch = ReplayBatch(
        seats=np.array([2, 2, 2]),
        buttons=np.array([0, 0, 0]),
        stacks=np.array([[100, 100]] * 3),
        decks=np.arange(52, dtype=np.int8)[None, :].repeat(3, axis=0),
        action_offsets=np.array([0, 8, 16, 24]),
        action_kinds=np.array(kinds * 3),
        action_totals=np.zeros(24, dtype=np.int64),
        action_seats=np.array(in_turn + swapped_first + swapped_flop),
    )
    result = replay(game, batch)
    assert result.status.tolist() == [
        ReplayStatus.COMPLETED,
        ReplayStatus.OUT_OF_TURN,
        ReplayStatus.OUT_OF_TURN,
    ]
    assert result.failed_action.tolist() == [-1, 0, 2]
    assert result.reason(1) == "seat 1 acted out of turn: seat 0 is to act"
    reason = "seat 0 acted out of turn: seat 1 is to act"
    assert result.message(2) == f"hand 2, action 2 (seat 0): {reason}"
    with pytest.raises(IllegalAction, match="seat 1 acted out of turn: seat 0 is to act"):
        hand = Hand(game, [100, 100], 0, deck=list(range(52)))
        hand.act(Action(ActionKind.CALL), seat=1)
    # Without the seats the swapped hands play as the first one does.
    unchecked = replay(game, replace(batch, action_seats=None))
    assert unchecked.status.tolist() == [ReplayStatus.COMPLETED] * 3
    assert unchecked.stacks.tolist() == result.stacks[:1].tolist() * 3
    with pytest.raises(ValueError, match="action_seats"):
        replace(batch, action_seats=np.array(in_turn * 3 + [0]))
    with pytest.raises(ValueError, match="action 3: action_seats"):
        replace(batch, action_seats=np.array([0, 1, 1, 2, *in_turn[4:], *in_turn * 2]))
