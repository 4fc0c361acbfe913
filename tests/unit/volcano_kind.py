"""A record kind added in one file: volcanoes (used by test_kinds_plugin.py; not a product kind).

Importing this module registers the kind; nothing else in the product is edited for it.
"""

from __future__ import annotations

from prefect_autodata.agents.kinds import Check, Context, RecordKind, register
from prefect_autodata.agents.request import ExpectedSize, KindScope


class VolcanoScope(KindScope):
    active_only: bool = False


class VolcanoKind(RecordKind):
    name = "volcano"
    domain = "geology"
    singular = "volcano"
    plural = "volcanoes"
    default_fields = ["name", "country", "elevation"]
    vocabulary = {"height": "elevation", "altitude": "elevation", "nation": "country"}
    field_types = {"elevation": "number"}
    scope_model = VolcanoScope
    keywords = r"\bvolcano(?:es|s)?\b"

    def refine(self, req, ctx: Context) -> None:
        req.kind_scope = VolcanoScope(active_only=ctx.has(r"\bactive\b"))

    def expected_size(self, req) -> ExpectedSize | None:
        return ExpectedSize(rows=1500, basis="about 1,500 volcanoes are potentially active on Earth")

    def checks(self, req) -> list[Check]:
        return [Check("elevation >= 0", "range", ("elevation",), min=0)]

    def search_queries(self, req) -> list[str]:
        return ["list of volcanoes by elevation"]


KIND = register(VolcanoKind())
