"""CI steps that exercise a build: packaging, reconfigure, profile coverage, the as-shipped run."""
