"""`autodata bench --suite zoo --family/--kind` keeps the seed's own draws of those families/kinds."""

import pytest

from prefect_autodata.bench import zoo_indices
from prefect_autodata.errors import ConfigError
from prefect_autodata.sandbox.zoo.catalog import draw_choice


def test_unfiltered_is_the_first_tasks():
    assert zoo_indices(3, 5) == [0, 1, 2, 3, 4]


def test_family_and_kind_filters_keep_matching_draws_in_order():
    fam = draw_choice(11, 0)[1]
    got = zoo_indices(11, 4, families=[fam])
    assert len(got) == 4 and got == sorted(got) and got[0] == 0
    assert all(draw_choice(11, i)[1] == fam for i in got)
    skipped = [i for i in range(got[-1]) if i not in got]
    assert all(draw_choice(11, i)[1] != fam for i in skipped)
    kind = draw_choice(11, 1)[0]
    assert all(draw_choice(11, i)[0] == kind for i in zoo_indices(11, 3, kinds=[kind]))


def test_unknown_family_is_one_clear_error():
    with pytest.raises(ConfigError, match="unknown no_such_family"):
        zoo_indices(1, 2, families=["no_such_family"])
