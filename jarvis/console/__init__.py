"""The web console: static HTML, one JS module and one CSS file served at /console.

It talks to the public API only, with the signed-in user's own token (kept in sessionStorage), so
it has no privileges of its own: what each role may see is decided by the API, not by the page.
"""
