"""Secrets: key rings from settings or a 0600 file; production refuses to invent them."""

from __future__ import annotations

import base64
import stat
from pathlib import Path

import pytest

from jarvis.config import Settings
from jarvis.errors import ConfigurationError
from jarvis.security.keys import KeyRing, load_secrets, new_key


def test_key_ring_parses_formats_and_picks_the_newest_version() -> None:
    ring = KeyRing.parse(f"v1:{new_key()}, v3:{new_key()}")
    assert ring.current_version == 3 and sorted(ring.keys) == [1, 3]
    assert KeyRing.parse(ring.format()) == ring


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1:abc",
        f"v0:{new_key()}",
        f"v1:{new_key()},v1:{new_key()}",
        "v1:not-base64!",
        "v1:" + base64.b64encode(b"short").decode(),
    ],
)
def test_bad_key_rings_are_configuration_errors(text: str) -> None:
    with pytest.raises(ConfigurationError):
        KeyRing.parse(text)


def test_development_generates_a_private_secrets_file_once(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    first = load_secrets(settings)
    path = tmp_path / "secrets.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_secrets(settings) == first


def test_settings_override_the_file(tmp_path: Path) -> None:
    master = f"v2:{new_key()}"
    secrets_ = load_secrets(Settings(data_dir=tmp_path, master_keys=master))  # type: ignore[arg-type]
    assert secrets_.master.current_version == 2


def test_production_refuses_missing_secrets(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="production needs"):
        load_secrets(Settings(data_dir=tmp_path, environment="production"))
    assert not (tmp_path / "secrets.json").exists()
