"""Consistency checks of the source tree and its docs (format, layering, family footprint, coverage, counts)."""
