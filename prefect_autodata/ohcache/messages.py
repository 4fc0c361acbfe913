"""Per-role message schemas: the hyperedge formatter's contract (AutoData's structured outputs).

Every agent speaks in exactly one schema, named after its role. Free text between agents is
what makes broadcast chat expensive and unparseable; a schema makes each message short,
checkable, and readable by the next agent without guessing. Bulky evidence (HTML, JSON,
screenshots, specs, logs) never goes in a message: it goes in the local cache and the message
carries its cache ID.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field


class Role(StrEnum):
    """The agents of the research and development squads, plus the manager."""

    PLAN = "plan"
    WEB = "web"
    TOOL = "tool"
    BLUEPRINT = "blueprint"
    ENGINEERING = "engineering"
    TEST = "test"
    VALIDATION = "validation"
    MANAGER = "manager"


ALL_ROLES: tuple[Role, ...] = tuple(Role)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RoleMessage(_Strict):
    """Base of every role's message. ``artifacts`` lists the cache IDs this message refers to."""

    role: ClassVar[Role]
    artifacts: list[str] = Field(
        default_factory=list, description="Cache IDs of artifacts this message cites."
    )

    def headline(self) -> str:
        """One line for traces and diagrams."""
        return self.__class__.__name__


# ---- research squad -------------------------------------------------------------------------


class FieldSpec(_Strict):
    name: str = Field(min_length=1)
    type: str = Field(default="string", description="string, integer, number, date, datetime, boolean, url")
    description: str = ""
    required: bool = True


class PlanStep(_Strict):
    name: str = Field(min_length=1)
    agent: Role
    description: str
    expected_output: str = ""
    depends_on: list[str] = Field(default_factory=list)
    acceptance: list[str] = Field(default_factory=list, description="Acceptance criteria for the step.")


class PlanMessage(RoleMessage):
    """What to collect and how the squads will get there."""

    role: ClassVar[Role] = Role.PLAN
    goals: list[str] = Field(min_length=1)
    steps: list[PlanStep] = Field(min_length=1)
    target_schema: list[FieldSpec] = Field(min_length=1)
    scope: str = Field(description="Entities, time range and completeness expected, in one sentence.")
    notes: str = ""

    def headline(self) -> str:
        return f"plan: {len(self.steps)} steps, fields {', '.join(f.name for f in self.target_schema)}"


class PageFinding(_Strict):
    url: str
    status: int
    title: str = ""
    cache_id: str | None = None
    summary: str = ""


class WebMessage(RoleMessage):
    """Pages the web agent visited and what it saw there (content lives in the cache)."""

    role: ClassVar[Role] = Role.WEB
    pages: list[PageFinding] = Field(min_length=1)
    candidate_sources: list[str] = Field(default_factory=list)
    notes: str = ""

    def headline(self) -> str:
        return f"web: {len(self.pages)} pages, {len(self.candidate_sources)} candidate sources"


class ToolObservation(_Strict):
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: str = Field(description="One-line outcome; the full result is a cache artifact.")
    cache_id: str | None = None


class ToolMessage(RoleMessage):
    """Tool/API probes (search, XHR capture, pagination probes) and what they returned."""

    role: ClassVar[Role] = Role.TOOL
    observations: list[ToolObservation] = Field(min_length=1)
    findings: str = ""

    def headline(self) -> str:
        return f"tool: {len(self.observations)} observations"


class SourceChoice(_Strict):
    url: str
    kind: Literal["api", "html", "browser", "file"]
    why: str = ""


class BlueprintMessage(RoleMessage):
    """How the dataset will be collected: the bridge from research to development."""

    role: ClassVar[Role] = Role.BLUEPRINT
    name: str
    sources: list[SourceChoice] = Field(min_length=1)
    method: str
    extraction_logic: str
    pagination: str = ""
    validation: list[str] = Field(default_factory=list)
    output: list[FieldSpec] = Field(min_length=1)
    error_handling: str = ""

    def headline(self) -> str:
        return f"blueprint {self.name}: {self.sources[0].kind} {self.sources[0].url}"


# ---- development squad ----------------------------------------------------------------------


class EngineeringMessage(RoleMessage):
    """A CollectorSpec (as data, usually also cached) and why it looks the way it does."""

    role: ClassVar[Role] = Role.ENGINEERING
    title: str
    spec: dict[str, Any] = Field(description="The CollectorSpec as a mapping (runtime/spec.py validates it).")
    rationale: str
    spec_cache_id: str | None = None

    def headline(self) -> str:
        return f"engineering: {self.title}"


class CheckResult(_Strict):
    name: str
    passed: bool
    evidence: str = Field(description="What was observed: counts, sample values, the failing URL.")
    cache_id: str | None = None


class TestMessage(RoleMessage):
    """Dry-run results of a spec, one result per check, with evidence."""

    __test__ = False  # not a pytest class
    role: ClassVar[Role] = Role.TEST
    results: list[CheckResult] = Field(min_length=1)
    quality_score: float = Field(ge=0.0, le=1.0)
    verdict: Literal["pass", "fail"]
    repair_hint: str = ""

    def headline(self) -> str:
        ok = sum(r.passed for r in self.results)
        return f"test: {self.verdict} ({ok}/{len(self.results)} checks)"


class CheckProposal(_Strict):
    name: str
    kind: str = Field(description="not_null, unique, range, regex, row_count, type, in_set, ...")
    column: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    rationale: str = ""


class ValidationMessage(RoleMessage):
    """Data checks derived from the request (the CheckSpec's content)."""

    role: ClassVar[Role] = Role.VALIDATION
    checks: list[CheckProposal] = Field(min_length=1)
    notes: str = ""

    def headline(self) -> str:
        return f"validation: {len(self.checks)} checks"


class ManagerMessage(RoleMessage):
    """The manager's scheduling decision: who acts next, and with what instruction."""

    role: ClassVar[Role] = Role.MANAGER
    next: Role | Literal["finish"]
    instruction: str = ""
    reason: str = ""

    def headline(self) -> str:
        return f"manager → {self.next}"


# ---- not role messages: system notices and the no-formatter ablation ----------------------------


class CacheNotice(_Strict):
    """Posted to every agent when an artifact is stored (the paper's Eq. 5): ID + one line, never content."""

    owner: Role
    cache_id: str
    kind: str
    summary: str


class FreeText(_Strict):
    """An unstructured message: what agents send when the formatter is switched off (ablation A4)."""

    role: Role
    text: str
    artifacts: list[str] = Field(default_factory=list)


SCHEMAS: dict[Role, type[RoleMessage]] = {
    Role.PLAN: PlanMessage,
    Role.WEB: WebMessage,
    Role.TOOL: ToolMessage,
    Role.BLUEPRINT: BlueprintMessage,
    Role.ENGINEERING: EngineeringMessage,
    Role.TEST: TestMessage,
    Role.VALIDATION: ValidationMessage,
    Role.MANAGER: ManagerMessage,
}


def schema_for(role: Role | str) -> type[RoleMessage]:
    """The message class a role must produce."""
    return SCHEMAS[Role(role)]
