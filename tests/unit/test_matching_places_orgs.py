"""Unlabelled text columns told apart by what their values are (issue 13): a town with its region's
code is a place, names of firms are an organisation, and a field naming the record itself (the "role"
of job postings) asks for its title, whatever order the page shows them in."""

from __future__ import annotations

from prefect_autodata.agents.induction import matching as m
from prefect_autodata.agents.induction import values as vt

# a job board's lines as the page shows them: location, employer, role (not the order asked)
ROWS = [
    ["Baltimore MD", "Fcs Software Solutions Limited", "Ab Initio Developers (4 positions)"],
    ["San Antonio TX", "Casting360", "NOW CASTING All Looks, No Experience (Full and Part Time)"],
    ["Charlotte NC", "Harrison Reed Computer Consulting", "Project Manager, Agile, Scrum"],
    ["Pleasanton CA", "Rose International", "Business Analyst"],
    ["Baltimore MD", "Acme Staffing Inc.", "Senior Java Developer"],
    ["Austin TX", "Northwind Systems", "Data Warehouse Architect"],
    ["Charlotte NC", "Blue Ridge Partners", "QA Tester, Manual and Automated"],
]


def _line_columns(rows: list[list[str]]) -> list[m.Candidate]:
    return [
        m.Candidate(None, [r[k] for r in rows], {"regex": f"col{k}"}, origin="text line", position=k)
        for k in range(len(rows[0]))
    ]


def test_a_town_with_its_region_code_is_a_place():
    for v in ("Baltimore MD", "San Antonio, TX", "St. Louis, MO", "Toronto, ON", "Springfield, IL 62701"):
        assert vt.kind_of(v) == "place", v
    for v in ("Business Analyst", "Engineer II", "Developer QA", "Rose International"):
        assert vt.kind_of(v) != "place", v
    prof = vt.profile([r[0] for r in ROWS])
    assert vt.fit("place", prof) == 1.0
    assert vt.fit("category", prof) < vt.fit("place", prof)  # a city is no category of the record


def test_firms_names_are_an_organisation():
    assert vt.org_share([r[1] for r in ROWS]) >= 0.6
    assert vt.org_share([r[2] for r in ROWS]) == 0.0


def test_role_employer_and_place_land_whatever_the_order():
    out = m.assign(["role", "organization", "location"], _line_columns(ROWS), entity="job posting")
    assert {f: mt.candidate.rule["regex"] for f, mt in out.items()} == {
        "role": "col2",
        "organization": "col1",
        "location": "col0",
    }


def test_puesto_names_a_job_as_well_as_a_rank():
    # Spanish "Puesto" is a job ("Puesto: Desarrollador") as well as a place in a ranking
    assert m.name_evidence("role", "Puesto")[0] >= 0.5
    assert m.name_evidence("rank", "Puesto")[0] >= 0.5
    rows = [
        ("Business Analyst", "Rose International"),
        ("Java Developer", "Acme Inc"),
        ("QA Tester", "Blue Ridge"),
    ]
    rows += [("Data Architect", "Northwind"), ("Project Manager", "Harrison Reed")]
    cands = [
        m.Candidate(lab, [r[k] for r in rows], {"xpath": f"./td[{k + 1}]"})
        for k, lab in enumerate(["Puesto", "Empresa"])
    ]
    out = m.assign(["role", "employer"], cands, entity="job posting")
    assert out["role"].candidate.label == "Puesto" and out["employer"].candidate.label == "Empresa"
    # over numbers the same label is a rank
    ranks = [m.Candidate("Puesto", ["1", "2", "3", "4", "5"], {"xpath": "./td[1]"})]
    assert m.assign(["rank"], ranks)["rank"].candidate.label == "Puesto"


MEMBERS = [
    ("Aldous_B", "Veteran", "3,412"),
    ("baroness.k", "Newbie", "27"),
    ("Cwmbran Dave", "Moderator", "12,088"),
    ("dj_ferrite", "Regular", "402"),
    ("Elsa M", "Veteran", "1,877"),
    ("fenwick", "Regular", "9"),
    ("Gus T", "Banned", "55"),
    ("harriet_v", "Newbie", "130"),
]
JOINED = [
    "02-11-2006",
    "11-30-2011",
    "07-04-2005",
    "03-17-2009",
    "01-05-2010",
    "06-21-2012",
    "09-09-2008",
    "12-12-2007",
]


def _members_page() -> str:
    rows = "".join(
        f'<tr><td class="alt1"><a href="member.php?u={k}">{u}</a><div class="smallfont">{t}</div></td>'
        f'<td class="alt2">{JOINED[k]}</td><td class="alt1">{p}</td></tr>'
        for k, (u, t, p) in enumerate(MEMBERS)
    )
    return (
        "<html><body><h1>Members List</h1><table id='members'><tr><td class='thead'>User Name</td>"
        f"<td class='thead'>Join Date</td><td class='thead'>Posts</td></tr>{rows}</table></body></html>"
    )


def test_a_title_of_something_the_record_has_may_repeat():
    from prefect_autodata.agents.induction.assemble import induce_page

    fields = ["username", "user_title", "join_date", "post_count"]
    (best, *_) = induce_page("http://127.0.0.1:9/m", _members_page(), fields, name="m", entity="member")
    assert best.matches["user_title"].candidate.values[:3] == ["Veteran", "Newbie", "Moderator"]
    assert best.matches["username"].candidate.values[:2] == ["Aldous_B", "baroness.k"]
    # the record's own name does not repeat: a first "title" field over repeated words is no name
    cands = [m.Candidate(None, [r[1] for r in MEMBERS], {"xpath": "./td[1]/div"})]
    assert "title" not in m.assign(["title", "posts"], cands, entity="member")
