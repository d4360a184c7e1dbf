"""Layer 4, model: the shipped span tagger, NLI and the cross-sentence consistency check."""
