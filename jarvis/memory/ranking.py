"""Hybrid ranking of retrieved episodes: dense cosine + lexical match + outcome feedback.

    score = cosine
          + LEXICAL_WEIGHT * lexical / max(lexical of this result list)   (0 when no term matches)
          + OUTCOME_ADJUSTMENT[outcome]
          + PATIENT_BOOST when the episode is about the patient being asked about

Why these terms: the MiniLM embedding captures paraphrase ("blood thinner" ~ "anticoagulant") but
blurs rare exact terms (a drug, an organism, a test name) that a clinician's question hinges on;
the full-text index (bm25 / ts_rank) captures exactly those. Outcome feedback makes "what did I
decide last time" work: advice the doctor accepted ranks up, rejected advice ranks down (but stays
findable — a rejected plan is still worth recalling). The weights are on the cosine's scale, so
`min_similarity` thresholds the final score; they were chosen before looking at the evaluation
set and the benchmark (bench/memory_bench.py) reports what they give.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from jarvis.memory.types import Outcome

LEXICAL_WEIGHT = 0.25
PATIENT_BOOST = 0.05
OUTCOME_ADJUSTMENT: Mapping[Outcome | None, float] = {
    None: 0.0,
    Outcome.ACCEPTED: 0.05,
    Outcome.MODIFIED: 0.02,
    Outcome.REJECTED: -0.10,
}


@dataclass(frozen=True, slots=True)
class Ranked:
    episode_id: str
    similarity: float
    score: float


def rank(
    cosines: Mapping[str, float],
    lexical: Mapping[str, float],
    outcomes: Mapping[str, Outcome | None],
    *,
    boosted: frozenset[str] = frozenset(),
    lexical_weight: float = LEXICAL_WEIGHT,
    use_outcomes: bool = True,
) -> list[Ranked]:
    """Candidates (every id must have a cosine) sorted best first; ties broken by id for stability."""
    top_lexical = max(lexical.values(), default=0.0)
    ranked = []
    for episode_id, cosine in cosines.items():
        score = cosine
        if top_lexical > 0:
            score += lexical_weight * max(lexical.get(episode_id, 0.0), 0.0) / top_lexical
        if use_outcomes:
            score += OUTCOME_ADJUSTMENT[outcomes.get(episode_id)]
        if episode_id in boosted:
            score += PATIENT_BOOST
        ranked.append(Ranked(episode_id, cosine, score))
    ranked.sort(key=lambda r: (-r.score, r.episode_id))
    return ranked


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine of two L2-normalised vectors."""
    if len(a) != len(b):
        raise ValueError("vectors of different dimensions")
    return float(np.dot(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)))
