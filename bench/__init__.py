"""Benchmarks: scripts that print figures. Not part of the test run."""
