"""A byte scan of the whole data directory finds no canary name, MRN or raw text (Chroma and SQLite too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deid import Deidentifier
from jarvis.config import Settings
from jarvis.memory.embedders.onnx_minilm import MiniLmOnnxEmbedder
from jarvis.memory.factory import open_memory
from jarvis.memory.types import EpisodeDraft

NAME = "Zebulon Quillfeather"
MRN = "77219934"
PHONE = "617-555-0142"
DOCTOR = "Octavia Brightwater"
QUERY = f"{NAME} (MRN {MRN}, cell {PHONE}) was seen by Dr {DOCTOR} for cellulitis; keep cefazolin?"
CANARIES = [NAME, "Zebulon", "Quillfeather", MRN, PHONE, DOCTOR, "Brightwater", QUERY]


def _files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16-le"])
def test_no_canary_bytes_anywhere_in_the_data_dir(
    tmp_path: Path, deid: Deidentifier, embedder: MiniLmOnnxEmbedder, encoding: str
) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    memory = open_memory(settings, deid=deid, embedder=embedder)
    assert memory is not None
    ids = memory.save_batch(
        "dr-a",
        [
            EpisodeDraft(
                query=QUERY,
                response=f"Yes, continue cefazolin for {NAME.split()[0]}; call {PHONE} if fever.",
                patient_id=MRN,
                patient_name=NAME,
                session_id="canary",
            )
            for _ in range(3)
        ],
        doctor_name=DOCTOR,
    )
    memory.set_outcome("dr-a", ids[0], "accepted", note=f"{NAME} improved")
    memory.add_fact("dr-a", MRN, "allergy", f"{NAME} is allergic to penicillin")
    memory.search("dr-a", f"{NAME} cellulitis", patient_id=MRN)
    memory.store.engine.dispose()

    files = _files(settings.data_dir)
    assert any(f.suffix == ".sqlite3" for f in files) and any("chroma" in f.parts for f in files)
    # Positive control: the scan does see stored (de-identified) clinical words.
    assert any("cefazolin".encode(encoding) in f.read_bytes() for f in files) == (encoding == "utf-8")
    for path in files:
        data = path.read_bytes()
        for canary in CANARIES:
            needle = canary.encode(encoding)
            assert needle not in data and needle.lower() not in data.lower(), f"{canary!r} in {path.name}"
    # ...and the owner still reads it all back.
    assert memory.get("dr-a", ids[0]).patient_name == NAME
