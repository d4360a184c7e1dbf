"""The compact simplemma dictionaries: the same lemmas and known words, a fraction of the memory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hallucheck.text.lexicons import is_known, lemmatize

ROOT = Path(__file__).resolve().parents[2]

WORDS = {
    "en": ["houses", "running", "better", "was", "mice", "children", "flew", "analyses", "zyxwv"],
    "de": ["häuser", "gegangen", "lieferung", "verkäufe", "gestiegen", "werktage", "bundesregierung", "xyzq"],
    "fr": ["maisons", "allées", "gouvernement", "annoncé", "retraites", "entrera", "syndicats", "xyzq"],
}


@pytest.mark.parametrize("language", sorted(WORDS))
def test_same_answers_as_the_default_dictionaries(language: str) -> None:
    import simplemma

    for word in WORDS[language]:
        assert lemmatize(word, language) == simplemma.lemmatize(word, language)
        assert is_known(word, language) == simplemma.is_known(word, language)


def test_unknown_language_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        lemmatize("word", "xx")


_PROBE = """
def rss():
    with open('/proc/self/status') as f:
        return int(next(l for l in f if l.startswith('VmRSS')).split()[1]) / 1024
import simplemma
from hallucheck.text.lexicons import known_word
from hallucheck.text.tokens import lemma
before = rss()
for lang, word in (("en", "houses"), ("de", "Häuser"), ("fr", "maisons")):
    lemma(word, lang)
    known_word(word, lang)
print(rss() - before)
"""


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads /proc (Linux)")
def test_three_lexicons_stay_small() -> None:
    """Lemmas and known-word tests in English, German and French load well under 60 MB (the
    default dictionaries took about 155 MB)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, timeout=120, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert float(out.stdout.strip().splitlines()[-1]) < 60
