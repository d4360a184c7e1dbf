"""Layer 1, rules: citation checks, hedging/overclaiming phrases, numbers and entities."""
