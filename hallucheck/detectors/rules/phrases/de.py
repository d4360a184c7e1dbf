"""German speculation and unnamed-authority phrases (lower case; matched on word boundaries)."""

__all__ = ["SPECULATION", "FABRICATION", "BLOCKERS"]

SPECULATION = (
    "wahrscheinlich", "vermutlich", "möglicherweise", "vielleicht", "eventuell", "womöglich",
    "anscheinend", "scheinbar", "angeblich", "mutmaßlich", "voraussichtlich", "unter umständen",
    "ich glaube", "ich denke", "ich vermute", "ich nehme an", "ich schätze", "ich bin nicht sicher",
    "es scheint", "scheint zu sein", "es ist möglich, dass", "es könnte sein", "es dürfte",
    "könnte sein", "dürfte", "im allgemeinen", "im grunde genommen", "in der regel",
    "normalerweise", "üblicherweise", "soweit ich weiß", "meines wissens", "meiner meinung nach",
    "höchstwahrscheinlich", "aller wahrscheinlichkeit nach",
)

FABRICATION = (
    "studien zeigen", "studien belegen", "studien haben gezeigt", "eine studie zeigt",
    "untersuchungen zeigen", "untersuchungen belegen", "forschungen zeigen", "die forschung zeigt",
    "neueste forschung", "neuere studien", "wissenschaftliche studien", "laut studien",
    "laut experten", "experten zufolge", "experten sagen", "experten sind sich einig",
    "experten empfehlen", "viele experten", "wissenschaftler sagen", "ärzte empfehlen",
    "laut offiziellen angaben", "offiziellen angaben zufolge", "nach offiziellen angaben",
    "offizielle daten", "offizielle zahlen", "laut neuesten berichten", "nach neuesten angaben",
    "laut berichten", "berichten zufolge", "daten zeigen", "statistiken zeigen", "umfragen zeigen",
    "eine umfrage ergab", "wie allgemein bekannt", "es ist allgemein bekannt", "bekanntlich",
    "jeder weiß", "wissenschaftlich bewiesen", "klinisch bewiesen", "nachweislich",
)

BLOCKERS: dict[str, tuple[str, ...]] = {}
