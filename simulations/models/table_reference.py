"""The economics kernel's hands played by the reference engine: a real
:class:`~simulations.engine.hand.Hand` per hand, dealt the deck the kernel
(:mod:`simulations.models.table_kernel`) dealt for the same seed, each seat deciding with the
same uniforms through the same compiled decisions (:func:`~.starting_hands.plays`,
:func:`~.players.continues`, :func:`~.players.bet_size`) — but reading its cards with the
scalar evaluators and ranking its starting hand by :func:`~.starting_hands.combo_index`, and
the engine settling the pot, the rake and the drop by its own rules.

The player: before the flop the first seat that plays raises to his opening size and the
later ones that play call; the others fold.  On each later street the seats still in decide
when the street opens (so the order of acting changes nothing): the first of them in turn
who continues bets his share of the pot, the others who continue call, and those who do not
check until the bet reaches them and then fold.  Stacks are deep: nobody is ever all in.

:func:`reference_verdict` judges the bad-beat jackpot of the hands shown, in plain Python:
each best hand valued by :func:`~simulations.evaluators.high.evaluate_high` (or the Omaha
evaluator), its card conditions by the one qualifier,
:func:`simulations.rules.jackpot.qualifies`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from simulations.engine.actions import Action, LegalActions
from simulations.engine.hand import Hand
from simulations.evaluators.high import TABLES, evaluate_high
from simulations.evaluators.omaha import two_plus_three_batch
from simulations.models import table_kernel as k
from simulations.models.players import bet_size, continues
from simulations.models.starting_hands import plays, ranking
from simulations.models.table import STACK, RakePolicy, Table
from simulations.rules.jackpot import BadBeatRules, in_band, qualifies

LOSER, WINNER, SECOND = 0, 1, 2


_TRIPLES = {
    shown: np.array(list(itertools.combinations(range(shown), 3)), dtype=np.int8)
    for shown in (3, 4, 5)
}


def best_value(omaha: bool, hole: Sequence[int], board: Sequence[int]) -> int:
    """A player's best high value: any five of hole and board (hold'em: the scalar
    evaluator), or exactly two hole and three board cards (Omaha: the Omaha evaluator's own
    batch kernel over every choice)."""
    if not omaha:
        return evaluate_high([*hole, *board]).value
    row = np.array([[*hole, *board]], dtype=np.int8)
    return int(two_plus_three_batch(row, len(hole), _TRIPLES[len(board)])[0])


def colex(cards: Sequence[int]) -> int:
    """A starting hand's index in the ranking: for sorted cards c0 < c1 < ..., the sum of
    C(c_i, i + 1)."""
    return sum(math.comb(c, i + 1) for i, c in enumerate(sorted(cards)))


def _qualifies(omaha: bool, hole: Sequence[int], board: Sequence[int], rules: BadBeatRules) -> bool:
    """The qualifier's card conditions, as the kernel judges them (the one rule)."""
    value = best_value(omaha, hole, board)
    return bool(
        qualifies(
            np.array(hole, dtype=np.int64),
            np.array(board, dtype=np.int64),
            value,
            rules.qualifier(omaha=omaha),
            *TABLES,
        )
    )


def reference_verdict(
    omaha: bool,
    board: Sequence[int],
    holes: Mapping[int, Sequence[int]],
    rules: BadBeatRules,
    floors: Sequence[int],
) -> tuple[int, list[tuple[int, int, int]]]:
    """The strictest level of ``floors`` (losing floors, strictest first) at which the hands
    ``holes`` (seat -> hole cards) hit, or -1, and each level's (loser, winner, second loser)
    seat masks."""
    good = _good(omaha, board, holes, rules, floors)
    found = -1
    roles: list[tuple[int, int, int]] = []
    for level, floor in enumerate(floors):
        q = {s: v for s, v in good.items() if v >= floor}
        losers = {s: v for s, v in q.items() if in_band(v, floor, rules.losing_ceiling)}
        winning = [v for v in q.values() if rules.winning_band.contains(v)]
        best = max(winning, default=-1)
        losing = max((v for v in losers.values() if v < best), default=-1)
        if best < 0 or losing < 0:
            roles.append((0, 0, 0))
            continue
        second = max((v for v in losers.values() if v < losing), default=-1)

        def mask(target: int, q: dict[int, int] = q) -> int:
            return sum(1 << s for s, v in q.items() if v == target) if target >= 0 else 0

        roles.append((mask(losing), mask(best), mask(second)))
        if found < 0:
            found = level
    return found, roles


def _good(
    omaha: bool,
    board: Sequence[int],
    holes: Mapping[int, Sequence[int]],
    rules: BadBeatRules,
    floors: Sequence[int],
) -> dict[int, int]:
    """The seats whose hands meet the qualifier's conditions at the loosest floor, with
    their values."""
    values = {s: best_value(omaha, h, board) for s, h in holes.items()}
    return {
        s: v
        for s, v in values.items()
        if v >= min(floors) and _qualifies(omaha, holes[s], board, rules)
    }


