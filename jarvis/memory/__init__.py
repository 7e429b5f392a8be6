"""Episodic memory: episodes, embedders, the Chroma vector index, the record store, retrieval."""
