"""A random player for property tests: any legal action, and any legal choice of cards."""

from __future__ import annotations

import random

from simulations.engine.hand import Action, Hand


def random_action(hand: Hand, chooser: random.Random) -> Action:
    """A legal action for the seat to act, drawn by ``chooser``: calls and checks weighted
    up so that hands reach the showdown, folds, the smallest and largest bet or raise, the
    bring-in or its completion, a random draw, discard, exposure, pass, donation or twist of
    the player's cards, a payment or a fold where a payment is due, a random declaration,
    a random legal split, a random card from a draft's centre, a pass or a bid (the least,
    or any up to the player's stack) in an auction, and any player to take the card
    bought."""
    legal = hand.legal_actions()
    if legal.declarations:
        return Action.declare(chooser.choice(legal.declarations))
    if legal.choice is not None:
        choice = legal.choice
        if choice.may_fold and chooser.random() < 0.3:  # a payment (Baseball's 3s): or fold
            return Action.fold()
        if choice.options:  # a split: one of the legal two-card hands
            return choice.action(chooser.choice(choice.options))
        if choice.seats:  # an auction's buyer: who takes the card
            return Action.designate(chooser.choice(choice.seats))
        if choice.bids is not None:
            low, high = choice.bids
            if chooser.random() < 0.4:
                return Action.bid()  # pass
            return Action.bid(low if chooser.random() < 0.6 else chooser.randint(low, high))
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
