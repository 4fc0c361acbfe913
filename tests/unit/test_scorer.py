"""The benchmark metric on hand-made frames whose expected scores were computed by hand."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from prefect_autodata.sandbox.scorer import canonical_url, normalise, score
from prefect_autodata.sandbox.tasks import get_task


@pytest.fixture()
def truth() -> pd.DataFrame:
    return pd.DataFrame({"NAME": ["a", "b", "c", "d"], "X": [1.0, 2.0, 3.0, 4.0]})


def test_ground_truth_scores_one_even_shuffled():
    gt = get_task("t02-acl-2023-short-paper").ground_truth()
    s = score(gt.sample(frac=1.0, random_state=7), gt)
    assert (s.f1, s.precision, s.recall, s.row_precision, s.row_recall) == (1.0, 1.0, 1.0, 1.0, 1.0)
    assert set(s.per_attribute) == set(gt.columns)


def test_missing_rows(truth):
    s = score(truth.iloc[:2], truth)
    assert s.per_attribute["X"].precision == 1.0
    assert s.per_attribute["X"].recall == 0.5
    assert s.f1 == pytest.approx(2 / 3)
    assert (s.row_precision, s.row_recall) == (1.0, 0.5)


def test_extra_rows(truth):
    pred = pd.concat([truth, pd.DataFrame({"NAME": ["e", "f"], "X": [5.0, 6.0]})])
    s = score(pred, truth)
    assert s.precision == pytest.approx(4 / 6)
    assert s.recall == 1.0
    assert s.f1 == pytest.approx(0.8)
    assert s.row_precision == pytest.approx(4 / 6)
    assert s.row_recall == 1.0


def test_wrong_column(truth):
    pred = truth.assign(X=[10.0, 20.0, 30.0, 40.0])
    s = score(pred, truth)
    assert s.per_attribute["NAME"].f1 == 1.0
    assert s.per_attribute["X"].f1 == 0.0
    assert (s.f1, s.precision, s.recall) == (0.5, 0.5, 0.5)
    assert (s.row_precision, s.row_recall) == (0.0, 0.0)


def test_missing_column_scores_zero_and_is_reported(truth):
    s = score(truth[["NAME"]], truth)
    assert s.missing_fields == ["X"]
    assert s.f1 == 0.5
    assert s.row_recall == 0.0


def test_rounding_to_four_decimals():
    truth = pd.DataFrame({"N": list("abcd"), "Y": [0.12345678, 1.00004, 2.0, 3.33335]})
    pred = pd.DataFrame({"N": list("abcd"), "Y": [0.1235, 1.0, 2.0001, 3.3333]})
    # 0.12345678 -> 0.1235 ok; 1.00004 -> 1 ok; 2 != 2.0001; 3.33335 -> 3.3334 (half up) != 3.3333
    s = score(pred, truth)
    assert s.per_attribute["Y"].true_positives == 2
    assert s.per_attribute["Y"].f1 == 0.5
    assert s.f1 == 0.75
    assert s.row_recall == 0.5


def test_sandbox_urls_match_real_urls():
    truth = pd.DataFrame(
        {
            "PAPER_LINK": [
                "https://papers.nips.cc/paper_files/paper/2017/file/abc-Paper.pdf",
                "https://openreview.net/pdf?id=xyz",
                "https://aclanthology.org/2023.acl-long.1.pdf",
            ]
        }
    )
    pred = pd.DataFrame(
        {
            "paper_link": [
                "http://127.0.0.1:54321/papers.nips.cc/paper_files/paper/2017/file/abc-Paper.pdf",
                "http://localhost:8765/openreview.net/pdf?id=xyz",
                "http://127.0.0.1:9/example.org/2023.acl-long.1.pdf",  # wrong host: no match
            ]
        }
    )
    s = score(pred, truth)
    assert s.per_attribute["PAPER_LINK"].true_positives == 2
    assert s.f1 == pytest.approx(2 / 3)


def test_missing_values_are_not_units():
    truth = pd.DataFrame({"X": [1.0, float("nan"), 3.0], "S": ["a", "", "c"]})
    pred = pd.DataFrame({"X": [1, None, 3], "S": ["a", None, "c"]})
    assert score(pred, truth).f1 == 1.0
    invented = pd.DataFrame({"X": [1, 5, 3], "S": ["a", "", "c"]})
    s = score(invented, truth)
    # X: TP 2, predicted 3, expected 2 -> P 2/3, R 1, F1 0.8; S perfect -> mean 0.9
    assert s.per_attribute["X"].f1 == pytest.approx(0.8)
    assert s.f1 == pytest.approx(0.9)


def test_multiset_counts_duplicates():
    s = score(pd.DataFrame({"X": [1, 2, 2]}), pd.DataFrame({"X": [1, 1, 2]}))
    assert s.per_attribute["X"].true_positives == 2
    assert s.f1 == pytest.approx(2 / 3)


def test_empty_prediction_scores_zero(truth):
    s = score(truth.iloc[:0], truth)
    assert (s.f1, s.row_precision, s.row_recall) == (0.0, 0.0, 0.0)


def test_unknown_field_is_a_clear_error(truth):
    with pytest.raises(ValueError, match="'Z'"):
        score(truth, truth, fields=["Z"])


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (82, "82"),
        (82.0, " 82 "),
        ("1,234", 1234),
        ("2024-03-29", "March 29, 2024"),
        ("2024-03-29T00:00:00", "29/03/2024"),
        (pd.Timestamp("2024-03-29"), "2024/03/29"),
        ("Fern\u00e1ndez", "Ferna\u0301ndez"),
        ("a  b\n", "a b"),
        ("https://aclanthology.org/x.pdf", "http://127.0.0.1:1/aclanthology.org/x.pdf"),
    ],
)
def test_normalise_equal(a, b):
    assert normalise(a) == normalise(b)


@pytest.mark.parametrize(("a", "b"), [("007", 7), ("6-9", "6-10"), ("abc", "ABC"), (0.12344, 0.12345)])
def test_normalise_different(a, b):
    assert normalise(a) != normalise(b)


def test_author_lists_in_either_style():
    bib = "Kay, Martin  and Small, Steven L."
    assert normalise(bib, field="AUTHORS") == normalise("Martin Kay, Steven L. Small", field="authors")
    assert normalise("Xiaohang Zhan , Ziwei Liu", field="AUTHORS") == "Xiaohang Zhan, Ziwei Liu"


def test_canonical_url_leaves_real_urls_alone():
    assert canonical_url("HTTPS://OpenReview.net/pdf?id=A") == "https://openreview.net/pdf?id=A"
    assert canonical_url("http://127.0.0.1:8/api.tiingo.com/tiingo/daily/aapl/prices?x=1") == (
        "https://api.tiingo.com/tiingo/daily/aapl/prices?x=1"
    )


def test_score_to_dict_round_trips(truth):
    d = score(truth, truth).to_dict()
    assert d["f1"] == 1.0 and d["per_attribute"]["X"]["expected"] == 4
    assert not math.isnan(d["row_precision"])


def test_float_column_fast_path_agrees_with_normalise():
    import random

    rng = random.Random(3)
    values = [0.12345678, 3.33335, 1.00005, -4e-05, 1e-05, 1e20, float("nan"), 2.675]
    values += [round(rng.uniform(-1e5, 1e5), rng.randint(0, 9)) for _ in range(20000)]
    col = pd.Series(values, dtype="float64")
    expected = [normalise(v) for v in values]
    truth = pd.DataFrame({"X": expected})  # strings: the slow, general path
    s = score(pd.DataFrame({"X": col}), truth)
    assert s.per_attribute["X"].f1 == 1.0


def test_an_amount_with_a_currency_sign_is_the_number():
    assert normalise("$9,970") == normalise(9970.0) == "9970"
    assert normalise("£ 51.77") == normalise(51.77)
    assert normalise("$") == "$" and normalise("$ off") == "$ off"  # no amount: text stays text
