"""A random player for property tests: any legal action, and any legal choice of cards."""

from __future__ import annotations

import random

from simulations.engine.hand import Action, Hand


def random_action(hand: Hand, chooser: random.Random) -> Action:
    """A legal action for the seat to act, drawn by ``chooser``: calls and checks weighted
    up so that hands reach the showdown, folds, the smallest and largest bet or raise, the
    bring-in or its completion, a random draw, discard, exposure, pass, donation or twist of
    the player's cards, a payment or a fold where a payment is due, and a random
    declaration."""
    legal = hand.legal_actions()
    if legal.declarations:
        return Action.declare(chooser.choice(legal.declarations))
    if legal.choice is not None:
        choice = legal.choice
        if choice.may_fold and chooser.random() < 0.3:  # a payment (Baseball's 3s): or fold
            return Action.fold()
        cards = list(choice.cards)
        chooser.shuffle(cards)
        return choice.action(cards[: chooser.randint(choice.fewest, choice.most)])
    if legal.bring_in is not None:
        if legal.wager is None or chooser.random() < 0.7:
            return Action.bring_in()
        return legal.wager_action(legal.wager[0])
    # A round without checking (Q-Ball) leaves a player with nothing to call only a bet or a
    # fold.
    options = [] if legal.must_open else [Action.check() if legal.can_check else Action.call()] * 4
    if legal.can_fold:
        options.append(Action.fold())
    if legal.wager is not None:
        low, high = legal.wager
        options += [legal.wager_action(low), legal.wager_action(high)]
    return chooser.choice(options)
