"""Ratio of medians with a bootstrap 95% interval, standard library only.

The benchmarks boot base and patched kernels in interleaved rounds, so the
n-th run of each kernel forms a pair.  ratio_ci() resamples the pairs
(not each kernel's runs on its own), which keeps whatever the rounds share
(the host's load at the time) inside each resample.
"""
import random
import statistics


def percentiles_95(boot):
    """The 2.5th and 97.5th percentiles of the bootstrap ratios boot."""
    boot = sorted(boot)
    return boot[int(0.025 * (len(boot) - 1))], boot[int(0.975 * (len(boot) - 1))]


def ratio_ci(base, other, resamples=4000, seed=1):
    """Median(other) / median(base) and its 95% percentile interval.

    base and other are dicts {round: value}; only rounds present in both
    count.  Returns (ratio, low, high, pairs), or None with fewer than 3
    pairs, too few for an interval to mean anything.
    """
    keys = sorted(set(base) & set(other))
    if len(keys) < 3:
        return None
    b = [base[k] for k in keys]
    o = [other[k] for k in keys]
    ratio = statistics.median(o) / statistics.median(b)
    rng = random.Random(seed)
    n = len(keys)
    boot = []
    for _ in range(resamples):
        idx = [rng.randrange(n) for _ in range(n)]
        mb = statistics.median(b[i] for i in idx)
        if mb > 0:
            boot.append(statistics.median(o[i] for i in idx) / mb)
    return (ratio, *percentiles_95(boot), n)


def ratio_ci_unpaired(base, other, resamples=4000, seed=1):
    """As ratio_ci(), for runs that share no rounds (two runs, each of
    its own device, say): base and other are lists, resampled apart.
    None unless each has at least 3 values."""
    if len(base) < 3 or len(other) < 3:
        return None
    ratio = statistics.median(other) / statistics.median(base)
    rng = random.Random(seed)
    boot = []
    for _ in range(resamples):
        mb = statistics.median(rng.choice(base) for _ in base)
        if mb > 0:
            boot.append(statistics.median(rng.choice(other) for _ in other) / mb)
    return (ratio, *percentiles_95(boot), min(len(base), len(other)))


def fmt_ci(ci):
    """'0.97 [0.85..1.10]', or '-' without an interval."""
    return "-" if ci is None else "%.2f [%.2f..%.2f]" % ci[:3]


def fmt_interval(ci):
    """'[0.85..1.10]', or '' without an interval."""
    return "" if ci is None else "[%.2f..%.2f]" % ci[1:3]
