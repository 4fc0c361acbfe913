import pytest

from prefect_autodata.errors import AutoDataError, ConfigError, TerminalError, TransientError
from prefect_autodata.workspace import validate_name


def test_hierarchy():
    assert issubclass(TransientError, AutoDataError)
    assert issubclass(ConfigError, TerminalError)
    assert TransientError("x", retry_after=3).retry_after == 3


def test_bad_collector_name_is_named():
    with pytest.raises(ConfigError, match="Bad Name"):
        validate_name("Bad Name")
