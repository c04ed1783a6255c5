"""Shared pytest hook: with ``FOS_TEST_TIMES=PATH`` set, each test phase's duration is
appended to PATH as it finishes (``seconds phase outcome node-id``), so a GPU run cut by
its time limit still says where the time went. Under pytest-xdist only the controller
writes (it sees every worker's reports)."""

from __future__ import annotations

import os


def pytest_runtest_logreport(report) -> None:
    path = os.environ.get("FOS_TEST_TIMES")
    if not path or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    with open(path, "a") as out:
        out.write(f"{report.duration:.3f} {report.when} {report.outcome} {report.nodeid}\n")
