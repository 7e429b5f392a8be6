"""Embedders: the local ONNX MiniLM (default) and Gemini, behind one Protocol."""

from jarvis.memory.embedders.base import Embedder, EmbedderIdentity, Vectors

__all__ = ["Embedder", "EmbedderIdentity", "Vectors"]
