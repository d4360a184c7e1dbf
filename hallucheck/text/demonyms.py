"""Countries and regions told by their name, short form or adjective ("US" / "American").

"all American citizens" for "all US citizens" names no other place: a check that compares names
word by word (the ``replaced_name`` rule of :mod:`hallucheck.detectors.rules.opposites`) must
read the two as one. English only; one word a form (multi-word names such as "South Africa" do
not stand in a one-word difference).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache

__all__ = ["PLACE_FORMS", "adjective_in", "place_forms", "same_place"]

# Each entry: the forms of one place (name, short forms, adjective and noun of its people).
PLACE_FORMS: tuple[tuple[str, ...], ...] = (
    ("US", "U.S.", "USA", "America", "American", "Americans"),
    ("UK", "U.K.", "Britain", "British", "Briton", "Britons"),
    ("China", "Chinese"), ("Japan", "Japanese"), ("Germany", "German", "Germans"), ("France", "French"),
    ("Italy", "Italian", "Italians"), ("Spain", "Spanish"), ("Russia", "Russian", "Russians"),
    ("India", "Indian", "Indians"), ("Canada", "Canadian", "Canadians"), ("Mexico", "Mexican", "Mexicans"),
    ("Australia", "Australian", "Australians"), ("Israel", "Israeli", "Israelis"), ("Iran", "Iranian", "Iranians"),
    ("Iraq", "Iraqi", "Iraqis"), ("Syria", "Syrian", "Syrians"), ("Saudi", "Saudis"), ("Egypt", "Egyptian", "Egyptians"),
    ("Turkey", "Turkish"), ("Ukraine", "Ukrainian", "Ukrainians"), ("Korea", "Korean", "Koreans"),
    ("Brazil", "Brazilian", "Brazilians"), ("Pakistan", "Pakistani", "Pakistanis"), ("Afghanistan", "Afghan", "Afghans"),
    ("Yemen", "Yemeni", "Yemenis"), ("Philippines", "Philippine", "Filipino", "Filipinos"), ("Malta", "Maltese"),
    ("Greece", "Greek", "Greeks"), ("Netherlands", "Holland", "Dutch"), ("Poland", "Polish"), ("Sweden", "Swedish"),
    ("Norway", "Norwegian", "Norwegians"), ("Denmark", "Danish"), ("Ireland", "Irish"), ("Scotland", "Scottish"),
    ("Wales", "Welsh"), ("England", "English"), ("Switzerland", "Swiss"), ("Nigeria", "Nigerian", "Nigerians"),
    ("Kenya", "Kenyan", "Kenyans"), ("Vietnam", "Vietnamese"), ("Thailand", "Thai"), ("Indonesia", "Indonesian"),
    ("Cuba", "Cuban", "Cubans"), ("Venezuela", "Venezuelan", "Venezuelans"), ("Argentina", "Argentine", "Argentinian"),
    ("Chile", "Chilean", "Chileans"), ("Colombia", "Colombian", "Colombians"), ("Peru", "Peruvian", "Peruvians"),
    ("Lebanon", "Lebanese"), ("Jordan", "Jordanian", "Jordanians"), ("Palestine", "Palestinian", "Palestinians"),
    ("Libya", "Libyan", "Libyans"), ("Somalia", "Somali", "Somalis"), ("Sudan", "Sudanese"),
    ("Ethiopia", "Ethiopian", "Ethiopians"), ("Europe", "European", "Europeans"), ("Africa", "African", "Africans"),
    ("Asia", "Asian", "Asians"),
)


@lru_cache(maxsize=1)
def _groups() -> dict[str, int]:
    return {form.lower(): n for n, forms in enumerate(PLACE_FORMS) for form in forms}


def place_forms(word: str) -> list[str]:
    """The other forms (lower case) of the place ``word`` names ("european" -> "europe", "europeans"); none for other words."""
    groups = _groups()
    n = groups.get(word.lower())
    if n is None:
        return []
    return [f.lower() for f in PLACE_FORMS[n] if f.lower() != word.lower()]


def same_place(a: str, b: str) -> bool:
    """Whether words ``a`` and ``b`` are two forms of one place ("US" / "American")."""
    groups = _groups()
    x, y = groups.get(a.lower()), groups.get(b.lower())
    return x is not None and x == y


def adjective_in(name: str, words: Collection[str], text: str) -> bool:
    """Whether ``text`` holds a lower-case adjective of the place ``name`` in French or German,
    where such adjectives are written small: a word of ``words`` (``text``'s words, lower case)
    that shares its first letters with the name, all but its last three and at least six
    ("macédonien" for "Macédoine", "indonésien" for "Indonésie", "mazedonisch" for "Mazedonien"),
    and is written in lower case there. Why: "le Président de la Macédoine" over "le Président
    macédonien" names no other place; English adjectives are capitalised and listed in
    :data:`PLACE_FORMS`."""
    low = name.lower()
    need = max(6, len(low) - 3)
    if len(low) < need or not name[:1].isupper():
        return False
    stem = low[:need]
    return any(w.startswith(stem) and w != low and re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text) for w in words)
