"""Layer 2, lexical: n-gram novelty and ROUGE-L / LCS overlap with the sources."""
