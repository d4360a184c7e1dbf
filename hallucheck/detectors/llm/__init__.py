"""Layer 5, LLM: judges, claim checks, self-consistency and knowledge lookup, with their schemas."""
