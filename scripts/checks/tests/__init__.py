"""Unit tests of scripts/checks."""
