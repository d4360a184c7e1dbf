"""Fit one stage of the learned policy: gradient-boosted trees over the stack features, their
out-of-fold scores, Platt scaling, and the trees exported as the spec's plain numbers. Shared by
the English fit (:mod:`hallucheck.train.stack`), the language groups' fits and the calibration's
refit. Needs scikit-learn (extra ``train``)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["FULL_EXTRA", "boosted_trees", "fit_stage", "sigmoid"]

# The cheap stage is the default detector set (policies.default.DEFAULT_DETECTORS); the full
# stage adds these.
FULL_EXTRA: tuple[str, ...] = ("model",)


def _platt(raw: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    from sklearn.linear_model import LogisticRegression  # lazy: scikit-learn is the optional extra `train`

    lr = LogisticRegression(C=1e4).fit(raw.reshape(-1, 1), y)
    return float(lr.coef_[0, 0]), float(lr.intercept_[0])


def sigmoid(z: np.ndarray) -> np.ndarray:
    """The logistic function, clipped so that no exponent overflows."""
    out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))
    return out


def boosted_trees(seed: int) -> Any:
    """The stack's booster: 200 trees of depth 3, as the shipped stages were fitted."""
    from sklearn.ensemble import GradientBoostingClassifier  # lazy: scikit-learn is the optional extra `train`

    return GradientBoostingClassifier(
        n_estimators=200, max_depth=3, learning_rate=0.05, subsample=0.8, min_samples_leaf=20, random_state=seed
    )


def _export_trees(model: Any) -> list[dict[str, list[Any]]]:
    """The fitted trees as the spec's lists of numbers, node by node (scikit-learn's order)."""
    trees: list[dict[str, list[Any]]] = []
    for est in model.estimators_[:, 0]:
        t = est.tree_
        trees.append(
            {
                "feature": [int(v) for v in t.feature],
                "threshold": [float(v) for v in t.threshold],
                "left": [int(v) for v in t.children_left],
                "right": [int(v) for v in t.children_right],
                "value": [float(v) for v in t.value[:, 0, 0]],
            }
        )
    return trees


def fit_stage(
    x: np.ndarray, y: np.ndarray, groups: np.ndarray, names: list[str], seed: int, weights: np.ndarray | None = None,
    always: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[dict[str, Any], np.ndarray]:
    """Fit one stacker; returns (its JSON spec, out-of-fold calibrated probabilities on these rows).
    ``weights``: per-row sample weights of the trees (the Platt scaling is unweighted).
    ``always``: more rows (features, labels; weight 1) that join the trees of every fold and of the
    final fit but are never scored: the train part's out-of-fold rows. The Platt scaling, the
    threshold and every reported number stay on the calib rows, whose features are the shipped
    tagger's, as at run time."""
    from sklearn.model_selection import GroupKFold  # lazy: scikit-learn is the optional extra `train`

    def fit(rows: np.ndarray) -> Any:
        w = None if weights is None else weights[rows]
        if always is None:
            return boosted_trees(seed).fit(x[rows], y[rows], sample_weight=w)
        xa, ya = always
        wa = None if w is None else np.concatenate([w, np.ones(len(ya))])
        return boosted_trees(seed).fit(np.vstack([x[rows], xa]), np.concatenate([y[rows], ya]), sample_weight=wa)

    oof_raw = np.zeros(len(y))
    for tr, te in GroupKFold(n_splits=5).split(x, y, groups):
        oof_raw[te] = fit(tr).decision_function(x[te])
    a, b = _platt(oof_raw, y)
    model = fit(np.arange(len(y)))
    trees = _export_trees(model)
    lr = float(model.learning_rate)
    tree_sum = np.zeros(len(x))
    for est in model.estimators_[:, 0]:
        tree_sum += est.predict(x)
    init = float(np.median(model.decision_function(x) - lr * tree_sum))
    spec = {
        "features": names,
        "fill": [float(v) for v in np.median(x, axis=0)],
        "init": init,
        "learning_rate": lr,
        "platt": [a, b],
        "trees": trees,
        "n_train": int(len(y)) + (0 if always is None else len(always[1])),
        "importance": {n: round(float(v), 4) for n, v in sorted(zip(names, model.feature_importances_), key=lambda t: -t[1])[:15]},
    }
    return spec, sigmoid(a * oof_raw + b)
