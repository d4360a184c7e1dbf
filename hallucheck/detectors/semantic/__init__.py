"""Layer 3, semantic: embedding alignment of answer units with source sentences."""
