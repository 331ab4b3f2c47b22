"""Checks every ruleset must pass, shared by the test suite (no I/O)."""
