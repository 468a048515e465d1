"""Unit tests of scripts/faults."""
