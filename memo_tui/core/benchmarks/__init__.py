"""Benchmarks that print figures (`memo bench ...`); never run as timed tests."""
