"""Pytest fixtures for the fakes. Load them with `pytest_plugins = ["tests.fakes.fixtures"]`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.gemini_server import FakeGeminiServer


@pytest.fixture
def gemini_server() -> Iterator[FakeGeminiServer]:
    """A fresh fake Gemini API on a free loopback port; its API key is `gemini_server.api_key`."""
    with FakeGeminiServer() as server:
        yield server


class Sleeps(list[float]):
    """Stands in for time.sleep in retry code: records the delays instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()
