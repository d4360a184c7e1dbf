"""French speculation and unnamed-authority phrases (lower case; matched on word boundaries)."""

__all__ = ["SPECULATION", "FABRICATION", "BLOCKERS"]

SPECULATION = (
    "probablement", "peut-être", "sans doute", "vraisemblablement", "possiblement",
    "apparemment", "semble-t-il", "il semble", "il semblerait", "il paraît", "on dirait",
    "je pense", "je crois", "je suppose", "je dirais", "j'imagine", "je ne suis pas sûr",
    "il est possible que", "il se peut", "il est probable que",
    "en général", "généralement", "d'habitude", "habituellement", "à ma connaissance",
    "pour autant que je sache", "selon moi", "à mon avis", "sûrement", "a priori",
)

FABRICATION = (
    "selon les experts", "d'après les experts", "les experts disent", "les experts affirment",
    "les experts estiment", "les experts recommandent", "de nombreux experts",
    "des études montrent", "les études montrent", "des études ont montré", "une étude a montré",
    "selon des études", "selon les études", "les recherches montrent", "la recherche montre",
    "des recherches récentes", "selon les scientifiques", "les scientifiques affirment",
    "selon les sources officielles", "selon des sources officielles", "selon les chiffres officiels",
    "les chiffres officiels", "données officielles", "selon les dernières informations",
    "selon les derniers chiffres", "selon certaines sources", "selon des rapports",
    "les données montrent", "les statistiques montrent", "les sondages montrent",
    "une enquête a montré", "il est bien connu", "il est notoire", "tout le monde sait",
    "comme chacun sait", "scientifiquement prouvé", "cliniquement prouvé",
)

BLOCKERS: dict[str, tuple[str, ...]] = {}
