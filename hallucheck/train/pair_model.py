"""The pair model: an encoder over ``[CLS] premise [SEP] hypothesis [SEP]`` and a 3-way head.

The head reads the ``[CLS]`` state, as NLI cross-encoders do, and returns logits in
:data:`hallucheck.train.pair_data.PAIR_LABELS` order (entailment, neutral, contradiction). The
encoder starts from a shipped span tagger's encoder (its int8 weights dequantised), which has
already learned to compare answer words with evidence in the languages it reads.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

__all__ = ["PairClassifier", "encoder_state_from_tagger"]


class PairClassifier(nn.Module):
    def __init__(self, encoder: Any, n_labels: int = 3, dropout: float = 0.1) -> None:
        super().__init__()
        self.encoder = encoder
        hidden = int(encoder.config.hidden_size)
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, n_labels))

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor) -> torch.Tensor:
        out = self.encoder(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state
        return self.head(self.dropout(out[:, 0]))  # type: ignore[no-any-return]


def encoder_state_from_tagger(path: str) -> dict[str, Any]:
    """The encoder weights of a span tagger (its ``model.onnx`` or a run's ``.pt``), as BertModel keys."""
    if path.endswith(".onnx"):
        from hallucheck.train.onnx_weights import state_dict_from_onnx  # lazy: heavy: pulls in numpy; loaded only when this path runs

        state = state_dict_from_onnx(path)
    else:
        state = dict(torch.load(path, map_location="cpu", weights_only=False)["model"])
    prefix = "encoder."
    return {k[len(prefix):]: torch.as_tensor(v) for k, v in state.items() if k.startswith(prefix)}
