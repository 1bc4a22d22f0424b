import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest

import figures


class _Figures:
    """Figures the tests measure (the differential agreement, ...), printed in the summary:
    a test's own output is not shown under pytest-xdist, its user properties are."""

    def __init__(self):
        self.lines: list[str] = []
        self.tallies: dict[str, dict[str, int]] = {}  # figure -> counts summed over chunks

    def pytest_runtest_logreport(self, report):
        if report.when != "call":
            return
        for key, value in report.user_properties:
            if key == "figure":
                self.lines.append(value)
            elif key == "tally":
                name, counts = value
                into = self.tallies.setdefault(name, {})
                for k, v in counts.items():
                    into[k] = into.get(k, 0) + v

    def pytest_terminal_summary(self, terminalreporter):
        lines = self.lines + [line for name in sorted(self.tallies)
                              for line in figures.render(name, self.tallies[name])]
        if lines:
            terminalreporter.section("figures")
            for line in lines:
                terminalreporter.write_line(line)


def pytest_configure(config):
    config.pluginmanager.register(_Figures(), "importsafe-figures")


@pytest.fixture
def figure(record_property):
    """figure(text): a line for the run's summary."""
    return lambda text: record_property("figure", text)


@pytest.fixture
def tally(record_property):
    """tally(figure, counts): this test's share of a figure that chunks add up (figures.py)."""
    return lambda name, counts: record_property("tally", [name, dict(counts)])
