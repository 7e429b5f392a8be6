"""The agent loop: context assembly within a token budget, model adapters, memory tools."""
