"""The span tagger: the MiniLM encoder, the lexical features as an extra input, a token head.

Features enter twice: projected and added to the word embeddings (so attention can use them, e.g.
to look for a sentence word in the evidence), and concatenated to the last hidden state before the
classifier (so a strong signal such as "this number is not in the source" needs no learning inside
the encoder). Logits are ``n_types`` classes per token: (supported, conflict, baseless) — see
``TOKEN_TYPES`` — or, for the older binary taggers, (supported, unsupported). Either way
P(unsupported) = 1 - P(supported), which is what the span threshold applies to.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

__all__ = ["SpanTagger", "unsupported_prob"]


def unsupported_prob(logits: torch.Tensor) -> torch.Tensor:
    """P(not supported) per token from logits of any number of types (class 0 = supported)."""
    return 1.0 - torch.softmax(logits, dim=-1)[..., 0]


class SpanTagger(nn.Module):
    def __init__(self, encoder: Any, n_features: int, dropout: float = 0.1, n_types: int = 2) -> None:
        super().__init__()
        self.encoder = encoder
        hidden = int(encoder.config.hidden_size)
        self.n_features = n_features
        self.n_types = n_types
        self.feature_embed = nn.Linear(n_features, hidden)
        nn.init.normal_(self.feature_embed.weight, std=0.02)
        nn.init.zeros_(self.feature_embed.bias)
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Sequential(nn.Linear(hidden + n_features, hidden), nn.GELU(), nn.Linear(hidden, n_types))

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        token_type_ids: torch.Tensor,
        features: torch.Tensor,
    ) -> torch.Tensor:
        embeds = self.encoder.embeddings.word_embeddings(input_ids) + self.feature_embed(features)
        out = self.encoder(
            inputs_embeds=embeds,
            attention_mask=attention_mask,
            token_type_ids=token_type_ids,
        ).last_hidden_state
        return self.head(torch.cat([self.dropout(out), features], dim=-1))  # type: ignore[no-any-return]
