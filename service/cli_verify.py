"""``cardroom verify``: scenario files and hand histories checked against the engine.

One line a scenario (``PASS``, ``FAIL`` or ``MALFORMED``, the file and the scenario's
name); under a failure each expectation that did not hold, expected against actual; under
a malformed scenario or file what is wrong, naming the file, the scenario and the field;
then a summary.  ``--json`` prints the results as one JSON document instead, and
``--junit FILE`` writes a JUnit report for CI.  Exit status: 0 every scenario passed, 1
some expectation failed, 2 some file or scenario is malformed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from simulations.phh.results import FileReport, ScenarioResult

# A scenario's outcome (simulations.phh.results.Outcome, by its value) as its line shows it.
_LABELS = {"passed": "PASS", "failed": "FAIL", "malformed": "MALFORMED"}


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    verify = commands.add_parser(
        "verify", help="check scenario files and hand histories against the engine"
    )
    verify.add_argument(
        "paths", nargs="+", metavar="PATH", help="scenario or PHH files, or folders"
    )
    verify.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report to FILE")
    verify.add_argument(
        "--json", action="store_true", help="print the results as JSON instead of lines"
    )


def cmd_verify(args: argparse.Namespace) -> int:
    from service.junit import write_junit
    from service.kernels import notice_compiles
    from simulations.phh.results import exit_code
    from simulations.verify.run import verify_paths  # the engine loads only for this command

    notice_compiles()

    out = sys.stdout
    printer = None if args.json else (lambda report: print_report(report, out))
    reports = verify_paths(args.paths, printer)
    code = exit_code(reports)
    if args.json:
        json.dump(as_json(reports, code), out, indent=2)
        out.write("\n")
    else:
        out.write(summary(reports) + "\n")
    if args.junit:
        try:
            write_junit(reports, Path(args.junit))
        except OSError as error:
            print(
                f"cardroom: cannot write {args.junit}: {error.strerror or error}", file=sys.stderr
            )
            return 2
    return code


def print_report(report: FileReport, out: TextIO) -> None:
    """A file's lines: its error, or one line a scenario with what went wrong under it."""
    if report.error:
        out.write(f"MALFORMED {report.path}\n    {report.error}\n")
    for result in report.results:
        out.write(f"{_LABELS[result.outcome.value]} {result.file}: {result.name}\n")
        for line in detail_lines(result):
            out.write(f"    {line}\n")
    out.flush()


def detail_lines(result: ScenarioResult) -> list[str]:
    """What a failed or malformed scenario shows under its line: each difference as the
    field, then the expected and the actual value one above the other."""
    from simulations.phh.results import Outcome

    if result.outcome is Outcome.MALFORMED:
        return [result.message]
    lines = []
    for difference in result.differences:
        lines.append(f"{difference.field}:")
        lines.append(f"    expected {difference.expected}")
        lines.append(f"    actual   {difference.actual}")
    return lines


def counts(reports: Sequence[FileReport]) -> dict[str, int]:
    from simulations.phh.results import Outcome

    results = [r for report in reports for r in report.results]
    return {
        "scenarios": len(results),
        "passed": sum(r.outcome is Outcome.PASSED for r in results),
        "failed": sum(r.outcome is Outcome.FAILED for r in results),
        "malformed": sum(r.outcome is Outcome.MALFORMED for r in results),
        "files": len(reports),
        "malformed_files": sum(bool(report.error) for report in reports),
    }


def summary(reports: Sequence[FileReport]) -> str:
    n = counts(reports)
    files = f"{n['files']} file{'s' * (n['files'] != 1)}"
    if n["malformed_files"]:
        files += f", {n['malformed_files']} unreadable"
    return (
        f"{n['scenarios']} scenario{'s' * (n['scenarios'] != 1)}: {n['passed']} passed, "
        f"{n['failed']} failed, "
        f"{n['malformed']} malformed ({files})"
    )


def as_json(reports: Sequence[FileReport], code: int) -> dict[str, Any]:
    """The results as plain data: every file with its scenarios, and the counts."""
    return {
        "files": [
            {
                "path": report.path,
                "error": report.error,
                "results": [
                    {
                        "file": r.file,
                        "name": r.name,
                        "outcome": r.outcome.value,
                        "seconds": round(r.seconds, 6),
                        "covers": list(r.covers),
                        "differences": [
                            {"field": d.field, "expected": d.expected, "actual": d.actual}
                            for d in r.differences
                        ],
                        "notes": list(r.notes),
                        "message": r.message,
                    }
                    for r in report.results
                ],
            }
            for report in reports
        ],
        "summary": {**counts(reports), "exit_code": code},
    }
