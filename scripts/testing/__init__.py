"""Helpers shared by the scripts' unit tests."""
