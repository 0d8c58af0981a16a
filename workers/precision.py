"""Stopping a job at a precision target, the same way however its shards are run.

A job with ``precision = 0.01`` stops once its model's main estimate
(:meth:`simulations.models.Model.main_estimate`) has a 95 % half-width within 1 % of its
value; its trial count is then the most it runs.  Shards finish in whatever order the
workers allow, so "stop once the merged tally is precise enough" would depend on that
order.  The stop is decided on **prefixes in index order** instead: shards ``0..k-1``
merged, checked after every shard, and the job ends at the first ``k`` whose prefix is
precise enough (or at the last shard).  Its result is that prefix's tally; shards past it
that ran anyway are discarded.  The result is thus a function of the job alone — one core,
a cluster, any finishing order — and equals a job of exactly the prefix's trials (the same
seed and shard size: shard ``i`` draws from the same generator either way).

:class:`PrefixStop` is the whole rule, for any runner::

    stop = PrefixStop(job)
    for index, tally in finished_shards:   # any order, each index once
        if stop.add(index, tally):
            break                          # decided: stop.tally is the result
    # a scheduler may skip or cancel every shard for which stop.wanted(index) is false

A job without a target goes through the same class and is decided at its last shard.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workers.job import Job

# How far past the prefix's end a runner may start shards: a slow shard at the front holds
# back the prefix, and the tallies finished behind it are kept until it arrives.
LOOKAHEAD_PER_SLOT = 2


class PrefixStop:
    """The stopping rule of one job, fed finished shards in any order.

    ``add(index, tally)`` takes a shard's tally and returns true once the job is decided;
    from then on :attr:`tally` (the prefix's merged tally: the job's result), :attr:`shards`
    and :attr:`trials` (the prefix's size) and :attr:`stopped_for_precision` are final.
    Before, they describe the prefix merged so far — a deterministic running estimate.
    """

    def __init__(self, job: Job) -> None:
        self.job = job
        self._count = job.plan.count
        self._tally: Any = job.model.empty_tally()
        self._shards = 0
        self._held: dict[int, Any] = {}  # finished past the prefix's end, waiting for it
        self._decided = False
        self._precise = False

    @property
    def tally(self) -> Any:
        """The merged tally of shards ``0..shards-1``."""
        return self._tally

    @property
    def shards(self) -> int:
        """Shards in the prefix: merged so far, or the job's when decided."""
        return self._shards

    @property
    def trials(self) -> int:
        return int(self._tally.trials)

    @property
    def decided(self) -> bool:
        return self._decided

    @property
    def stopped_for_precision(self) -> bool:
        """Decided before the last shard because the target was met."""
        return self._decided and self._precise and self._shards < self._count

    @property
    def held(self) -> int:
        """Finished tallies kept beyond the prefix's end, waiting for a shard before them."""
        return len(self._held)

    def wanted(self, index: int) -> bool:
        """Whether shard ``index`` can still change the result: false once the job is
        decided for every shard past its prefix, and for shards already merged."""
        if index < self._shards:
            return False
        return not self._decided

    def add(self, index: int, tally: Any) -> bool:
        """Take shard ``index``'s tally; true once the job is decided.

        Tallies arriving after the decision are ignored.  A shard given twice, or an index
        outside the job's plan, is a runner's mistake and raises ``ValueError``.
        """
        if not 0 <= index < self._count:
            raise ValueError(f"shard {index} is outside 0..{self._count - 1}")
        if self._decided:
            return True
        if index < self._shards or index in self._held:
            raise ValueError(f"shard {index} was given twice")
        self._held[index] = tally
        precision = self.job.precision
        while self._shards in self._held:
            self._tally = self._tally.merge(self._held.pop(self._shards))
            self._shards += 1
            if precision is not None and self.job.model.precise_enough(self._tally, precision):
                self._precise = True
                self._decided = True
            elif self._shards == self._count:
                self._decided = True
            if self._decided:
                self._held.clear()  # shards past the prefix are discarded
                break
        return self._decided


def precision_report(target: float, trials: int, trial_count: int) -> dict[str, Any]:
    """The ``precision`` entry of a job's report: the ``target``, the ``trials`` run and the
    job's ``trial_count`` (the most it would run), and whether it stopped for precision —
    before its trial count, which the prefix rule allows only once the target is met.
    Every figure is read back from the job and its result, so the report crosses the API
    whole (:func:`service.convert.result_to_report`)."""
    return {
        "target": target,
        "stopped_for_precision": trials < trial_count,
        "trials": trials,
        "trial_count": trial_count,
    }


__all__ = ["LOOKAHEAD_PER_SLOT", "PrefixStop", "precision_report"]
