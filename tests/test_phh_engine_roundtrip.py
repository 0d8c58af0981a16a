"""Hands the engine plays, written as PHH (simulations.phh.record), read back and replayed.

For every PHH variant the registry has, hands are played with random legal actions (folds,
checks and calls, the smallest, a middle and the largest bet or raise, every draw), written
as PHH text, and then:

* read back to the same hand: the same cards to each player and to the board as the engine
  dealt, the same actions, the same starting and finishing stacks;
* replayed by ``cardroom replay``'s library to the engine's final stacks;
* read and played by pokerkit (``HandHistory.loads``, every state to the end), the
  independent oracle, to the same final stacks.  Two conventions where the texts and pokerkit
  part ways are kept out of the random play, as the generated corpus keeps them out: no
  fixed-limit raise past a bet and three raises, even heads-up (the texts lift the cap
  heads-up), and no raise after a short all-in on the same street.  A pot split with odd
  chips may put them elsewhere in pokerkit (it splits each pot apart; the engine may pay
  pots with the same winners together): such hands may differ by those chips only.
"""

from __future__ import annotations

import random
import warnings
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from pokerkit import HandHistory

from service.cli import main
from simulations.cards import Card
from simulations.engine.actions import Action
from simulations.engine.events import Awarded, BoardDealt, HoleDealt
from simulations.engine.hand import Hand
from simulations.engine.limits import Limit
from simulations.engine.variants import POKER_VARIANTS
from simulations.phh.lines import DEAL_BOARD, DEAL_HOLE
from simulations.phh.read import loads
from simulations.phh.record import GAME_FIELD, PHH_VARIANTS, hand_history
from simulations.phh.replay import replay_hand
from simulations.phh.write import dumps

CODES = sorted(code for code in PHH_VARIANTS if code in POKER_VARIANTS)
SEEDS = 16
CAP = 4  # a bet and three raises