def reference_qualified(
    omaha: bool,
    board: Sequence[int],
    holes: Mapping[int, Sequence[int]],
    rules: BadBeatRules,
    floors: Sequence[int],
) -> int:
    """The strictest level of ``floors`` at which some hand of ``holes`` is a qualifying
    losing hand (its level's floor up to the qualifier's ceiling), or -1."""
    good = _good(omaha, board, holes, rules, floors)
    for level, floor in enumerate(floors):
        if any(in_band(v, floor, rules.losing_ceiling) for v in good.values()):
            return level
    return -1


@dataclass(frozen=True)
class ReferenceHand:
    """What the engine's hand came to: each seat's net, the rake and drop, whether it saw a
    flop and a showdown, the pot, the seats judged for the jackpot and its verdict."""

    payoffs: tuple[int, ...]
    rake: int
    drop: int
    flopped: bool
    showdown: bool
    pot: int
    level: int
    roles: tuple[tuple[int, int, int], ...]
    hand: Hand
    qualified: int = -1  # the strictest level with a qualifying losing hand shown


class Player:
    """Every seat's decisions in one reference hand."""

    def __init__(self, reference: Reference, uniforms: npt.NDArray[np.float64]) -> None:
        self.table = reference.table
        self.seats = reference.seats
        self.order = reference.order
        self.uniforms = uniforms
        self.opened = False
        self.street = -1
        self.going: dict[int, bool] = {}
        self.bettor = -1
        self.pot = 0
        self.at_river: list[int] = []

    def act(self, hand: Hand, legal: LegalActions) -> Action:
        s = legal.seat
        if hand.street == 0:
            if not self._plays(hand, s):
                return Action.fold()
            if not self.opened:
                self.opened = True
                return Action.raise_to(int(self.seats.open_to[s]))
            return Action.call()
        if hand.street != self.street:
            self._open_street(hand)
        if s == self.bettor and legal.to_call == 0:
            share = float(self.seats.bet[s])
            return legal.wager_action(int(bet_size(self.pot, share, self.table.big_blind)))
        if legal.to_call == 0:
            return Action.check()
        return Action.call() if self.going[s] else Action.fold()

    def _plays(self, hand: Hand, s: int) -> bool:
        index = colex(hand.hole[s])
        u = float(self.uniforms[0, s])
        return bool(plays(self.order.above[index], self.order.width[index], u, self.seats.vpip[s]))

    def _open_street(self, hand: Hand) -> None:
        self.street = hand.street
        street = hand.street - 1  # 0 the flop .. 2 the river
        self.pot = sum(hand.contributed)
        live = [s for s in range(hand.n) if not hand.folded[s]]
        if street == 2:
            self.at_river = live
        self.going = {}
        for s in live:
            floor = int(self.seats.floors[s, street])
            value = best_value(self.table.omaha, hand.hole[s], hand.board) if floor >= 0 else 0
            u = float(self.uniforms[1 + street, s])
            self.going[s] = bool(continues(value, floor, u, float(self.seats.chance[s])))
        turn = [(hand.button + 1 + i) % hand.n for i in range(hand.n)]
        self.bettor = next((s for s in turn if self.going.get(s, False)), -1)


class Reference:
    """The reference engine playing ``table``'s hands, each pot settled under ``policy``."""

    def __init__(self, table: Table, policy: RakePolicy | None = None) -> None:
        self.table = table
        self.policy = policy
        self.game = table.game(policy)
        self.seats = table.seats
        self.order = ranking(table.evaluator)
        self.deck = np.empty(k.DECK, dtype=np.int64)
        self.uniforms = np.empty((k.ROUNDS, table.players), dtype=np.float64)

    def play(self, seed: int) -> ReferenceHand:
        """Play the hand of ``seed`` through the engine."""
        table = self.table
        n = table.players
        uniforms = self.uniforms.copy()
        button = int(k.hand_draws(np.uint64(seed), n, table.hole, self.deck, uniforms))
        hand = Hand(self.game, [STACK] * n, button, deck=self.deck.tolist())
        player = Player(self, uniforms)
        while not hand.finished:
            hand.act(player.act(hand, hand.legal_actions()))
        live = [s for s in range(n) if not hand.folded[s]]
        showdown = len(live) >= 2
        level, roles, qualified = -1, [(0, 0, 0)] * len(table.levels), -1
        jackpot = table.jackpot
        if jackpot is not None:
            required = jackpot.conditions.showdown_required
            shown = live if required else player.at_river
            if len(shown) >= 2 and (showdown or not required):
                holes = {s: [int(c) for c in hand.hole[s]] for s in shown}
                board = [int(c) for c in hand.board]
                level, roles = reference_verdict(
                    table.omaha, board, holes, jackpot.rules, jackpot.floors
                )
                qualified = reference_qualified(
                    table.omaha, board, holes, jackpot.rules, jackpot.floors
                )
        return ReferenceHand(
            tuple(int(p) for p in hand.payoffs),
            hand.rake,
            hand.jackpot_drop,
            hand.street > 0,
            showdown,
            sum(hand.contributed),
            level,
            tuple(roles),
            hand,
            qualified,
        )
