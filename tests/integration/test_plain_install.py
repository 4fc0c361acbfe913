"""A plain install (no extras) runs the offline product: the command, the collect flow and the squads import
neither the LLM client nor the Dask or Docker integrations (issue 16, optional extras)."""

from __future__ import annotations

import subprocess
import sys


def test_the_offline_product_imports_no_optional_client():
    code = (
        "import sys\n"
        "import prefect_autodata.cli, prefect_autodata.flows.collect_flow, prefect_autodata.agents.squads\n"
        "print(sorted(m for m in ('openai', 'prefect_dask', 'prefect_docker') if m in sys.modules))"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip() == "[]"
