"""Language-aware text handling with exact character offsets back into the original text."""

from hallucheck.text.language import base_language, detect_language, is_cjk_char
from hallucheck.text.segments import Segment
from hallucheck.text.sentences import split_sentences
from hallucheck.text.stopwords import is_stopword, stopwords
from hallucheck.text.tokens import Token, content_tokens, lemma, tokenize

__all__ = [
    "Segment",
    "Token",
    "base_language",
    "content_tokens",
    "detect_language",
    "is_cjk_char",
    "is_stopword",
    "lemma",
    "split_sentences",
    "stopwords",
    "tokenize",
]
