"""Unit tests of scripts/judges."""
