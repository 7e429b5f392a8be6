"""The one interface every embedder implements, and the identity that ties vectors to a model.

A collection never mixes embedding models or dimensions: `EmbedderIdentity` (model id + dimension)
is part of the vector index's identity, and opening an index with another identity is an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

# One vector per input text, every vector of length `identity.dimension`, L2-normalised.
Vectors = list[list[float]]


@dataclass(frozen=True, slots=True)
class EmbedderIdentity:
    """What a stored vector is comparable with: same model, same dimension."""

    model_id: str
    dimension: int

    @property
    def slug(self) -> str:
        """A name fragment safe for collection names: lower-case letters, digits and dashes."""
        cleaned = "".join(c if c.isalnum() else "-" for c in self.model_id.lower()).strip("-")
        return f"{cleaned}-{self.dimension}"


@runtime_checkable
class Embedder(Protocol):
    """Turns de-identified text into vectors. Never pass raw clinical text to an embedder."""

    @property
    def identity(self) -> EmbedderIdentity:
        """Model id and output dimension of every vector this embedder returns."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Vectors for texts to be stored and searched (episodes). Order matches `texts`.

        Raises UnavailableError when the model cannot be reached, InputError for unusable input.
        """
        ...

    def embed_query(self, text: str) -> list[float]:
        """The vector of one search query (models with task types embed queries differently)."""
        ...
