"""One reading of values for every source kind: a CSV or JSON value shown with its unit ("15 mpg") lands
as the number with the rule's unit, as on a page; a duration lands as minutes for a field the request
reads in minutes ("cook time in minutes": the plan keeps the unit in ``RequestField.unit``, not the name)."""

from prefect_autodata.agents.engineering import induce_csv
from prefect_autodata.agents.evidence import Endpoint, Evidence
from prefect_autodata.agents.induction.matching import Candidate
from prefect_autodata.agents.induction.rules import retyped, typed_rule
from prefect_autodata.agents.plan import make_plan
from prefect_autodata.runtime.extract import apply_transforms
from prefect_autodata.runtime.spec import FieldRule, Transform

URL = "http://127.0.0.1:9/downloads/cars.csv"


def _csv(plan_text: str, fields: list[str] | None, body: str):
    ep = Endpoint(url_template=URL, example_url=URL, kind="csv", sample_cache_id="c")
    plan = make_plan(plan_text, fields=fields)
    cand = induce_csv(ep, plan, evidence=Evidence(plan=plan), reader=lambda _id: body)
    assert cand is not None
    return {f.name: f for f in cand.spec.sources[0].fields}, cand.spec


def test_a_csv_measure_lands_as_its_number_with_the_unit() -> None:
    body = 'Car,Price,MPG\nKia Rio,"$12,000",30 mpg\nFord Ka,"$9,500",35 mpg\nVW Up,"$11,200",33 mpg\n'
    rules, spec = _csv(
        "every used car with car, price and fuel economy", ["car", "price", "fuel_economy"], body
    )
    fe = rules["fuel_economy"]
    assert fe.type == "float" and fe.unit == "mpg"
    assert apply_transforms("30 mpg", fe.transforms) == 30.0
    assert spec.units().get("fuel_economy") == "mpg"


def test_a_duration_reads_as_minutes_when_the_request_asks_minutes() -> None:
    body = "Recipe,Cook time\nStew,1 hour 20 minutes\nSoup,45 minutes\nCake,1 hour\n"
    plan_text = "every recipe on this site with recipe and cook time in minutes"
    rules, _ = _csv(plan_text, None, body)  # the sentence's fields: cook_time read in minutes
    ct = rules["cook_time"]
    assert [t.op for t in ct.transforms][-1] == "duration_minutes" and ct.type == "integer"
    assert apply_transforms("1 hour 20 minutes", ct.transforms) == 80


def test_the_html_rule_reads_the_unit_of_the_request_too() -> None:
    cand = Candidate(label="Cook time", values=["PT1H20M", "PT45M", "PT1H"], rule={"xpath": "./td[2]"})
    assert typed_rule("cook_time", cand).type == "string"  # the name alone asks no minutes
    rule = typed_rule("cook_time", cand, "minutes")
    assert rule.type == "integer" and apply_transforms("PT1H20M", rule.transforms) == 80


def test_words_and_typed_values_are_left_as_they_are() -> None:
    plain = FieldRule(name="model", jsonpath="$.m", transforms=[Transform(op="strip")])
    assert retyped(plain, ["Kia Rio", "Ford Ka"]) == plain
    numbers = FieldRule(name="fuel_economy", jsonpath="$.f")
    assert retyped(numbers, [30, 35]) == numbers  # JSON numbers keep the JSON inducer's reading
    mixed = FieldRule(name="fuel_economy", jsonpath="$.f")
    assert retyped(mixed, ["30 mpg", "8 l/100km"]) == mixed  # two units: read as shown
