"""Report tools: merge, compare and render the runner's JSON reports; report_io is the checked loader all scripts use."""
