"""The agent loop over a scripted 60-turn clinical session, offline model, 100k episodes in the store.

Measured per turn, in one run:
- input tokens of (a) naive chat memory — the whole session history resent every turn — and
  (b) this loop's assembled context (estimated the same way for both), plotted per turn;
- the stable-prefix ratio: the longest common prefix (characters) of consecutive prompts
  (system instruction + contents, serialised) over the newer prompt's length, averaged;
- memory overhead per ask — everything except the model call (de-identification, retrieval,
  safety facts, context assembly, saving, fact extraction, summaries) — p50/p95, with 100k
  episodes over 100 doctors in the store (bulk-loaded as in memory_bench.py).

    python bench/agent_bench.py [--episodes 100000]   # writes bench/results/agent_bench.{json,png}
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import memory_bench  # noqa: E402 - bench/ is not a package
import memory_eval  # noqa: E402

RESULTS = HERE / "results" / "agent_bench.json"
PLOT = HERE / "results" / "agent_bench.png"
DOCTOR, PATIENT, NAME = "dr-000", "00482913", "Gita Bhat"
BUDGET = 6000

# One ICU stay, as a doctor would type it over a day and a night: terse, repetitive, with asides.
OPENING = [
    f"{NAME}, 67F, admitted with urosepsis. Allergic to penicillin - anaphylaxis. On metformin 500 mg bid "
    "and apixaban 5 mg bid for AF. Lactate 4.1, MAP 58. Fluids and antibiotics?",
]
SCRIPT = [
    "MAP still 60 after 30 mL/kg, start norepinephrine? peripheral ok?",
    "noradrenaline at 0.15 mcg/kg/min now, add vasopressin at what dose?",
    "blood cultures grew gram negative rods, keep cefepime or switch to meropenem?",
    "creatinine 2.4 from 1.1, renally adjust cefepime?",
    "hold apixaban with AKI? bleeding risk vs stroke risk",
    "glucose 280 on insulin sliding scale, start insulin infusion?",
    "K 5.9, peaked T waves? no. treatment?",
    "should I give hydrocortisone for refractory shock?",
    "lactate down to 2.8, repeat when?",
    "urine output 15 mL/h for 4 hours, furosemide challenge?",
    "CT abdomen shows obstructing stone with hydronephrosis, urology for stent tonight?",
    "sodium 131, fluids to use now?",
    "pt more confused overnight, CAM positive, haloperidol ok with QT 490?",
    "what DVT prophylaxis now apixaban is held?",
    "culture: E. coli ESBL, cefepime R, meropenem S. duration?",
    "platelets 88 from 190, HIT likely on heparin ppx?",
    "fever 38.9 again on day 3 of meropenem, next steps?",
    "can I restart metformin? eGFR 32",
    "family asks about prognosis, what is her SOFA-based mortality roughly?",
    "weaning norepinephrine, MAP target 65 or lower for her age?",
]
SECOND_HALF = [
    "repeat lactate 1.6, stop vasopressin first or norepinephrine first?",
    "mg 1.4, replace how much IV?",
    "phosphate 0.5, replace?",
    "stent placed, urology says ok to feed, start enteral nutrition rate?",
    "hemoglobin 7.4, transfuse threshold in sepsis without cardiac disease?",
    "restart apixaban when? plts now 120",
    "PICC line for meropenem at home or step down to oral?",
    "any oral option for ESBL E. coli bacteremia given her allergy?",
    "delirium improved, stop haloperidol?",
    "discharge planning: what follow-up labs for the kidney?",
]


def session_questions() -> list[str]:
    questions = OPENING + SCRIPT + SECOND_HALF
    day = 2
    while len(questions) < 60:
        for q in SCRIPT[: 60 - len(questions)]:
            questions.append(f"Day {day}: {q}")
        day += 1
    return questions[:60]


def prompt_string(prompt) -> str:  # noqa: ANN001
    return prompt.system_instruction + "\n" + "\n".join(f"{c.role}: {c.text}" for c in prompt.contents)


def common_prefix(a: str, b: str) -> int:
    return len(os.path.commonprefix([a, b]))


class TimedModel:
    """The offline responder with every prompt kept and the time spent in the model measured."""

    def __init__(self) -> None:
        from jarvis.agent.models.offline import OfflineResponder

        self.inner = OfflineResponder()
        self.prompts: list = []
        self.seconds = 0.0

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def generate(self, prompt):  # noqa: ANN001, ANN201
        started = time.perf_counter()
        reply = self.inner.generate(prompt)
        self.seconds += time.perf_counter() - started
        self.prompts.append(prompt)
        return reply


def run(total_episodes: int) -> dict:
    from jarvis.agent.context import Budget
    from jarvis.agent.instructions import SYSTEM_INSTRUCTION
    from jarvis.agent.loop import Agent, AgentConfig, AskRequest
    from jarvis.agent.tokens import TokenCounter
    from jarvis.config import Settings
    from jarvis.memory.factory import build_deidentifier, build_embedder, open_memory
    from jarvis.memory.records.database import WalCheckpointer

    settings = Settings()
    deid, embedder = build_deidentifier(settings), build_embedder(settings)
    counter = TokenCounter()
    with tempfile.TemporaryDirectory() as tmp:
        memory = open_memory(Settings(data_dir=Path(tmp) / "data"), deid=deid, embedder=embedder)
        pool = memory_bench.pool_texts()[:1500]
        pool_vectors = np.asarray(embedder.embed_documents(pool), dtype=np.float32)
        started = time.perf_counter()
        memory_bench.bulk_load(memory, total_episodes, pool_vectors, pool, np.random.default_rng(1))
        load_seconds = time.perf_counter() - started

        model = TimedModel()
        agent = Agent(memory=memory, deid=deid, model=model, config=AgentConfig(budget=Budget(BUDGET)))
        # As in `jarvis serve`, the WAL is checkpointed in the background, not by an ask's commit.
        checkpointer = WalCheckpointer(memory.store.engine)
        checkpointer.start()
        naive_history: list[str] = []
        naive, ours, overhead, prefix = [], [], [], []
        previous = None
        for n, question in enumerate(session_questions()):
            before = model.seconds
            t = time.perf_counter()
            result = agent.ask(AskRequest(DOCTOR, question, PATIENT, NAME if n == 0 else None, "icu-stay"))
            overhead.append(time.perf_counter() - t - (model.seconds - before))
            prompt = prompt_string(model.prompts[-1])
            ours.append(counter.count(prompt))
            naive.append(counter.count(SYSTEM_INSTRUCTION + "\n" + "\n".join([*naive_history, question])))
            naive_history += [question, result.answer]
            if previous is not None:
                prefix.append(common_prefix(previous, prompt) / len(prompt))
            previous = prompt
        checkpointer.stop()
        memory.store.engine.dispose()

    result = {
        "turns": len(ours),
        "episodes_in_store": total_episodes,
        "store_load_seconds": round(load_seconds, 1),
        "budget_tokens": BUDGET,
        "input_tokens_per_turn": {"naive_full_history": naive, "this_loop": ours},
        "max_input_tokens": {"naive_full_history": max(naive), "this_loop": max(ours)},
        "stable_prefix_ratio_mean": round(statistics.fmean(prefix), 4),
        "memory_overhead_ms": {
            "p50": round(float(np.percentile(overhead, 50)) * 1000, 1),
            "p95": round(float(np.percentile(overhead, 95)) * 1000, 1),
        },
        "targets": {
            "this_loop_bounded_by_budget": True,
            "stable_prefix_ratio": ">= 0.6",
            "overhead_p95_ms": "<= 60",
        },
        "load_average_1m": round(os.getloadavg()[0], 2),
    }
    result["targets"]["this_loop_bounded_by_budget"] = max(ours) <= BUDGET
    return result


def plot(result: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = result["input_tokens_per_turn"]
    turns = range(1, len(series["this_loop"]) + 1)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(turns, series["naive_full_history"], label="naive: whole history every turn")
    ax.plot(turns, series["this_loop"], label="this loop: budgeted context")
    ax.axhline(
        result["budget_tokens"], linestyle="--", color="grey", label=f"budget ({result['budget_tokens']})"
    )
    ax.set_xlabel("turn")
    ax.set_ylabel("input tokens (estimated)")
    ax.set_title(f"60-turn session, offline model, {result['episodes_in_store']:,} episodes in store")
    ax.legend()
    fig.tight_layout()
    fig.savefig(PLOT, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    result = run(args.episodes)
    memory_eval.report(result, RESULTS, write=not args.no_write)
    if not args.no_write:
        plot(result)


if __name__ == "__main__":
    main()
