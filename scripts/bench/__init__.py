"""Benchmarks of the runner."""
