"""The house rule: imports only run down a floor, no two packages import each other, and no
module leads back to itself through its imports.

Every ``import hallucheck...`` in the package counts, also the ones inside functions (a lazy import
is still a dependency) and those under ``if TYPE_CHECKING:`` (a type named from a module is a
dependency on it, even if it does not run). docs/DESIGN.md ("Layout") draws the same floors.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "hallucheck"

# Top-level modules and packages of hallucheck by floor; a module may import its own floor or lower.
FLOORS: dict[int, set[str]] = {
    0: {"types", "errors", "jsonio", "metrics", "spans", "text", "analysis", "case_facts", "cases", "prompts", "report_view", "pages",
        "deadline", "source_window", "lru", "intake"},
    1: {"models", "llm", "knowledge"},
    2: {"detectors"},
    3: {"policies", "checker", "streaming", "verdict_facts", "verifier_pass"},
    4: {"prevent", "eval", "abtest", "calibration", "train", "batch", "distributed", "synth", "integrations", "testing", "pytest_plugin"},
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


MODULES = {_module_name(p) for p in PACKAGE.rglob("*.py")}


def _module_of(name: str) -> str:
    """The package module a dotted import name lands in (``hallucheck.a.b.Name`` -> ``hallucheck.a.b``)."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def _imports() -> list[tuple[str, str]]:
    """(importing module, imported module) for every import of hallucheck in the package: at module
    level, inside functions and under ``if TYPE_CHECKING:``. ``from package import name`` counts as
    an import of the submodule ``package.name`` when there is one, else of the package."""
    out: list[tuple[str, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        out.extend(_imports_in(_module_name(path), path.read_text(encoding="utf-8")))
    return out


def _imports_in(src: str, code: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.split(".")[0] == "hallucheck":
            out.extend((src, _module_of(f"{node.module}.{a.name}")) for a in node.names)
        elif isinstance(node, ast.Import):
            out.extend((src, _module_of(a.name)) for a in node.names if a.name.split(".")[0] == "hallucheck")
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


def _module_cycles(imports: list[tuple[str, str]]) -> list[list[str]]:
    """Groups of modules that import each other, directly or round a longer circle (the strongly
    connected components of the module import graph with more than one module), sorted."""
    graph: dict[str, set[str]] = defaultdict(set)
    for src, dst in imports:
        if src != dst:
            graph[src].add(dst)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(root: str) -> None:
        # iterative Tarjan: (node, its successors still to see)
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for start in sorted(graph):
        if start not in index:
            visit(start)
    return sorted(found)


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


def _lab_imports(imports: list[tuple[str, str]]) -> list[str]:
    """Imports of the lab (``hallucheck.train``) from outside it; only the training commands may."""
    allowed = {"train", "cli.train"}
    return sorted(f"{src} -> {dst}" for src, dst in imports
                  if _unit(dst) == "train" and _unit(src) != "train" and src.removeprefix("hallucheck.") not in allowed)


def test_nothing_outside_the_lab_and_its_commands_imports_the_lab() -> None:
    assert _lab_imports(IMPORTS) == []
    assert _lab_imports([("hallucheck.cli.calibrate", "hallucheck.train.stack")]) != []
    assert _lab_imports([("hallucheck.cli.train", "hallucheck.train.stack")]) == []


def _policies_reading_detectors(imports: list[tuple[str, str]]) -> list[str]:
    """Policies read the findings and the facts computed before them, never detector code."""
    return sorted(f"{src} -> {dst}" for src, dst in imports if _unit(src) == "policies" and _unit(dst) == "detectors")


def test_policies_import_no_detector_module() -> None:
    assert _policies_reading_detectors(IMPORTS) == []
    assert _policies_reading_detectors([("hallucheck.policies.safeguards", "hallucheck.detectors.model.restated")]) != []


def test_no_module_leads_back_to_itself() -> None:
    assert _module_cycles(IMPORTS) == []


def test_detectors_use_only_their_own_or_cheaper_layers_and_never_the_checker() -> None:
    assert _detector_violations(IMPORTS) == []


def test_the_graph_reads_imports_inside_functions_and_under_type_checking() -> None:
    code = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from hallucheck.checker import Checker\n"
            "def f() -> None:\n    from hallucheck.policies import learned\n    import hallucheck.text.language\n")
    assert _imports_in("hallucheck.streaming", code) == [
        ("hallucheck.streaming", "hallucheck.checker"),
        ("hallucheck.streaming", "hallucheck.policies.learned"),
        ("hallucheck.streaming", "hallucheck.text.language"),
    ]


def test_the_rules_catch_what_they_forbid() -> None:
    assert _upward([("hallucheck.detectors.rules.numbers", "hallucheck.checker")]) != []
    assert _upward([("hallucheck.checker", "hallucheck.detectors.rules.numbers")]) == []
    assert _cycles([("hallucheck.eval.runner", "hallucheck.batch"), ("hallucheck.batch", "hallucheck.eval.split")]) == ["batch", "eval"]
    circle = [("hallucheck.policies.base", "hallucheck.policies.learned"), ("hallucheck.policies.learned", "hallucheck.policies.weighted"),
              ("hallucheck.policies.weighted", "hallucheck.policies.base"), ("hallucheck.policies.weighted", "hallucheck.types")]
    assert _module_cycles(circle) == [["hallucheck.policies.base", "hallucheck.policies.learned", "hallucheck.policies.weighted"]]
    assert _module_cycles(circle[1:]) == []
    assert _detector_violations([("hallucheck.detectors.lexical.ngram", "hallucheck.detectors.llm.quotes")]) != []
    assert _detector_violations([("hallucheck.detectors.llm.claims", "hallucheck.checker")]) != []
    assert _detector_violations([("hallucheck.detectors.semantic.semantic", "hallucheck.detectors.lexical.ngram")]) == []


def _unexplained_lazy_imports(src: str) -> list[int]:
    """Lines of imports inside a function with no ``# lazy: <reason>`` on that line or the one above."""
    lines = src.splitlines()
    found: list[int] = []
    for func in ast.walk(ast.parse(src)):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(func):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    line, above = lines[node.lineno - 1], lines[node.lineno - 2] if node.lineno > 1 else ""
                    if "# lazy:" not in line and not above.strip().startswith("# lazy:"):
                        found.append(node.lineno)
    return sorted(set(found))


def test_every_import_inside_a_function_says_why() -> None:
    found = [f"{path.relative_to(PACKAGE.parent)}:{line}"
             for path in sorted(PACKAGE.rglob("*.py")) for line in _unexplained_lazy_imports(path.read_text())]
    assert found == []


def test_the_lazy_rule_catches_an_import_without_a_reason() -> None:
    code = ("import json\n\ndef f() -> None:\n    import yaml\n    import numpy  # lazy: heavy\n"
            "    # lazy: optional extra (train)\n    import torch\n\n    def g() -> None:\n        from x import y\n")
    assert _unexplained_lazy_imports(code) == [4, 10]


def test_no_module_is_over_600_lines() -> None:
    """A room a newcomer can read whole: over 600 lines, a module holds more than one concept."""
    big = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert big == {}
