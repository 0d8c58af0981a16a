"""Dealing random hands in batches from a seeded generator.

Each dealt hand is the first ``k`` cards of a fresh shuffle of the deck, made by a
partial Fisher-Yates shuffle driven by ``k`` uniform numbers from the job's
``numpy.random.Generator``.  A hand depends only on its own uniforms, so the same
seed deals the same hands whatever the batch boundaries, and a test can hand a
kernel's deals to the reference engine one by one.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt


@nb.njit(cache=True)
def deal_from_uniforms(
    deck: npt.NDArray[np.int8], uniforms: npt.NDArray[np.float64], out: npt.NDArray[np.int8]
) -> None:
    """Fill ``out[i]`` with the first ``k`` cards of a shuffle of ``deck`` by ``uniforms[i]``.

    Position ``j`` takes a card chosen uniformly from the ``n - j`` cards not yet dealt
    (index ``j + floor(u * (n - j))``); ``u`` has 53 random bits, so the choice is uniform
    to within 2**-47 for any deck of at most 64 cards.
    """
    n = deck.shape[0]
    n_hands, k = uniforms.shape
    work = deck.copy()
    for i in range(n_hands):
        for j in range(k):
            pick = j + int(uniforms[i, j] * (n - j))
            card = work[pick]
            work[pick] = work[j]
            work[j] = card
            out[i, j] = card
        # Restore the deck's order so that this hand never depends on the previous one.
        work[:] = deck


def deal(
    rng: np.random.Generator, deck: npt.NDArray[np.int8], hands: int, cards: int
) -> npt.NDArray[np.int8]:
    """Deal ``hands`` hands of ``cards`` cards each from fresh shuffles of ``deck``."""
    if not 0 < cards <= deck.shape[0]:
        raise ValueError(f"cannot deal {cards} cards from a deck of {deck.shape[0]}")
    out = np.empty((hands, cards), dtype=np.int8)
    deal_from_uniforms(deck, rng.random((hands, cards)), out)
    return out
