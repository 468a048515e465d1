"""Unit tests of scripts/bench."""
