"""Shared by every test: toolshape's cache (cache.py) lives in a temporary folder, never in ~/.cache."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point TOOLSHAPE_CACHE_DIR at a folder of this test session (subprocesses inherit it)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TOOLSHAPE_CACHE_DIR", str(tmp_path_factory.mktemp("toolshape-cache")))
        yield
