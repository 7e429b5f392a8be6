"""Local token estimates, reconciled with what the model reports.

The budget is enforced before the call, so it needs an estimate: about four characters per token
for English clinical text (never fewer tokens than words). When the model reports its real input
token count, the ratio real/estimated moves a calibration factor (bounded, smoothed), so estimates
for this deployment's model converge on its tokenizer.
"""

from __future__ import annotations

import math
import threading

CHARS_PER_TOKEN = 4.0
_SMOOTHING = 0.2
_FACTOR_BOUNDS = (0.5, 2.0)


def raw_estimate(text: str) -> int:
    if not text:
        return 0
    return max(math.ceil(len(text) / CHARS_PER_TOKEN), len(text.split()))


class TokenCounter:
    def __init__(self) -> None:
        self._factor = 1.0
        self._lock = threading.Lock()

    @property
    def factor(self) -> float:
        return self._factor

    def count(self, text: str) -> int:
        return math.ceil(raw_estimate(text) * self._factor)

    def reconcile(self, estimated_raw: int, reported: int) -> None:
        """Fold one (raw estimate, reported) pair into the calibration factor."""
        if estimated_raw <= 0 or reported <= 0:
            return
        observed = min(max(reported / estimated_raw, _FACTOR_BOUNDS[0]), _FACTOR_BOUNDS[1])
        with self._lock:
            self._factor = (1 - _SMOOTHING) * self._factor + _SMOOTHING * observed

    def truncate(self, text: str, max_tokens: int) -> str:
        """The text cut to about max_tokens at a word boundary, marked as truncated."""
        if self.count(text) <= max_tokens:
            return text
        keep = max(int(max_tokens * CHARS_PER_TOKEN / self._factor) - 16, 0)
        cut = text[:keep].rsplit(" ", 1)[0] if " " in text[:keep] else text[:keep]
        return f"{cut} […truncated]"
