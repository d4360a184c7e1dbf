"""The house rule: imports only run down a floor, and no two packages import each other.

Every ``import hallucheck...`` in the package counts, also the ones inside functions (a lazy import
is still a dependency); imports under ``if TYPE_CHECKING:`` do not run and are left out.
docs/DESIGN.md ("As built") draws the same floors.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "hallucheck"

# Top-level modules and packages of hallucheck by floor; a module may import its own floor or lower.
FLOORS: dict[int, set[str]] = {
    0: {"types", "errors", "jsonio", "metrics", "spans", "text", "analysis", "cases", "prompts", "report_view", "pages", "deadline",
        "source_window", "lru", "intake"},
    1: {"models", "llm", "knowledge"},
    2: {"detectors"},
    3: {"policies", "checker", "streaming"},
    4: {"prevent", "eval", "abtest", "train", "batch", "distributed", "synth", "integrations", "testing", "pytest_plugin"},
    5: {"cli", "service", "__main__", "__init__"},
}
FLOOR_OF = {unit: floor for floor, units in FLOORS.items() for unit in units}

# Detector layers, cheap first: a detector may use helpers of its own layer or a cheaper one.
DETECTOR_LAYERS = {"base": 0, "rules": 1, "lexical": 2, "semantic": 3, "model": 4, "llm": 5}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def _imports() -> list[tuple[str, str]]:
    """(importing module, imported module) for every runtime import of hallucheck in the package."""
    out: list[tuple[str, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_lines(tree)
        src = _module_name(path)
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) in skip:
                continue
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.split(".")[0] == "hallucheck":
                out.append((src, node.module))
                out.extend((src, f"{node.module}.{a.name}") for a in node.names if node.module == "hallucheck.detectors")
            elif isinstance(node, ast.Import):
                out.extend((src, a.name) for a in node.names if a.name.split(".")[0] == "hallucheck")
    return out


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


IMPORTS = _imports()


def test_every_top_level_module_has_a_floor() -> None:
    units = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir() if (p.suffix == ".py" or (p / "__init__.py").is_file())}
    assert units - set(FLOOR_OF) == set(), "give the new module a floor here and in docs/DESIGN.md"


def _upward(imports: list[tuple[str, str]]) -> list[str]:
    return sorted(f"{src} -> {dst}" for src, dst in imports if FLOOR_OF.get(_unit(dst), 0) > FLOOR_OF.get(_unit(src), 0))


def _cycles(imports: list[tuple[str, str]]) -> list[str]:
    """Packages from which the package import graph leads back to themselves."""
    graph: dict[str, set[str]] = defaultdict(set)
    for src, dst in imports:
        if _unit(src) != _unit(dst):
            graph[_unit(src)].add(_unit(dst))
    cycles = []
    for start in sorted(graph):
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            node = todo.pop()
            if node == start:
                cycles.append(start)
                break
            if node not in seen:
                seen.add(node)
                todo.extend(graph.get(node, ()))
    return cycles


def _detector_violations(imports: list[tuple[str, str]]) -> list[str]:
    bad = []
    for src, dst in imports:
        if not src.startswith("hallucheck.detectors."):
            continue
        if _unit(dst) in {"checker", "policies", "streaming"}:
            bad.append(f"{src} -> {dst}")
        src_layer = src.split(".")[2]
        dst_layer = dst.split(".")[2] if dst.startswith("hallucheck.detectors.") else None
        if dst_layer in DETECTOR_LAYERS and DETECTOR_LAYERS[dst_layer] > DETECTOR_LAYERS.get(src_layer, 0):
            bad.append(f"{src} -> {dst}")
    return bad


def test_no_import_runs_up_a_floor() -> None:
    assert _upward(IMPORTS) == []


def test_no_two_packages_import_each_other() -> None:
    assert _cycles(IMPORTS) == []


def test_detectors_use_only_their_own_or_cheaper_layers_and_never_the_checker() -> None:
    assert _detector_violations(IMPORTS) == []


def test_the_rules_catch_what_they_forbid() -> None:
    assert _upward([("hallucheck.detectors.rules.numbers", "hallucheck.checker")]) != []
    assert _upward([("hallucheck.checker", "hallucheck.detectors.rules.numbers")]) == []
    assert _cycles([("hallucheck.eval.runner", "hallucheck.batch"), ("hallucheck.batch", "hallucheck.eval.split")]) == ["batch", "eval"]
    assert _detector_violations([("hallucheck.detectors.lexical.ngram", "hallucheck.detectors.llm.quotes")]) != []
    assert _detector_violations([("hallucheck.detectors.llm.claims", "hallucheck.checker")]) != []
    assert _detector_violations([("hallucheck.detectors.semantic.semantic", "hallucheck.detectors.lexical.ngram")]) == []
