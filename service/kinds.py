"""The kinds of job, each registered here once.

A kind is four things with one name, the model's ``kind``:

* its **model** (``simulations/models/<kind>.py``, listed in ``simulations.models.MODELS``):
  it reads the kind's settings from the job file (``from_fields``), names the job file's
  trial count (``trials_field``: ``hands``, ``sessions``, ...), simulates shards into a
  frozen-dataclass tally and reports a merged tally as a flat dict;
* its **proto messages** (``proto/cardroom/v1/job_service.proto``): ``JobSpec.<kind>``, a
  message whose field names are the job file's keys (a nested table is a nested message,
  a setting with a default is ``optional``), and ``JobResult.<kind>``, a message whose field
  names are the report's keys in the report's order (an ``optional`` field for a value
  that may be None, a repeated field for a list, a nested message for a dict);
* its **renderer** for a terminal, and optionally a **plot** (more lines under the
  rendering, e.g. :func:`service.render.text_histogram`) and a **progress note** (a few
  words from the running estimate for the progress bar);
* one :class:`JobKind` line in :data:`KINDS` below.

Nothing else in ``service/`` names a kind: the job file, the API converter
(:mod:`service.convert`), the store, the manager and the CLI work from this registry.
``tests/test_job_kinds.py`` checks every registered kind against these conventions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from service.pictures import PictureError, check_target, exhaustion_picture, guts_picture
from service.pictures_economics import jackpot_picture, policies_picture
from service.render import (
    bad_beat_progress,
    guts_plot,
    render_guts,
    render_running_out,
)
from service.render_economics import render_jackpot, render_policies
from simulations.models import BadBeatModel, ExhaustionModel, GutsModel, ModelReader, RakeModel
from workers.job import Job

Renderer = Callable[[Job, Mapping[str, Any]], str]
ProgressNote = Callable[[Mapping[str, Any]], str]
Picture = Callable[[Job, Mapping[str, Any], Path], None]


@dataclass(frozen=True)
class JobKind:
    """One kind of job: its model, and how its results read on a terminal."""

    model: ModelReader
    render: Renderer
    plot: Renderer | None = None
    progress_note: ProgressNote | None = None
    # ``--plot FILE.png``: the kind's main distribution as a picture (service.pictures).
    picture: Picture | None = None

    @property
    def name(self) -> str:
        """The kind's name: the job file's ``kind``, and the ``JobSpec``/``JobResult`` field."""
        return self.model.kind

    @property
    def trials_field(self) -> str:
        """The job file's key for the trial count, which is ``JobSpec.trials`` in the API."""
        return self.model.trials_field

    @property
    def trial_unit(self) -> str:
        """One trial, in words, for a progress bar ('hand' for ``hands``)."""
        return self.trials_field.removesuffix("s")


def registry(*kinds: JobKind) -> Mapping[str, JobKind]:
    """Kinds by name; a name given twice is a mistake."""
    table: dict[str, JobKind] = {}
    for kind in kinds:
        if kind.name in table:
            raise ValueError(f"job kind {kind.name!r} is registered twice")
        table[kind.name] = kind
    return MappingProxyType(table)


KINDS: Mapping[str, JobKind] = registry(
    JobKind(BadBeatModel, render_jackpot, progress_note=bad_beat_progress, picture=jackpot_picture),
    JobKind(GutsModel, render_guts, plot=guts_plot, picture=guts_picture),
    JobKind(ExhaustionModel, render_running_out, picture=exhaustion_picture),
    JobKind(RakeModel, render_policies, picture=policies_picture),
)


def render(job: Job, report: Mapping[str, Any], kinds: Mapping[str, JobKind] = KINDS) -> str:
    """A job's result for a terminal: its kind's rendering, then its plot if it has one."""
    kind = kinds[job.kind]
    text = kind.render(job, report)
    stopping = report.get("precision")
    if stopping is not None:
        text = f"{text}\n{precision_line(stopping)}"
    return text if kind.plot is None else f"{text}\n{kind.plot(job, report)}"


def precision_line(stopping: Mapping[str, Any]) -> str:
    """The report's line for a job run to a precision target
    (:func:`workers.precision.precision_report`): where it stopped, or that the target was
    not met within the job's trial count."""
    target = f"±{100 * stopping['target']:.4g} %"
    if stopping["stopped_for_precision"]:
        return (
            f"  precision      {target} reached after {stopping['trials']:,} of "
            f"{stopping['trial_count']:,} trials"
        )
    return f"  precision      {target} not reached; ran all {stopping['trial_count']:,} trials"


def draw(
    job: Job, report: Mapping[str, Any], path: Path, kinds: Mapping[str, JobKind] = KINDS
) -> None:
    """Draw the job's picture to ``path``; :class:`PictureError` when its kind has none."""
    picture = kinds[job.kind].picture
    if picture is None:
        raise PictureError(f"--plot: a {job.kind} job has no picture to draw")
    picture(job, report, path)


def check_drawable(
    job: Job, path: Path | None = None, kinds: Mapping[str, JobKind] = KINDS
) -> None:
    """Refuse ``--plot`` before a job runs: a kind that draws no picture, or a ``path``
    that cannot be drawn to (:func:`service.pictures.check_target`)."""
    if kinds[job.kind].picture is None:
        raise PictureError(f"--plot: a {job.kind} job has no picture to draw")
    if path is not None:
        check_target(path)
