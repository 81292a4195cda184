"""ar.certify and ar.loss_upper_bound: the tuner's certification over
per-input scores the caller holds."""

import pytest

import approx_runtime as ar


def scores(n, wrong):
    """n inputs, `wrong` of them (spread evenly) answered wrong."""
    out = [1.0] * n
    for i in range(wrong):
        out[i * n // wrong] = 0.0
    return out


def test_fixed_sequence_over_held_scores():
    exact = scores(1000, 0)
    candidates = [(0.9, scores(1000, 2)), (0.5, scores(1000, 50)), (0.1, scores(1000, 1))]
    at3, at9 = ar.certify(exact, candidates, levels=(0.03, 0.09))
    # At 3 %: the second candidate (5 % loss) ends the sequence; the third is
    # never tested although it would pass.
    assert (at3["pick"], at3["tested"]) == (0, 2)
    assert at3["stopped_at"].startswith("candidate 2: loss 0.0500 on 1000 inputs")
    # At 9 %: every candidate passes; the fastest is picked.
    assert (at9["pick"], at9["tested"], at9["stopped_at"]) == (2, 3, "")
    # A failed measurement stops the sequence.
    (c,) = ar.certify(exact, [(0.9, None), (0.1, exact)], levels=(0.09,))
    assert (c["pick"], c["tested"]) == (-1, 1)


def test_too_few_inputs_for_a_level():
    # 30 inputs, no loss: no level from 1 % to 9 % can pass (the betting
    # bound needs 45 even at 9 %), and each certificate says so.
    for c in ar.certify(scores(30, 0), [(0.5, scores(30, 0))]):
        assert c["pick"] == -1 and c["needed"] > 30, c
        assert c["stopped_at"].startswith("30 inputs cannot certify"), c
    (c,) = ar.certify(scores(1000, 0), [(0.5, scores(1000, 0))], levels=(0.09,))
    assert (c["pick"], c["needed"]) == (0, 0)


def test_upper_bound():
    exact = scores(1000, 0)
    upper = ar.loss_upper_bound(exact, scores(1000, 10))
    assert 0.01 < upper < 0.03
    hb = ar.loss_upper_bound(exact, scores(1000, 10), bound="hoeffding-bentkus")
    assert 0.01 < hb < 0.03


def test_errors():
    with pytest.raises(ValueError, match="differ in length"):
        ar.loss_upper_bound([1.0, 1.0], [1.0])
    with pytest.raises(ValueError, match="outside"):
        ar.loss_upper_bound([1.0, 2.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="bound must be 'betting' or 'hoeffding-bentkus'"):
        ar.certify([1.0], [(1.0, [1.0])], bound="bonferroni")
    with pytest.raises(ValueError, match="delta"):
        ar.certify([1.0], [(1.0, [1.0])], delta=0)
