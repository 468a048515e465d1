"""Unit tests of scripts/ci."""
