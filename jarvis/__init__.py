"""Jarvis memory: the episodic-memory backend of the Jarvis clinical assistant."""

__version__ = "0.1.0"
