"""Unit tests of scripts/assets."""