def play(hand: Hand, chooser: random.Random) -> None:
    """Random legal actions, within the conventions pokerkit shares (module docstring)."""
    street, bets, short = -1, 0, False
    while not hand.finished:
        legal = hand.legal_actions()
        if hand.street != street:
            street, short = hand.street, False
            bets = 1 if street == 0 and hand.game.forced.blinds else 0
        if legal.choice is not None:
            choice = legal.choice
            count = chooser.randint(choice.fewest, min(choice.most, len(choice.cards)))
            hand.act(choice.action(chooser.sample(list(choice.cards), count)))
            continue
        capped = hand.game.limit is Limit.FIXED and bets >= CAP
        wager = legal.wager if not capped and not short else None
        if legal.bring_in is not None:
            if wager is not None and chooser.random() < 0.3:
                hand.act(legal.wager_action(wager[0]))
                bets += 1
            else:
                hand.act(Action.bring_in())
            continue
        choices = ["call", "call"] + (["fold"] if legal.can_fold else [])
        choices += ["wager", "wager"] if wager is not None else []
        picked = chooser.choice(choices)
        if picked == "call":
            hand.act(Action.check() if legal.can_check else Action.call())
        elif picked == "fold":
            hand.act(Action.fold())
        else:
            assert wager is not None
            low, high = wager
            total = chooser.choice([low, high, (low + high) // 2])
            if legal.full_total is not None and total < legal.full_total:
                short = True
            hand.act(legal.wager_action(total))
            bets += 1


def played(code: str, seed: int) -> Hand:
    """A finished random hand of ``code`` (2 to 7 players, stacks of 15 to 300)."""
    chooser = random.Random(seed)
    game = POKER_VARIANTS[code].game()
    players = chooser.randint(2, min(game.max_players, 7))
    stacks = [chooser.randint(15, 300) for _ in range(players)]
    hand = Hand(game, stacks, chooser.randrange(players), rng=np.random.default_rng(seed))
    play(hand, chooser)
    return hand


def engine_cards(hand: Hand) -> dict[int, list[Card]]:
    """Every card the engine dealt, by PHH player (0 is p1; -1 the board)."""
    cards: dict[int, list[Card]] = defaultdict(list)
    for event in hand.events:
        if isinstance(event, HoleDealt):
            cards[(event.seat - hand.button - 1) % hand.n].extend(event.cards)
        elif isinstance(event, BoardDealt):
            cards[-1].extend(event.cards)
    return {seat: sorted(dealt) for seat, dealt in cards.items()}


def split_with_odd_chips(hand: Hand) -> bool:
    shares: dict[int, set[int | Fraction]] = defaultdict(set)
    for event in hand.events:
        if isinstance(event, Awarded):
            shares[event.pot].add(event.amount)
    return any(len(amounts) > 1 for amounts in shares.values())


def pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns of cards out of its own deck order
        states = list(HandHistory.loads(text))
    final = states[-1]
    assert not final.status, "pokerkit does not finish the hand"
    return [int(stack) for stack in final.stacks]


@pytest.mark.parametrize("code", CODES)
def test_engine_hands_written_as_phh(code: str) -> None:
    """Written, read back to the same hand, replayed by us and by pokerkit to the engine's
    final stacks, for several seeds of the variant."""
    checked = exact = showdowns = 0
    for seed in range(SEEDS):
        hand = played(code, seed)
        try:
            history = hand_history(hand, code)
        except ValueError as error:
            assert "deck ran out" in str(error)
            continue
        text = dumps(history)
        (back,) = loads(text, f"{code}-{seed}.phh")
        assert back == history
        assert back.lines is not None
        read: dict[int, list[Card]] = defaultdict(list)
        for line in back.lines:
            if line.verb in (DEAL_HOLE, DEAL_BOARD):
                read[line.seat].extend(line.cards or ())
        assert {seat: sorted(cards) for seat, cards in read.items()} == engine_cards(hand)
        by_phh = sorted(range(hand.n), key=lambda s: (s - hand.button - 1) % hand.n)
        assert list(back.starting_stacks) == [hand.starting_stacks[s] for s in by_phh]
        assert list(back.finishing_stacks or ()) == [hand.stacks[s] for s in by_phh]
        result = replay_hand(back)
        assert result.passed, (seed, result.message, result.differences, text)
        theirs = pokerkit_stacks(text)
        ours = [int(s) for s in back.finishing_stacks or ()]
        if theirs != ours:
            assert split_with_odd_chips(hand), (seed, theirs, ours, text)
            assert sum(theirs) == sum(ours)
            assert max(abs(a - b) for a, b in zip(theirs, ours, strict=True)) <= 2
        else:
            exact += 1
        showdowns += any(" sm " in line for line in back.actions)
        checked += 1
    assert checked >= SEEDS - 3, f"{code}: only {checked} hands could be written"
    assert exact >= checked - 2
    assert showdowns > 0, f"{code}: no hand went to a showdown"


@pytest.mark.parametrize("code", CODES)
def test_deal_writes_phh(code: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``cardroom deal CODE --phh FILE`` writes the hand it prints; ``cardroom replay`` and
    pokerkit replay the file to its finishing stacks."""
    path = tmp_path / "dealt.phh"
    players = min(4, POKER_VARIANTS[code].game().max_players)
    assert main(["deal", code, "--players", str(players), "--seed", "3", "--phh", str(path)]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith(POKER_VARIANTS[code].name)
    text = path.read_text()
    assert main(["replay", str(path)]) == 0, capsys.readouterr().out
    (history,) = loads(text, str(path))
    assert history.variant == code and len(history.starting_stacks) == players
    assert pokerkit_stacks(text) == list(history.finishing_stacks or ())


def test_deal_of_a_game_phh_does_not_define(capsys: pytest.CaptureFixture[str]) -> None:
    """Pot-limit hold'em (PT) is written under the registry's code with the game named in
    _cardroom_game, and replays; pineapple's discard phase has no PHH notation: exit 2."""
    assert main(["deal", "PT", "--players", "3", "--phh", "-"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("variant = 'PT'\n") and f"{GAME_FIELD} = " in out
    assert "PT is not one of PHH's variants" in err
    (history,) = loads(out, "pt.phh")
    assert replay_hand(history).passed
    assert main(["deal", "FPIN", "--players", "3", "--phh", "-"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "PHH has no notation for Fixed-limit pineapple's discard phase" in err
