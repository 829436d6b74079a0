"""Community Notes' biased rank-one matrix factorisation.

rating ≈ μ + i_u + i_n + f_u · f_n, fitted by L-BFGS on the mean squared error plus L2
penalties — 0.03 on factors, five times that (0.15) on the intercepts and on μ itself — as in
Community Notes' open-source scorer (without the μ² term, μ absorbs the average rating and note
intercepts centre on 0, far from the official fit). The factor's sign follows the official
scorer: the larger group of raters gets the negative factor.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from threadpoolctl import threadpool_limits

from pipeline.forecast.ratings import RatingsTable

FACTOR_LAMBDA = 0.03
INTERCEPT_LAMBDA = 0.15


@dataclass
class Factorisation:
    mu: float
    rater_intercept: NDArray[np.float64]
    rater_factor: NDArray[np.float64]
    note_intercept: NDArray[np.float64]
    note_factor: NDArray[np.float64]
    loss: float
    iterations: int
    converged: bool

    def predict(self, rater: NDArray[np.int64], note: NDArray[np.int64]) -> NDArray[np.float64]:
        predicted: NDArray[np.float64] = (
            self.mu
            + self.rater_intercept[rater]
            + self.note_intercept[note]
            + self.rater_factor[rater] * self.note_factor[note]
        )
        return predicted


def fit(
    table: RatingsTable,
    *,
    seed: int = 0,
    max_iterations: int = 10_000,
    factor_lambda: float = FACTOR_LAMBDA,
    intercept_lambda: float = INTERCEPT_LAMBDA,
    on_progress: Callable[[int, int], None] | None = None,
) -> Factorisation:
    u, n, r = table.rater, table.note, table.value
    nu, nn, m = table.raters, table.notes, len(table)
    rng = np.random.default_rng(seed)
    start = np.concatenate(
        [
            [float(r.mean())],
            np.zeros(nu),
            np.zeros(nn),
            rng.normal(0, 0.1, nu),
            rng.normal(0, 0.1, nn),
        ]
    )

    Parts = tuple[
        float, NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]
    ]

    def unpack(x: NDArray[np.float64]) -> Parts:
        return (
            x[0],
            x[1 : 1 + nu],
            x[1 + nu : 1 + nu + nn],
            x[1 + nu + nn : 1 + 2 * nu + nn],
            x[1 + 2 * nu + nn :],
        )

    def loss_and_gradient(x: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        mu, iu, in_, fu, fn = unpack(x)
        error = mu + iu[u] + in_[n] + fu[u] * fn[n] - r
        loss = (error @ error) / m + (
            factor_lambda * (fu @ fu / nu + fn @ fn / nn)
            + intercept_lambda * (iu @ iu / nu + in_ @ in_ / nn + mu * mu)
        )
        g = 2 * error / m
        grad = np.concatenate(
            [
                [g.sum() + 2 * intercept_lambda * mu],
                np.bincount(u, g, nu) + 2 * intercept_lambda * iu / nu,
                np.bincount(n, g, nn) + 2 * intercept_lambda * in_ / nn,
                np.bincount(u, g * fn[n], nu) + 2 * factor_lambda * fu / nu,
                np.bincount(n, g * fu[u], nn) + 2 * factor_lambda * fn / nn,
            ]
        )
        return float(loss), grad

    # Thousands of small vector operations: BLAS threads only add wake-up latency (15x here).
    with threadpool_limits(limits=1, user_api="blas"):
        from scipy.optimize import minimize  # only fitting needs SciPy

        iteration = [0]

        def step(_: NDArray[np.float64]) -> None:
            iteration[0] += 1
            if on_progress is not None:
                on_progress(iteration[0], max_iterations)

        # Run to the float floor, not to a loose tolerance: the loss is flat near its minimum,
        # and a loose stop leaves raters up to 3e-3 apart from one BLAS kernel to another —
        # enough to move k-means to other personas (13 on Haswell, 14 on SkylakeX). Run to
        # the floor, the kernels agree to 1e-5 and the clustering is the same.
        result = minimize(
            loss_and_gradient,
            start,
            jac=True,
            method="L-BFGS-B",
            callback=step,
            options={"maxiter": max_iterations, "gtol": 1e-10, "ftol": 1e-16},
        )
    mu, iu, in_, fu, fn = unpack(result.x)
    # The sign of a rank-one factor is arbitrary; the official scorer's convention fixes it.
    if (fu < 0).sum() < (fu > 0).sum():
        fu, fn = -fu, -fn
    return Factorisation(
        mu=float(mu),
        rater_intercept=iu,
        rater_factor=fu,
        note_intercept=in_,
        note_factor=fn,
        loss=float(result.fun),
        iterations=int(result.nit),
        converged=bool(result.success),
    )
