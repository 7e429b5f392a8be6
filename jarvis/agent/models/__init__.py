"""Model adapters behind one Protocol: Gemini (google-genai) and the offline responder."""

from jarvis.agent.models.base import (
    ChatModel,
    Content,
    FunctionCall,
    FunctionResponse,
    ModelReply,
    Prompt,
    ToolSpec,
    Usage,
)

__all__ = [
    "ChatModel",
    "Content",
    "FunctionCall",
    "FunctionResponse",
    "ModelReply",
    "Prompt",
    "ToolSpec",
    "Usage",
]
