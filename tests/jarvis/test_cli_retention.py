"""`jarvis retention run`, `jarvis patients erase`, `jarvis legal-holds add|remove`."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from jarvis import cli
from jarvis.cli import retention_commands
from jarvis.config import Settings
from jarvis.errors import JarvisError
from jarvis.memory.factory import open_memory
from jarvis.memory.types import EpisodeDraft

MRN = "00482913"


@pytest.fixture(autouse=True)
def _reuse_models(monkeypatch: pytest.MonkeyPatch, deid: object, embedder: object) -> None:
    monkeypatch.setattr("jarvis.memory.factory.build_deidentifier", lambda _settings: deid)
    monkeypatch.setattr("jarvis.memory.factory.build_embedder", lambda _settings: embedder)


def parser() -> argparse.ArgumentParser:
    built = cli.build_parser()
    sub = next(a for a in built._actions if isinstance(a, argparse._SubParsersAction))
    if "retention" not in sub.choices:  # until jarvis/cli/__init__.py registers them
        retention_commands.add_parsers(sub)
    return built


def run(settings: Settings, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    args = parser().parse_args(list(argv))
    assert args.handler(args, settings) == 0
    return capsys.readouterr().out


def test_retention_holds_and_erasure_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], deid: object, embedder: object
) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    memory = open_memory(settings, deid=deid, embedder=embedder)  # type: ignore[arg-type]
    assert memory is not None
    old = datetime.now(UTC) - timedelta(days=120)
    memory.save_batch("dr-a", [EpisodeDraft("Urosepsis plan", "Cefepime.", created_at=old)] * 2)
    memory.save_batch("dr-a", [EpisodeDraft("Anticoagulation", "Apixaban.", patient_id=MRN, created_at=old)])
    memory.save_batch("dr-b", [EpisodeDraft("Cellulitis", "Cefazolin.", patient_id=MRN)])
    memory.store.engine.dispose()

    assert "legal hold added" in run(settings, capsys, "legal-holds", "add", "--patient-id", MRN)
    dry = json.loads(run(settings, capsys, "retention", "run", "--dry-run", "--json"))
    assert (dry["candidates"], dry["deleted"], dry["held"], dry["dry_run"]) == (2, 0, 1, True)
    report = json.loads(run(settings, capsys, "retention", "run", "--json"))
    assert (report["deleted"], report["held"]) == (2, 1)
    assert "deleted 0 episodes" in run(settings, capsys, "retention", "run")

    with pytest.raises(JarvisError, match="legal hold"):
        run(settings, capsys, "patients", "erase", "--patient-id", MRN)
    assert "legal hold removed" in run(settings, capsys, "legal-holds", "remove", "--patient-id", MRN)
    erased = json.loads(run(settings, capsys, "patients", "erase", "--patient-id", MRN, "--json"))
    assert (erased["episodes"], erased["doctors"]) == (2, 2)
    with pytest.raises(JarvisError, match="no legal hold"):
        run(settings, capsys, "legal-holds", "remove", "--patient-id", MRN)
