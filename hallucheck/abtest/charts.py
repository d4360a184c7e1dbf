"""Charts of an A/B test (matplotlib, extra ``report``), as PNG bytes.

Labels are strategy names and case ids only (ASCII), so the charts render the same on machines
without CJK fonts. Colours are fixed so the same metric has the same colour in every chart.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from hallucheck.abtest.runner import ABTestResult

__all__ = ["render_charts", "charts_available"]

COMPONENT_COLORS = {
    "keyword": "#4C78A8",
    "citation": "#59A14F",
    "hallucination": "#E15759",
    "latency": "#F28E2B",
    "tokens": "#B07AA1",
}
COMPONENT_LABELS = {
    "keyword": "keyword coverage",
    "citation": "citation rate",
    "hallucination": "1 − hallucination risk",
    "latency": "latency",
    "tokens": "token efficiency",
}


def charts_available() -> bool:
    try:
        # lazy: optional extra (report)
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def render_charts(result: ABTestResult) -> dict[str, tuple[str, bytes]]:
    """``{name: (title, png bytes)}``; empty when matplotlib is not installed."""
    if not charts_available() or not result.summaries:
        return {}
    import matplotlib  # lazy: optional extra (report)

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt  # lazy: optional extra (report)

    plt.rcParams.update({"font.size": 10, "axes.spines.top": False, "axes.spines.right": False})
    out: dict[str, tuple[str, bytes]] = {}
    out["score"] = ("Weighted score by strategy, split into its components", _png(_score(result, plt)))
    out["metrics"] = ("Quality metrics by strategy", _png(_metrics(result, plt)))
    out["risk"] = ("Hallucination risk of each answer (checker risk score)", _png(_risk(result, plt)))
    out["cost"] = ("Latency and completion tokens by strategy", _png(_cost(result, plt)))
    plt.close("all")
    return out


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return buf.getvalue()


def _score(result: ABTestResult, plt: Any) -> Any:
    summaries = list(reversed(result.summaries))  # best on top
    names = [s.strategy for s in summaries]
    fig, ax = plt.subplots(figsize=(8, 0.55 * len(names) + 1.4))
    left = [0.0] * len(names)
    for key, color in COMPONENT_COLORS.items():
        values = [s.components.get(key, 0.0) for s in summaries]
        ax.barh(names, values, left=left, color=color, label=COMPONENT_LABELS[key], height=0.6)
        left = [a + b for a, b in zip(left, values)]
    for y, total in enumerate(left):
        ax.text(total + 0.01, y, f"{total:.3f}", va="center", fontsize=9)
    ax.set_xlim(0, 1.1)
    ax.set_xlabel("weighted score (0–1)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25 if len(names) < 4 else -0.12), ncol=5, fontsize=8, frameon=False)
    return fig


def _metrics(result: ABTestResult, plt: Any) -> Any:
    names = [s.strategy for s in result.summaries]
    series = {
        "keyword": [s.keyword_coverage for s in result.summaries],
        "citation": [s.citation_rate for s in result.summaries],
        "hallucination": [1.0 - s.hallucination_risk for s in result.summaries],
    }
    fig, ax = plt.subplots(figsize=(8, 3.6))
    width = 0.8 / len(series)
    for i, (key, values) in enumerate(series.items()):
        xs = [x + (i - (len(series) - 1) / 2) * width for x in range(len(names))]
        bars = ax.bar(xs, values, width=width, color=COMPONENT_COLORS[key], label=COMPONENT_LABELS[key])
        for bar, v in zip(bars, values):
            ax.text(bar.get_x() + bar.get_width() / 2, v + 0.01, f"{v:.2f}", ha="center", fontsize=7)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=15)
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("mean over cases (higher is better)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, fontsize=8, frameon=False)
    return fig


def _risk(result: ABTestResult, plt: Any) -> Any:
    strategies = [s.strategy for s in result.summaries]
    cases = [c.id for c in result.cases]
    grid = []
    for name in strategies:
        row = []
        for cid in cases:
            run = result.run_for(cid, name)
            row.append(run.risk_score if run is not None else float("nan"))
        grid.append(row)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.75 * len(cases) + 2.5), 0.5 * len(strategies) + 1.8))
    im = ax.imshow(grid, cmap="RdYlGn_r", vmin=0.0, vmax=1.0, aspect="auto")
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(cases, rotation=35, ha="right", fontsize=8)
    ax.set_yticks(range(len(strategies)))
    ax.set_yticklabels(strategies, fontsize=9)
    for y, row in enumerate(grid):
        for x, v in enumerate(row):
            if v == v:
                ax.text(x, y, f"{v:.2f}", ha="center", va="center", fontsize=7, color="white" if v > 0.65 or v < 0.15 else "black")
    fig.colorbar(im, ax=ax, fraction=0.03, pad=0.02, label="risk")
    ax.spines[:].set_visible(False)
    return fig


def _cost(result: ABTestResult, plt: Any) -> Any:
    names = [s.strategy for s in result.summaries]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(8, 3.2))
    a1.bar(names, [s.latency_ms for s in result.summaries], color=COMPONENT_COLORS["latency"])
    a1.set_title("mean latency (ms)", fontsize=10)
    a2.bar(names, [s.completion_tokens for s in result.summaries], color=COMPONENT_COLORS["tokens"])
    a2.set_title("mean completion tokens", fontsize=10)
    for ax in (a1, a2):
        ax.tick_params(axis="x", rotation=30, labelsize=8)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
    fig.tight_layout()
    return fig
