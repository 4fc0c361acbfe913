"""Optional extras (issue 16): a plain install runs the offline product without them; a feature whose extra is
missing says which extra to install, in one error, instead of a ModuleNotFoundError traceback."""

from __future__ import annotations

import importlib
import sys
import tomllib
from pathlib import Path

import pytest

from prefect_autodata.errors import ConfigError

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_the_optional_clients_are_extras_not_dependencies():
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    required = {d.split(">")[0].split("[")[0].split("=")[0].strip() for d in project["dependencies"]}
    extras = project["optional-dependencies"]
    for extra, package in (("llm", "openai"), ("dask", "prefect-dask"), ("docker", "prefect-docker")):
        assert package not in required, package
        assert any(d.startswith(package) for d in extras[extra]), (extra, extras[extra])


def test_the_llm_backend_without_its_extra_is_one_config_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "openai", None)  # what a plain install without the llm extra sees
    monkeypatch.delitem(sys.modules, "prefect_autodata.agents.llm.client", raising=False)  # restored after
    with pytest.raises(ConfigError, match=r"prefect-autodata\[llm\]"):
        importlib.import_module("prefect_autodata.agents.llm.client")
