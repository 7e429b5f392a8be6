"""`jarvis deid`, as DESIGN.md §5 (CLI) describes it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from jarvis import cli

NOTE = "Pt Gita Bhat seen 7/22 by dr healey, MRN 00482913. On lisinopril 10 mg daily.\n"


@pytest.fixture(autouse=True)
def _reuse_deidentifier(monkeypatch: pytest.MonkeyPatch, deid: object) -> None:
    # The CLI builds its own Deidentifier; the session one saves a second model load per test.
    monkeypatch.setattr("deid.Deidentifier", lambda **_kwargs: deid)


def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str = ""
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    assert cli.main(argv) == 0
    return capsys.readouterr().out


def test_deid_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "note.txt"
    path.write_text(NOTE, encoding="utf-8")
    out = run(monkeypatch, capsys, ["deid", str(path)])
    assert out == "Pt [NAME] seen [DATE] by dr [NAME], MRN [ID]. On lisinopril 10 mg daily.\n"


def test_deid_stdin_with_known_name_and_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run(
        monkeypatch,
        capsys,
        ["deid", "-", "--known-name", "Lisa Nopril", "--json", "--spans"],
        stdin="Lisa called.",
    )
    payload = json.loads(out)
    assert payload["text"] == "[NAME] called."
    assert payload["spans"] == [{"start": 0, "end": 4, "entity": "NAME", "score": 1.0}]


def test_deid_jsonl_field(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = json.dumps({"id": 1, "note": NOTE}) + "\n" + json.dumps({"id": 2, "note": "no phi"}) + "\n"
    out = run(monkeypatch, capsys, ["deid", "--jsonl", "--field", "note"], stdin=lines)
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in records] == [1, 2]
    assert "Bhat" not in records[0]["note"] and records[1]["note"] == "no phi"


def test_deid_jsonl_bad_line_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"note": "x"}\nnot json\n'))
    with pytest.raises(SystemExit, match="line 2: not valid JSON"):
        cli.main(["deid", "--jsonl", "--field", "note"])
