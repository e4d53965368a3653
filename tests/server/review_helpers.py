"""The review computation counted and held by hand, for the tests of the review's queue."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from spielcenter.services import review as review_service

PATIENCE = 60.0
"""Seconds a test waits for a background review (about one on a quiet machine)."""


class Reviews:
    """The real review, counted; ``hold()`` keeps every computation waiting until ``release()``."""

    def __init__(self) -> None:
        self.computed = 0
        self.gate = threading.Event()
        self.gate.set()
        self.real = review_service.review
        self.faults = 0
        """How many of the next computations break down (a fault of the review, not a refusal)."""

    def __call__(self, *args: Any) -> Any:
        self.computed += 1
        if not self.gate.wait(PATIENCE):
            raise TimeoutError("the test never released the review")
        if self.faults:
            self.faults -= 1
            raise RuntimeError("the review broke down")
        return self.real(*args)

    def hold(self) -> None:
        self.gate.clear()

    def release(self) -> None:
        self.gate.set()


@pytest.fixture
def reviews(monkeypatch: pytest.MonkeyPatch) -> Iterator[Reviews]:
    counted = Reviews()
    monkeypatch.setattr(review_service, "review", counted)
    yield counted
    counted.release()  # a failing test must not leave a worker thread waiting
