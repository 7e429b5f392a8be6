"""The FastAPI web API (DESIGN §5): routes per resource, typed dependencies, one error mapping."""
