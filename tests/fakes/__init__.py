"""Local fakes of remote APIs (loopback only), driven by the real client libraries."""
