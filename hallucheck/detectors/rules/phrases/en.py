"""English speculation and unnamed-authority phrases (lower case; matched on word boundaries)."""

__all__ = ["SPECULATION", "FABRICATION", "BLOCKERS"]

SPECULATION = (
    "probably", "possibly", "perhaps", "maybe", "presumably", "supposedly", "conceivably",
    "i think", "i believe", "i guess", "i assume", "i suppose", "i suspect", "i would say",
    "i'd say", "i imagine", "i'm not sure", "i am not sure", "i'm not certain", "not entirely sure",
    "it seems", "it seems that", "it appears that", "seems to be", "appears to be", "seemingly",
    "it is likely", "it's likely", "most likely", "is likely to", "are likely to", "likely to be",
    "it is possible that", "it's possible that", "there is a chance", "chances are",
    "roughly speaking",
    "generally speaking", "as a rule", "as far as i know", "to my knowledge", "to the best of my knowledge",
    "if i recall correctly", "if i remember correctly", "i would guess", "my guess is",
    "it is believed", "it's believed", "in all likelihood", "arguably",
)

FABRICATION = (
    "studies show", "studies have shown", "studies suggest", "studies indicate", "a study found",
    "research shows", "research has shown", "research suggests", "research indicates",
    "recent research", "recent studies", "scientific studies", "according to studies",
    "according to research", "according to experts", "experts say", "experts agree", "experts believe",
    "experts recommend", "many experts", "most experts", "scientists say", "scientists agree",
    "doctors say", "doctors recommend", "according to official", "according to the official",
    "official data", "official figures", "official sources", "according to the latest",
    "according to recent reports", "according to reports", "according to sources", "sources say",
    "reports suggest", "data shows", "data show", "the data suggests", "statistics show",
    "statistics indicate", "surveys show", "a survey found", "polls show",
    "it is well known", "it's well known", "it is widely known", "it is widely believed",
    "it is common knowledge", "as everyone knows", "everyone knows", "it has been proven",
    "it is proven", "scientifically proven", "clinically proven",
)

BLOCKERS: dict[str, tuple[str, ...]] = {}
