"""Unit tests of scripts/reports."""
