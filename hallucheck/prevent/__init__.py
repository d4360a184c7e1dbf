"""Preventing hallucinations: answer prompts, the retrieval guard, abstention, repair and the guard loop."""
