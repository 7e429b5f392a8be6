"""The one exception tree of the memory service. Messages never carry PHI.

    JarvisError
    ├── ConfigurationError        settings or secrets unusable; the service must not start
    ├── InputError                the caller sent something unusable (HTTP 422)
    │   └── InputTooLargeError    over a size limit (HTTP 413)
    ├── NotFoundError             no such resource, or not the caller's (HTTP 404)
    ├── PermissionDeniedError     authenticated, but the role may not do this (HTTP 403)
    ├── AuthenticationError       no or bad credentials (HTTP 401)
    ├── ConflictError             state conflict, e.g. a job already running (HTTP 409)
    ├── RateLimitedError          too many requests for this caller (HTTP 429)
    ├── UnavailableError          a store, the model or de-identification is down (HTTP 503)
    │   ├── DeidentificationFailed   deid raised; nothing was stored (fail closed)
    │   └── UnreachableError      a store could not even be connected to: the request was never sent
    └── DataIntegrityError        stored data fails its check: tampering or a missing key (HTTP 500)

Third-party errors are translated at the boundary with `raise XError(msg) from exc`, so callers
only ever catch these.
"""

from __future__ import annotations


class JarvisError(Exception):
    """Base of every error the service raises on purpose."""

    code = "internal_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ConfigurationError(JarvisError):
    code = "configuration_error"


class InputError(JarvisError):
    code = "invalid_input"


class InputTooLargeError(InputError):
    code = "input_too_large"


class NotFoundError(JarvisError):
    code = "not_found"


class PermissionDeniedError(JarvisError):
    code = "forbidden"


class AuthenticationError(JarvisError):
    code = "unauthenticated"


class ConflictError(JarvisError):
    code = "conflict"


class RateLimitedError(JarvisError):
    code = "rate_limited"


class UnavailableError(JarvisError):
    code = "unavailable"


class DeidentificationFailed(UnavailableError):
    code = "deidentification_failed"


class UnreachableError(UnavailableError):
    """The connection was refused or never established, so the store did not see the request
    (a failed write there needs no undo). Same code as its parent: callers see "unavailable"."""


class DataIntegrityError(JarvisError):
    code = "data_integrity_error"
