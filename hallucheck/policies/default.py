"""Which policy ``"default"`` means: the learned, calibrated policy once its weights ship."""

from __future__ import annotations

from importlib import resources

__all__ = ["default_policy_name", "DEFAULT_DETECTORS", "default_detectors"]

# The cheap, always-available stack (rules + lexical).
DEFAULT_DETECTORS: tuple[str, ...] = ("citations", "lexicon", "numbers", "ngram", "overlap")


def _learned_available() -> bool:
    try:
        return resources.files("hallucheck.policies").joinpath("learned.json").is_file()
    except (ModuleNotFoundError, FileNotFoundError):
        return False


def default_policy_name() -> str:
    return "learned" if _learned_available() else "weighted"


def default_detectors() -> tuple[str, ...]:
    """The detectors the default policy was trained on (or the cheap stack without it); those of
    the policy file ``HALLUCHECK_POLICY`` names, when it names one."""
    # lazy: already loaded by the package; kept where it is used
    from hallucheck.policies.policy_file import (
        default_override,
        is_policy_file,
        load_policy_file,
    )

    override = default_override()
    if override and is_policy_file(override):
        return tuple(load_policy_file(override)["detectors"])
    if _learned_available():
        import json  # lazy: already loaded by the package; kept where it is used

        spec = json.loads(resources.files("hallucheck.policies").joinpath("learned.json").read_text("utf-8"))
        return tuple(spec["detectors"])
    return DEFAULT_DETECTORS
