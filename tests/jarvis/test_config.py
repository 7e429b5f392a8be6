from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from jarvis.config import Settings


def test_settings_come_from_jarvis_env_vars(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("JARVIS_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("JARVIS_LOG_LEVEL", "DEBUG")
    settings = Settings()
    assert settings.data_dir == tmp_path and settings.log_level == "DEBUG"


def test_bad_setting_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JARVIS_DEID_MAX_CHARS", "0")
    with pytest.raises(ValidationError):
        Settings()
