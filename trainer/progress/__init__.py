"""Everything the learner does, kept: graded decisions, puzzle progress, finished games, CSV export."""
