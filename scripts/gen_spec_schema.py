"""Regenerate the JSON Schema block in docs/collector-spec.md (a unit test checks it is current)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prefect_autodata.runtime.spec import json_schema

DOC = Path(__file__).resolve().parents[1] / "docs" / "collector-spec.md"


def main() -> None:
    text = DOC.read_text(encoding="utf-8")
    block = "```json\n" + json.dumps(json_schema(), indent=2) + "\n```"
    new, n = re.subn(r"```json\n.*?\n```", lambda _: block, text, count=1, flags=re.S)
    if n != 1:
        raise SystemExit(f"{DOC}: no ```json block to replace")
    DOC.write_text(new, encoding="utf-8")
    print(f"updated {DOC}")


if __name__ == "__main__":
    main()
