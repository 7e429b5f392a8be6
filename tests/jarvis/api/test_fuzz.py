"""Property-based fuzzing of the whole API from its own OpenAPI schema (schemathesis + hypothesis),
authenticated: no 5xx, responses that conform to the schema, nothing of doctor A's in doctor B's
answers. Operations are driven one by one with hypothesis directly (schemathesis' pytest plugin does
not load under this pytest version)."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from jarvis.api.app import create_app
from jarvis.api.resources import Resources
from jarvis.memory.types import EpisodeDraft
from tests.jarvis.api.conftest import bearer

EXAMPLES_PER_OPERATION = 10
# What the issue asks: no 5xx and responses that conform to the schema (status, content type, body,
# headers). Not "positive data acceptance": some rules (created_at not in the future, a name needs a
# patient id) are checked by the service and cannot be said in JSON Schema.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


def test_every_operation_as_doctor_b(resources: Resources) -> None:
    assert resources.memory is not None
    secret = resources.memory.save(
        "dr-a", EpisodeDraft("Potassium 6.1 on spironolactone?", "Stop.", patient_id="00482913")
    )
    headers = bearer(resources.api_keys.create("clinician", "dr-b").token)
    app = create_app(resources.settings.model_copy(update={"rate_limit_per_minute": 100_000}), resources)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    checked = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy())
        def run(case: Any) -> None:
            response = case.call(headers=headers)
            assert response.status_code < 500, (case.method, case.path, response.text)
            case.validate_response(response, checks=CHECKS)
            assert secret not in response.text

        run()
        checked.append(f"{operation.method.upper()} {operation.path}")
    documented = sum(len(methods) for methods in app.openapi()["paths"].values())
    assert len(checked) == documented >= 17, checked
