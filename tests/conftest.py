import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest


class _Figures:
    """Figures the tests measure (the differential agreement, ...), printed in the summary:
    a test's own output is not shown under pytest-xdist, its user properties are."""

    def __init__(self):
        self.lines: list[str] = []

    def pytest_runtest_logreport(self, report):
        if report.when == "call":
            self.lines.extend(v for k, v in report.user_properties if k == "figure")

    def pytest_terminal_summary(self, terminalreporter):
        if self.lines:
            terminalreporter.section("figures")
            for line in self.lines:
                terminalreporter.write_line(line)


def pytest_configure(config):
    config.pluginmanager.register(_Figures(), "importsafe-figures")


@pytest.fixture
def figure(record_property):
    """figure(text): a line for the run's summary."""
    return lambda text: record_property("figure", text)
