"""Unit tests of scripts/setup."""
