"""Malformed job files, game files and scenario files at scale, through the parsers in this
process and a few through the real ``cardroom`` command.

Each input is a valid document mutated (tests/fuzzing.py).  Every one must be answered by
the parser's own error — :class:`JobFileError` or :class:`SpecError` for a job file,
:class:`GameFileError` for a game file, :class:`FileError` or :class:`ScenarioError` for a
scenario file — naming the field (or, for text that is not TOML, the line and column); any
other exception is a defect.  A parser that does not answer within :data:`HANG_SECONDS`
hangs, which is a defect too (the bound is far above any parse: it is not a speed test).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import re
import signal
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import given, settings

from service.games import checked_game
from service.jobfile import JobFileError, job_from_mapping, parse_job_mapping, parse_job_text
from simulations.engine.gamefile import GameFileError
from simulations.spec import SpecError
from simulations.verify.check import final_differences
from simulations.verify.fields import ScenarioError
from simulations.verify.files import FileError, holds_scenarios, parse_toml, read_scenario_file
from simulations.verify.play import deal, play
from simulations.verify.setup import build_scenario, refused_setup_phrase
from tests.fuzzing import (
    FUZZ,
    SHARES,
    Fed,
    Mutant,
    dump_toml,
    game_documents,
    job_documents,
    mutants,
    one_line,
    scenario_documents,
    toml_key,
)
from tests.harness import REPO, cardroom

HANG_SECONDS = 60.0

JOBS = job_documents()
GAMES = game_documents()
SCENARIOS = scenario_documents()


class Hang(Exception):
    """A parser took longer than HANG_SECONDS over one input."""


@contextlib.contextmanager
def hang_guard(what: str) -> Iterator[None]:
    def alarm(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"{what}: no answer in {HANG_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# A field path ("table.players", "policies[2].caps[0].cap", "kind[0]") then ": "; a TOML
# decoder's "(at line 3, column 7)"; or one of the whole-file complaints.
# A key that is no plain word is quoted in the path ("'a b'.x"), as Python writes a string,
# and a long one shortened ("'KKKK…' (60 characters)").
_QUOTED = r"""(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")(?: \([\d,]+ characters\))?"""
_FIELD = re.compile(rf"""^(?:{_QUOTED}|[^\s:'"])+: """)
_WHERE = re.compile(r"at line \d+, column \d+|at end of document")
_WHOLE_FILE = (
    "not a scenario file",
    "no [[scenario]] tables",
    "larger than",
    "nested too deeply",
    "a job must be a table",
    "unknown key",
    "a number or nesting too large",
)


def names_a_field(message: str, field: str, mutant: Mutant, source: str = "") -> None:
    """The error is one line and names its field — or, for text that no longer parses as
    TOML, the line and column where it broke."""
    assert one_line(message), (message, mutant)
    if field:
        return
    rest = message.removeprefix(f"{source}: ") if source else message
    assert (
        (_FIELD.match(rest) and not rest.startswith("not valid TOML"))
        or _WHERE.search(rest)
        or any(phrase in rest for phrase in _WHOLE_FILE)
    ), (message, mutant)


# -- job files ------------------------------------------------------------------------------


def check_job_text(mutant: Mutant, fed: Fed | None = None) -> bool:
    """Whether the job file is valid; its error, if not, must be the parser's own."""
    with hang_guard("job file"):
        try:
            mapping = parse_job_mapping(mutant.text, "toml", "job.toml")
        except JobFileError as err:
            assert str(err).startswith("job.toml: "), err
            names_a_field(str(err), "", mutant, "job.toml")
            return False
        try:
            job_from_mapping(mapping)
        except SpecError as err:
            names_a_field(str(err), err.field, mutant)
            if fed is not None:
                fed.refused(err.field)
            return False
    return True


def test_malformed_job_files_get_the_parsers_error() -> None:
    # Fed and counted inside the test, so that the count is checked in the process that
    # fed them, whichever worker runs it.
    fed = Fed()

    @settings(FUZZ, max_examples=SHARES["job files"])
    @given(mutants(JOBS))
    def feed(mutant: Mutant) -> None:
        fed.inputs += 1
        fed.accepted += check_job_text(mutant, fed)

    feed()
    assert fed.inputs >= SHARES["job files"]
    # The mutants are mostly wrong; a few (an optional key deleted) are still jobs.
    assert fed.accepted < fed.inputs // 4, fed
    assert fed.nested > fed.inputs // 10, fed


# -- game files -----------------------------------------------------------------------------


def check_game_text(mutant: Mutant, fed: Fed | None = None) -> bool:
    with hang_guard("game file"):
        try:
            checked_game(mutant.text)
        except GameFileError as err:
            assert err.source == "text", err
            names_a_field(str(err), err.field, mutant)
            if fed is not None:
                fed.refused(err.field)
            return False
    return True


def test_malformed_game_files_get_the_parsers_error() -> None:
    # Fed and counted inside the test, so that the count is checked in the process that
    # fed them, whichever worker runs it.
    fed = Fed()

    @settings(FUZZ, max_examples=SHARES["game files"])
    @given(mutants(GAMES))
    def feed(mutant: Mutant) -> None:
        fed.inputs += 1
        fed.accepted += check_game_text(mutant, fed)

    feed()
    assert fed.inputs >= SHARES["game files"]
    assert fed.accepted < fed.inputs // 2, fed
    assert fed.nested > fed.inputs // 10, fed


# -- scenario files -------------------------------------------------------------------------


def check_scenario_text(mutant: Mutant, fed: Fed | None = None) -> bool:
    """Read, set up and play every scenario of the text as ``cardroom verify`` does, but
    without its catch-all for an engine failure: here any exception other than the
    parser's own is a defect."""
    base = SCENARIOS[mutant.source].base
    with hang_guard("scenario file"):
        try:
            data = parse_toml(mutant.text)
            if not holds_scenarios(data):
                raise FileError("not a scenario file: no [[scenario]] tables")
            entries = read_scenario_file(data, base)
        except FileError as err:
            names_a_field(str(err), "", mutant)
            return False
        valid = True
        for entry in entries:
            if entry.error is not None or entry.data is None:
                assert entry.error is not None
                names_a_field(str(entry.error), entry.error.field, mutant)
                if fed is not None:
                    fed.refused(entry.error.field)
                valid = False
                continue
            try:
                scenario = build_scenario(entry.data, "fuzz.toml", entry.name, base)
                if refused_setup_phrase(entry.data) is not None:
                    deal(scenario)
                else:
                    played = play(scenario)
                    final_differences(scenario, played.hand)
            except ScenarioError as err:
                names_a_field(str(err), err.field, mutant)
                if fed is not None:
                    fed.refused(err.field)
                valid = False
    return valid


def test_malformed_scenario_files_get_the_parsers_error() -> None:
    # Fed and counted inside the test, so that the count is checked in the process that
    # fed them, whichever worker runs it.
    fed = Fed()

    @settings(FUZZ, max_examples=SHARES["scenario files"])
    @given(mutants([document.data for document in SCENARIOS]))
    def feed(mutant: Mutant) -> None:
        fed.inputs += 1
        fed.accepted += check_scenario_text(mutant, fed)

    feed()
    assert fed.inputs >= SHARES["scenario files"]
    assert fed.accepted < fed.inputs // 2, fed
    assert fed.nested > fed.inputs // 20, fed


# -- the writer the fuzz relies on ----------------------------------------------------------


@pytest.mark.parametrize(
    "documents", [JOBS, GAMES, [d.data for d in SCENARIOS]], ids=["jobs", "games", "scenarios"]
)
def test_the_valid_documents_write_back_to_the_same_tables(documents: list[Any]) -> None:
    assert len(documents) >= 5
    for document in documents:
        assert tomllib.loads(dump_toml(document)) == document


# -- a few through the real command: exit 2, one line, no traceback -------------------------


def _first_refused(
    documents: list[dict[str, Any]], check: Any, count: int
) -> list[tuple[Mutant, str]]:
    """The first ``count`` mutants (in hypothesis's fixed order) that the parser refuses."""
    found: list[Mutant] = []

    @settings(FUZZ, max_examples=count * 10)
    @given(mutants(documents))
    def collect(mutant: Mutant) -> None:
        if len(found) < count and not mutant.damaged and not check(mutant):
            found.append(mutant)

    collect()
    assert len(found) == count
    return [(mutant, mutant.text) for mutant in found]


@pytest.mark.slow
def test_malformed_files_through_the_command_exit_2_without_a_traceback(tmp_path: Path) -> None:
    runs: list[tuple[list[str], str]] = []
    for i, (_, text) in enumerate(_first_refused(JOBS, check_job_text, 2)):
        path = tmp_path / f"job{i}.toml"
        path.write_text(text, encoding="utf-8")
        runs.append((["run", "--in-process", str(path)], str(path)))
    for i, (_, text) in enumerate(_first_refused(GAMES, check_game_text, 2)):
        path = tmp_path / f"game{i}.toml"
        path.write_text(text, encoding="utf-8")
        runs.append((["games", "show", "--file", str(path)], str(path)))
    scenarios = [d.data for d in SCENARIOS]
    for i, (_, text) in enumerate(_first_refused(scenarios, check_scenario_text, 2)):
        # Away from the corpus, a scenario naming one of its files is malformed for that
        # too: exit 2 all the same.
        path = tmp_path / f"scenario{i}.toml"
        path.write_text(text, encoding="utf-8")
        runs.append((["verify", str(path)], str(path)))
    # Three at a time: each process spends most of its life importing.
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        done_all = list(pool.map(lambda run: cardroom(*run[0], timeout=120), runs))
    for (args, path), done in zip(runs, done_all, strict=True):
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr + done.stdout, done.stderr
        assert path in done.stderr + done.stdout, (args, done.stdout, done.stderr)


# -- defects the fuzz found, each kept as a regression test ---------------------------------


@pytest.mark.parametrize("key", ["", "\n", "a b", "K" * 60])
def test_an_unknown_key_that_is_no_plain_word_is_quoted_in_a_one_line_message(key: str) -> None:
    """An unknown key that is empty, holds a line break or a space was put into the field
    path as written: the message named no key ("job.toml: : is not a known setting") or
    broke over two lines.  Job files (at the walk over the text and at the settings' check),
    game files and scenario files now quote it, as every other echoed value is."""
    line = f"{toml_key(key)} = 0\n"
    shown = repr(key) if len(key) <= 40 else "'KKKK"
    job = (REPO / "examples/bad_beat.toml").read_text().replace("[table]", line + "[table]")
    with pytest.raises(JobFileError) as job_error:
        parse_job_text(job, "toml", "job.toml")
    game = (REPO / "simulations/games/01-holdem-no-limit.toml").read_text()
    with pytest.raises(GameFileError) as game_error:
        checked_game(line + game)
    document = SCENARIOS[0]
    scenario = {**document.data["scenario"][0], key: 0}
    (entry,) = read_scenario_file({**document.data, "scenario": [scenario]}, document.base)
    assert entry.data is not None
    with pytest.raises(ScenarioError) as scenario_error:
        build_scenario(entry.data, "s.toml", "s", document.base)
    with pytest.raises(SpecError) as spec_error:
        job_from_mapping({"kind": "bad_beat", "hands": 10, key: 0})
    for message in map(
        str, (job_error.value, game_error.value, scenario_error.value, spec_error.value)
    ):
        assert "\n" not in message, message
        assert shown in message, message


@pytest.mark.parametrize("written", ["nan", "inf", "5e-324", "12.3456789"])
def test_a_percentage_that_is_not_finite_or_too_fine_is_refused_naming_the_field(
    written: str,
) -> None:
    """A rake percentage of inf or nan in a game file raised ValueError out of the parser
    (CheckGame answered INTERNAL), and in a job file named the kind, not the field; one of
    5e-324 passed validation and the job then failed in the kernel, its fraction beyond
    64 bits.  Both parsers now read it with one rule, naming the field."""
    game = (REPO / "simulations/games/01-holdem-no-limit.toml").read_text()
    with pytest.raises(GameFileError) as game_error:
        checked_game(f"{game}\n[house]\nrake = {{percent = {written}}}\n")
    assert game_error.value.field == "house.rake.percent"
    job = tomllib.loads((REPO / "examples/rake.toml").read_text())
    job["policies"][0]["percent"] = float(written)
    with pytest.raises(SpecError) as job_error:
        job_from_mapping(job)
    assert job_error.value.field == "policies[0].percent"
    assert job_error.value.problem.startswith("must "), job_error.value


def test_a_percentage_of_six_places_is_still_a_percentage() -> None:
    job = tomllib.loads((REPO / "examples/rake.toml").read_text())
    job["policies"][0]["percent"] = 2.123456
    job_from_mapping(job)


def test_a_player_name_that_is_no_plain_word_is_quoted_in_the_field() -> None:
    """A pot's shares keyed by a name with a line break put the name into the path as
    written, breaking the message over two lines; the path now quotes it."""
    document = next(d for d in SCENARIOS if "shares = {" in dump_toml(d.data))
    data = tomllib.loads(dump_toml(document.data))
    expect = data["scenario"][0]["expect"]
    pot = next(p for p in expect["pots"] if "shares" in p)
    pot["shares"]["\n"] = 0
    (entry,) = read_scenario_file(data, document.base)
    assert entry.data is not None
    with pytest.raises(ScenarioError) as error:
        build_scenario(entry.data, "s.toml", "s", document.base)
    assert "\n" not in str(error.value)
    assert error.value.field.endswith(".shares.'\\n'"), error.value


@pytest.mark.parametrize(
    ("dealt", "words"),
    [
        ("up = 56", "each player 61 cards and 0 on the board: more than the deck's 52 cards"),
        ("up = 30", "each player 35 cards and 0 on the board: a hand is chosen from at most 24"),
    ],
)
def test_phases_that_deal_a_player_too_many_cards_are_refused_at_once(
    dealt: str, words: str
) -> None:
    """A mutant the game-file fuzz found: six-card stud dealing 56 cards up on fourth street
    made the showdown's reader try every five of 58 cards (about a minute) before the deck
    was found too small.  The phases are now checked against the deck and the showdown's
    bound first, naming the phases."""
    game = (REPO / "simulations/games/25-six-card-stud-fixed-limit.toml").read_text()
    fourth = '{ deal = "fourth street", up = 1'
    assert fourth in game
    changed = game.replace(fourth, fourth.replace("up = 1", dealt), 1)
    with hang_guard("game file"), pytest.raises(GameFileError) as error:
        checked_game(changed)
    assert error.value.field == "phases"
    assert words in str(error.value)


def test_blinds_whose_last_is_not_the_largest_are_refused_naming_the_field() -> None:
    """A mutant the game-file fuzz found (the blinds repeated: [1, 2, 1]): the engine's
    forced bets refused it with ValueError out of the parser; the reader now names
    forced.blinds (rules 002: the players to act call the complete big blind, the last)."""
    game = (REPO / "simulations/games/01-holdem-no-limit.toml").read_text()
    blinds = re.search(r"blinds = \[[^\]]*\]", game)
    assert blinds is not None
    with pytest.raises(GameFileError) as error:
        checked_game(game.replace(blinds.group(0), "blinds = [1, 2, 1]", 1))
    assert error.value.field == "forced.blinds"
    assert "the big blind, the last, is the largest blind: got [1, 2, 1]" in str(error.value)


def test_a_stack_of_thousands_of_digits_is_refused_naming_the_field() -> None:
    """A mutant the scenario fuzz found: a starting stack written as a 6,000-digit hex number
    was played, and the message of the stacks' difference could not print it (Python's limit
    on integer digits); every whole number of a scenario is now at most 64 bits."""
    document = SCENARIOS[0]
    scenario = {**document.data["scenario"][0], "starting_stacks": [int("f" * 6000, 16), 100]}
    (entry,) = read_scenario_file({**document.data, "scenario": [scenario]}, document.base)
    assert entry.data is not None
    with pytest.raises(ScenarioError) as error:
        build_scenario(entry.data, "s.toml", "s", document.base)
    assert error.value.field == "starting_stacks[0]", error.value.field
    assert "must be at most 18,446,744,073,709,551,615, got" in str(error.value)
    assert "-digit number" in str(error.value)
