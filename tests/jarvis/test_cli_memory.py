"""`jarvis import` and `jarvis search`: stable output shapes, errors without PHI, memory switched off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jarvis import cli
from jarvis.config import get_settings

EPISODES = [
    {"query": "Potassium 6.1 on spironolactone, what now?", "response": "Stop spironolactone; give calcium."},
    {
        "query": "Gita Bhat has urosepsis, which antibiotics?",
        "response": "Cefepime after cultures.",
        "patient": {"id": "00482913", "name": "Gita Bhat"},
        "created_at": "2025-07-02T10:00:00Z",
    },
    {"query": "DKA with potassium 3.1, insulin now?", "response": "Replace potassium first."},
]


@pytest.fixture(autouse=True)
def _shared_models(monkeypatch: pytest.MonkeyPatch, deid: object, embedder: object) -> None:
    monkeypatch.setattr("jarvis.memory.factory.build_deidentifier", lambda _settings: deid)
    monkeypatch.setattr("jarvis.memory.factory.build_embedder", lambda _settings: embedder)


@pytest.fixture
def episodes_file(tmp_path: Path) -> Path:
    path = tmp_path / "episodes.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in EPISODES), encoding="utf-8")
    return path


def _lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_import_prints_one_id_per_record_and_search_finds_them(
    tmp_path: Path, episodes_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    assert cli.main([*data, "import", str(episodes_file), "--doctor", "dr-a", "--json"]) == 0
    imported = _lines(capsys.readouterr().out)
    assert len(imported) == 3 and all(set(r) == {"episode_id"} for r in imported)

    queries = tmp_path / "queries.jsonl"
    queries.write_text(
        '{"query": "hyperkalaemia on spironolactone"}\n{"query": "antibiotics for urosepsis"}\n'
    )
    assert (
        cli.main([*data, "search", "--doctor", "dr-a", "--queries", str(queries), "--k", "2", "--json"]) == 0
    )
    results = _lines(capsys.readouterr().out)
    assert len(results) == 2
    assert results[0]["hits"][0]["episode_id"] == imported[0]["episode_id"]  # type: ignore[index]
    assert results[1]["hits"][0]["episode_id"] == imported[1]["episode_id"]  # type: ignore[index]
    hit = results[1]["hits"][0]  # type: ignore[index]
    assert set(hit) == {"episode_id", "similarity", "score", "created_at", "summary", "outcome"}
    assert hit["created_at"].startswith("2025-07-02") and "Bhat" not in hit["summary"]

    assert cli.main([*data, "search", "--doctor", "dr-b", "--query", "urosepsis", "--json"]) == 0
    assert _lines(capsys.readouterr().out) == [{"hits": []}]


def test_a_bad_line_imports_nothing_and_names_the_line_not_the_text(
    tmp_path: Path, episodes_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with episodes_file.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"query": "Gita Bhat again", "respons": "typo"}) + "\n")
    data = ["--data-dir", str(tmp_path / "data")]
    code = cli.main([*data, "import", str(episodes_file), "--doctor", "dr-a"])
    err = capsys.readouterr().err
    assert code == 1 and "line 4" in err and "Bhat" not in err
    assert not (tmp_path / "data").exists()  # validated before anything was opened


def test_future_created_at_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(json.dumps({"query": "q", "response": "r", "created_at": "2999-01-01T00:00:00Z"}) + "\n")
    assert cli.main(["--data-dir", str(tmp_path / "data"), "import", str(path), "--doctor", "dr-a"]) == 1
    assert "created_at is in the future" in capsys.readouterr().err


def test_memory_disabled_turns_everything_off(
    tmp_path: Path, episodes_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JARVIS_MEMORY_ENABLED", "false")
    get_settings.cache_clear()
    try:
        code = cli.main(
            ["--data-dir", str(tmp_path / "data"), "import", str(episodes_file), "--doctor", "dr-a"]
        )
    finally:
        get_settings.cache_clear()
    assert code == 1 and "memory is disabled" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()


def test_keys_rewrap_after_adding_a_master_key_version(
    tmp_path: Path, episodes_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from jarvis.security.keys import KeyRing, new_key

    data = ["--data-dir", str(tmp_path / "data")]
    old = f"v1:{new_key()}"
    monkeypatch.setenv("JARVIS_MASTER_KEYS", old)
    get_settings.cache_clear()
    assert cli.main([*data, "import", str(episodes_file), "--doctor", "dr-a", "--json"]) == 0
    first = _lines(capsys.readouterr().out)[0]["episode_id"]
    new = f"v2:{new_key()}"
    monkeypatch.setenv("JARVIS_MASTER_KEYS", f"{new},{old}")
    get_settings.cache_clear()
    assert cli.main([*data, "keys", "rewrap", "--json"]) == 0
    assert _lines(capsys.readouterr().out) == [{"rewrapped": 3, "master_key_version": 2}]
    monkeypatch.setenv("JARVIS_MASTER_KEYS", new)  # the old version is gone
    get_settings.cache_clear()
    from jarvis.memory.factory import open_memory

    memory = open_memory(get_settings().model_copy(update={"data_dir": tmp_path / "data"}))
    get_settings.cache_clear()
    assert memory is not None and KeyRing.parse(new).current_version == 2
    assert memory.get("dr-a", str(first)).query == EPISODES[0]["query"]


def test_cli_actions_are_audited_and_the_log_verifies(
    tmp_path: Path, episodes_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    assert cli.main([*data, "import", str(episodes_file), "--doctor", "dr-a", "--json"]) == 0
    assert cli.main([*data, "search", "--doctor", "dr-a", "--query", "potassium", "--json"]) == 0
    capsys.readouterr()
    assert cli.main([*data, "audit", "verify", "--json"]) == 0
    result = _lines(capsys.readouterr().out)[0]
    assert result["ok"] is True and result["events_checked"] == 2 and result["first_bad_seq"] is None
    from jarvis.audit.commands import open_audit_log
    from jarvis.audit.query import AuditQuery

    log = open_audit_log(get_settings().model_copy(update={"data_dir": tmp_path / "data"}))
    names = [(e.subtype, e.actor) for e in log.query(AuditQuery()).events]
    assert names == [("episode.create", "cli"), ("memory.search", "cli"), ("audit.verify", "cli")]
    log.engine.dispose()


def test_data_dir_is_taken_before_or_after_the_command(tmp_path: Path) -> None:
    parser = cli.build_parser()
    assert parser.parse_args(["--data-dir", str(tmp_path), "deid", "-"]).data_dir == tmp_path
    assert parser.parse_args(["deid", "-", "--data-dir", str(tmp_path)]).data_dir == tmp_path
    assert parser.parse_args(["audit", "verify", "--data-dir", str(tmp_path)]).data_dir == tmp_path
    # Given only before the command, a subcommand's own (absent) option does not reset it.
    assert parser.parse_args(["--data-dir", str(tmp_path), "audit", "verify"]).data_dir == tmp_path
    assert parser.parse_args(["audit", "verify"]).data_dir is None
