"""How well a score tells Helpful notes from Not Helpful ones: AUC, balanced accuracy and the
Brier score, the last two from the score fitted out of fold (no threshold chosen on the very
answers it is judged on)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Scores:
    """One score's figures on one set of notes."""

    name: str
    notes: int
    auc: float
    balanced_accuracy: float
    brier: float
    auc_low: float = float("nan")  # the AUC's 95% interval (Hanley & McNeil 1982)
    auc_high: float = float("nan")


def auc(score: Sequence[float], truth: Sequence[bool]) -> float:
    """The chance a Helpful note scores above a Not Helpful one (ties count half)."""
    good = [s for s, t in zip(score, truth, strict=True) if t]
    bad = [s for s, t in zip(score, truth, strict=True) if not t]
    if not good or not bad:
        return float("nan")
    wins = sum((g > b) + 0.5 * (g == b) for g in good for b in bad)
    return wins / (len(good) * len(bad))


def auc_interval(value: float, truth: Sequence[bool]) -> tuple[float, float]:
    """A 95% interval of an AUC from its standard error (Hanley & McNeil 1982): with a few
    dozen notes, an AUC alone says little."""
    good = sum(truth)
    bad = len(truth) - good
    if not good or not bad or np.isnan(value):
        return float("nan"), float("nan")
    q1, q2 = value / (2 - value), 2 * value**2 / (1 + value)
    variance = (
        value * (1 - value) + (good - 1) * (q1 - value**2) + (bad - 1) * (q2 - value**2)
    ) / (good * bad)
    half = 1.96 * float(np.sqrt(max(variance, 0.0)))
    return max(0.0, value - half), min(1.0, value + half)


def balanced_accuracy(guess: Sequence[bool], truth: Sequence[bool]) -> float:
    recalls = [
        np.mean([g == t for g, t in zip(guess, truth, strict=True) if t == cls])
        for cls in (True, False)
        if cls in truth
    ]
    return float(np.mean(recalls))


def out_of_fold(score: Sequence[float], truth: Sequence[bool], seed: int = 0) -> np.ndarray:
    """P(Helpful) for each note from a logistic regression on the score alone, fitted on the
    other folds."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold

    x = np.array(score, dtype=float).reshape(-1, 1)
    x = (x - x.mean()) / (x.std() or 1.0)
    y = np.array(truth, dtype=int)
    smallest = int(np.bincount(y, minlength=2).min())
    if smallest < 2:
        return np.full(len(y), np.nan)  # no fold can hold out a note of each verdict
    folds = min(5, smallest)
    p = np.zeros(len(y))
    for train, test in StratifiedKFold(folds, shuffle=True, random_state=seed).split(x, y):
        if len(set(y[train].tolist())) < 2:
            p[test] = y[train].mean()
            continue
        p[test] = LogisticRegression().fit(x[train], y[train]).predict_proba(x[test])[:, 1]
    return p


def scores(name: str, score: Sequence[float], truth: Sequence[bool]) -> Scores:
    p = out_of_fold(score, truth)
    t = np.array(truth, dtype=float)
    fitted = not np.isnan(p).any()
    value = auc(score, truth)
    return Scores(
        name,
        len(truth),
        value,
        balanced_accuracy([bool(x >= 0.5) for x in p], truth) if fitted else float("nan"),
        float(np.mean((p - t) ** 2)) if fitted else float("nan"),
        *auc_interval(value, truth),
    )


def as_read(name: str, net: Sequence[float], truth: Sequence[bool], bar: float) -> Scores:
    """The forecast as the submission queue reads it: P = (net + 1) / 2, Helpful at `bar`."""
    p = (np.array(net) + 1) / 2
    t = np.array(truth, dtype=float)
    value = auc(net, truth)
    return Scores(
        name,
        len(truth),
        value,
        balanced_accuracy([x >= bar for x in net], truth),
        float(np.mean((p - t) ** 2)),
        *auc_interval(value, truth),
    )
