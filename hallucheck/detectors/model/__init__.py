"""Layer 4, model: the shipped span tagger, NLI, the cross-sentence consistency check and the subject–verb–object conflict check."""
