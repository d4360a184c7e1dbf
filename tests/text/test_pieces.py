"""Word pieces estimated without a tokenizer."""

from hallucheck.text.pieces import pieces_estimate


def test_a_cjk_character_is_a_piece_and_other_text_four_characters_a_piece():
    assert pieces_estimate("") == 0
    assert pieces_estimate("法国的首都是巴黎") == 8
    assert pieces_estimate("abcdefgh") == 2
    assert pieces_estimate("abcde") == 2
    assert pieces_estimate("巴黎 is") == 2 + 1
