"""docker-compose.yml is valid and says what the README promises: `docker compose config` (or Debian's
`docker-compose config`, which needs no Docker engine) with a test env file. Skipped, with the reason,
where neither is installed (.ci/run installs docker-compose)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
TEST_ENV = Path(__file__).with_name("compose.env")
SECRETS = ("POSTGRES_PASSWORD", "JARVIS_MASTER_KEYS", "JARVIS_PSEUDONYM_KEYS", "JARVIS_AUDIT_KEY")


def compose_command() -> list[str] | None:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    found = shutil.which("docker-compose")
    return [found] if found else None


@pytest.fixture(scope="module")
def compose() -> list[str]:
    command = compose_command()
    if command is None:
        pytest.skip("neither `docker compose` nor `docker-compose` is installed")
    return command


def run_config(compose: list[str], env_file: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    # A clean environment: variables of the caller's shell must not fill in what the file lacks.
    return subprocess.run(
        [*compose, "--env-file", str(env_file), "-f", str(ROOT / "docker-compose.yml"), "config", *extra],
        capture_output=True, text=True, cwd=ROOT, env={"PATH": "/usr/local/bin:/usr/bin:/bin"}, timeout=60,
    )  # fmt: skip


@pytest.fixture(scope="module")
def config(compose: list[str]) -> dict[str, Any]:
    assert run_config(compose, TEST_ENV, "-q").returncode == 0
    result = run_config(compose, TEST_ENV)
    assert result.returncode == 0, result.stderr
    parsed: dict[str, Any] = yaml.safe_load(result.stdout)
    return parsed


def test_config_passes_with_every_secret_set(config: dict[str, Any]) -> None:
    assert set(config["services"]) == {"proxy", "api", "scheduler", "chroma", "postgres"}


@pytest.mark.parametrize("missing", SECRETS)
def test_no_secret_has_a_default(compose: list[str], tmp_path: Path, missing: str) -> None:
    lines = [line for line in TEST_ENV.read_text().splitlines() if not line.startswith(f"{missing}=")]
    env_file = tmp_path / "partial.env"
    env_file.write_text("\n".join(lines) + "\n")
    result = run_config(compose, env_file, "-q")
    assert result.returncode != 0 and missing in result.stderr


def test_the_example_env_file_is_refused_until_filled_in(compose: list[str]) -> None:
    assert run_config(compose, ROOT / ".env.example", "-q").returncode != 0


def test_replicas_workers_and_health_checks(config: dict[str, Any]) -> None:
    services = config["services"]
    api = services["api"]
    assert int(api["deploy"]["replicas"]) >= 2
    assert "--workers" in api["command"] and "--graceful-timeout" in api["command"]
    assert "/readyz" in " ".join(api["healthcheck"]["test"])
    assert "/api/v2/heartbeat" in " ".join(services["chroma"]["healthcheck"]["test"])
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    assert services["proxy"]["depends_on"]["api"]["condition"] == "service_healthy"
    for name in ("api", "scheduler"):
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert services[name]["depends_on"]["chroma"]["condition"] == "service_healthy"
        assert "limits" in services[name]["deploy"]["resources"]


def test_secrets_come_from_the_env_file_and_only_the_proxy_is_published(config: dict[str, Any]) -> None:
    values = dict(line.split("=", 1) for line in TEST_ENV.read_text().splitlines() if "=" in line)
    services = config["services"]
    for name in ("api", "scheduler"):
        environment = services[name]["environment"]
        assert environment["JARVIS_ENVIRONMENT"] == "production"
        for secret in SECRETS[1:]:
            assert environment[secret] == values[secret]
        assert values["POSTGRES_PASSWORD"] in environment["JARVIS_DATABASE_URL"]
    published = {name: service.get("ports", []) for name, service in services.items()}
    assert [name for name, ports in published.items() if ports] == ["proxy"]
    assert all(str(p.get("host_ip", p) if isinstance(p, dict) else p).startswith("127.0.0.1")
               for p in published["proxy"])  # fmt: skip
    assert config["networks"]["backend"]["internal"] is True


def test_env_files_with_secrets_are_never_committed_nor_built_into_the_image() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(["git", "check-ignore", ".env", ".env.production", "topology.env"],
                             cwd=ROOT, capture_output=True, text=True)  # fmt: skip
    assert ignored.stdout.split() == [".env", ".env.production", "topology.env"]
    assert subprocess.run(["git", "check-ignore", "-q", ".env.example"], cwd=ROOT).returncode == 1
    dockerignore = (ROOT / ".dockerignore").read_text().split()
    assert ".env" in dockerignore and ".env.*" in dockerignore
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--require-hashes -r requirements/models.txt" in dockerfile
    assert "KEYS=" not in dockerfile and "AUDIT_KEY" not in dockerfile
