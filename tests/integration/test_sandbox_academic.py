"""The academic sandbox sites, scraped over real sockets like a collector would, reproduce the ground truth.

Each test walks one site the way its real counterpart is walked (index → detail pages, or the JSON API
with offset pagination), parses with lxml, canonicalises sandbox URLs to the real ones, and compares
every field with the Parquet records. The expected values pass through the same text cleaning the
pages need (HTML cannot carry C0 control characters; CR becomes LF).
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urljoin, urlsplit

import httpx
import lxml.html
import pytest

from prefect_autodata.sandbox.data import is_generated, load_table

FIELDS = ("title", "authors", "abstract", "conference", "track", "paper_link", "bibtex_link", "supp_link")
_BAD = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def clean(text: str) -> str:
    return _BAD.sub("", (text or "").replace("\r\n", "\n").replace("\r", "\n"))


def canon(url: str) -> str:
    """Sandbox ``http://127.0.0.1:P/<host>/<path>`` or a real ``http(s)://<host>/<path>`` → ``https://<host>/<path>``."""
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.hostname in ("127.0.0.1", "localhost"):
        host, _, path = parts.path.lstrip("/").partition("/")
        return f"https://{host}/{path}" + (f"?{parts.query}" if parts.query else "")
    return f"https://{parts.netloc}{parts.path}" + (f"?{parts.query}" if parts.query else "")


def expected(abbr: str, year: int, **where: str) -> list[dict]:
    df = load_table("papers")
    sub = df[(df["abbr"] == abbr) & (df["year"] == year)]
    for col, value in where.items():
        sub = sub[sub[col] == value]
    out = []
    for rec in sub.to_dict("records"):
        row = {f: clean(rec[f]) for f in FIELDS}
        for f in ("paper_link", "bibtex_link", "supp_link"):
            row[f] = canon(row[f])
        out.append(row)
    return sorted(out, key=lambda r: (r["paper_link"], r["title"]))


def assert_same(got: list[dict], want: list[dict]) -> None:
    got = sorted(got, key=lambda r: (r["paper_link"], r["title"]))
    assert len(got) == len(want), f"{len(got)} records parsed, {len(want)} in the ground truth"
    for g, w in zip(got, want, strict=True):
        diff = {f: (g.get(f), w[f]) for f in FIELDS if g.get(f) != w[f]}
        assert not diff, f"{w['title']!r}: {diff}"


@pytest.fixture(scope="module")
def client(sandbox_url):
    with httpx.Client(base_url=sandbox_url, timeout=30, limits=httpx.Limits(max_connections=8)) as c:
        yield c


def get_doc(client: httpx.Client, url: str):
    r = client.get(url)
    assert r.status_code == 200, f"{url}: {r.status_code}"
    assert r.headers["content-type"].startswith("text/html")
    return lxml.html.fromstring(r.content, base_url=str(r.url))


def fetch_docs(client: httpx.Client, urls: list[str]) -> list:
    with ThreadPoolExecutor(max_workers=6) as pool:
        return list(pool.map(lambda u: get_doc(client, u), urls))


def absolute(doc, href: str) -> str:
    return canon(urljoin(doc.base_url, href))


def text(doc, xpath: str) -> str:
    nodes = doc.xpath(xpath)
    return nodes[0].text_content() if nodes else ""


def link(doc, xpath: str) -> str:
    nodes = doc.xpath(xpath)
    return absolute(doc, nodes[0].get("href")) if nodes else ""


def check_file(client: httpx.Client, sandbox_url: str, real_url: str, content_type: str) -> bytes:
    host_path = real_url.split("://", 1)[1]
    r = client.get(f"{sandbox_url}/{host_path}")
    assert r.status_code == 200, real_url
    assert r.headers["content-type"].startswith(content_type), (real_url, r.headers["content-type"])
    return r.content


def test_neurips_2017_year_index_and_abstract_pages(client, sandbox_url):
    index = get_doc(client, "/papers.nips.cc/paper_files/paper/2017")
    conference = index.xpath("//main//h4")[0].text_content()
    hrefs = [a.get("href") for a in index.xpath("//ul[@class='paper-list']/li/div/a")]
    got = []
    for doc in fetch_docs(client, hrefs):
        got.append(
            {
                "title": text(doc, "//h4[@class='paper-title']"),
                "authors": text(doc, "//p[@class='paper-authors']/i"),
                "abstract": text(doc, "//p[@class='paper-abstract']"),
                "conference": text(doc, "//p[@class='paper-part']/a"),
                "track": text(doc, "//span[@class='paper-track']"),
                "paper_link": link(doc, "//div[@class='paper-buttons']/a[.='Paper']"),
                "bibtex_link": link(doc, "//div[@class='paper-buttons']/a[.='Bibtex']"),
                "supp_link": link(doc, "//div[@class='paper-buttons']/a[.='Supplemental']"),
            }
        )
    want = expected("NeurIPS", 2017)
    assert want
    if not is_generated():
        assert len(want) == 679  # the real proceedings of 2017
    assert conference == want[0]["conference"]
    assert_same(got, want)
    pdf = check_file(client, sandbox_url, want[0]["paper_link"], "application/pdf")
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    bib = check_file(client, sandbox_url, want[0]["bibtex_link"], "application/x-bibtex").decode()
    assert bib.startswith("@inproceedings{") and want[0]["title"] in bib


def _acl_paper(doc) -> dict:
    bib = text(doc, "//pre[@id='citeBibtexContent']")
    m = re.search(r'^    author = "(.*)",$', bib, re.M)
    return {
        "title": text(doc, "//h2[@id='title']"),
        "authors": m.group(1) if m else "",
        "abstract": text(doc, "//div[contains(@class,'acl-abstract')]/span"),
        "conference": text(doc, "//dt[.='Volume:']/following-sibling::dd[1]"),
        "track": text(doc, "//dt[.='Track:']/following-sibling::dd[1]"),
        "paper_link": link(doc, "//dt[.='PDF:']/following-sibling::dd[1]/a"),
        "bibtex_link": link(doc, "//a[.='Bib']"),
        "supp_link": "",
    }


def test_acl_anthology_emnlp_2022_findings_volume_paper_pages(client):
    event = get_doc(client, "/aclanthology.org/events/emnlp-2022/")
    volumes = {a.text_content(): a.get("href") for a in event.xpath("//div[@id]/h4/a")}
    findings = "Findings of the Association for Computational Linguistics: EMNLP 2022"
    assert findings in volumes
    vol = get_doc(client, volumes[findings])
    hrefs = [a.get("href") for a in vol.xpath("//p/span[@class='d-block']/strong/a")]
    got = [_acl_paper(doc) for doc in fetch_docs(client, hrefs)]
    assert_same(got, expected("EMNLP", 2022, track="Findings Track"))


@pytest.mark.parametrize(("abbr", "year"), [("ACL", 2023), ("NAACL", 2022)])
def test_acl_anthology_event_page_lists_every_paper_of_the_event(client, abbr, year):
    event = get_doc(client, f"/aclanthology.org/events/{abbr.lower()}-{year}/")
    got = []
    for block in event.xpath("//section[@id='main']/div[@id]"):
        conference = block.xpath("./h4/a")[0].text_content()
        for row in block.xpath("./p"):
            anchor = row.xpath("./span[@class='d-block']/strong/a")[0]
            abstract = row.getnext()
            got.append(
                {
                    "title": anchor.text_content(),
                    "conference": conference,
                    "paper_link": link(row, ".//a[.='pdf']"),
                    "bibtex_link": link(row, ".//a[.='bib']"),
                    "abstract": abstract.text_content()
                    if abstract is not None and "abstract-collapse" in (abstract.get("class") or "")
                    else "",
                }
            )
    want = expected(abbr, year)
    keys = ("title", "conference", "paper_link", "bibtex_link", "abstract")
    assert sorted(tuple(g[k] for k in keys) for g in got) == sorted(tuple(w[k] for k in keys) for w in want)
    # the track of one paper per volume, from its paper page
    for want_row in {w["conference"]: w for w in want}.values():
        aid = want_row["paper_link"].rsplit("/", 1)[1][: -len(".pdf")]
        assert _acl_paper(get_doc(client, f"/aclanthology.org/{aid}/")) == want_row


def _cvf_paper(doc) -> dict:
    authors_div = doc.xpath("//div[@id='authors']")[0]
    tail = authors_div.text_content().split("; Proceedings of the ", 1)
    return {
        "title": text(doc, "//div[@id='papertitle']"),
        "authors": text(doc, "//div[@id='authors']/b/i"),
        "abstract": text(doc, "//div[@id='abstract']"),
        "conference": tail[1] if len(tail) == 2 else "",
        "track": "",
        "paper_link": link(doc, "//a[.='pdf']"),
        "bibtex_link": "",
        "supp_link": link(doc, "//a[.='supp']"),
    }


def test_cvf_cvpr_2021_all_listing_and_paper_pages(client):
    days = get_doc(client, "/openaccess.thecvf.com/CVPR2021")
    assert days.xpath("//a[.='All Papers']")
    listing = get_doc(client, "/openaccess.thecvf.com/CVPR2021?day=all")
    assert text(listing, "//div[@id='content_title']/h3") == "CVPR 2021 open access"
    track = text(listing, "//div[@id='content']/p[last()]").rsplit(" — ", 1)[1]
    entries = listing.xpath("//dt[@class='ptitle']/a")
    bibrefs = listing.xpath("//div[contains(@class,'bibref')]")
    assert len(bibrefs) == len(entries) and all(
        b.text_content().startswith("@InProceedings{") for b in bibrefs
    )
    got = [
        {**_cvf_paper(doc), "track": track} for doc in fetch_docs(client, [a.get("href") for a in entries])
    ]
    assert_same(got, expected("CVPR", 2021))


def test_cvf_iccv_2021_day_listings_cover_all(client):
    days = get_doc(client, "/openaccess.thecvf.com/ICCV2021")
    day_hrefs = [a.get("href") for a in days.xpath("//dd/a") if "day=20" in a.get("href")]
    assert len(day_hrefs) >= 2
    got = []
    for href in day_hrefs:
        doc = get_doc(client, href)
        for dt in doc.xpath("//dt[@class='ptitle']"):
            links = dt.getnext().getnext()
            got.append(
                (
                    dt.xpath("./a")[0].text_content(),
                    link(links, "./a[.='pdf']"),
                    link(links, "./a[.='supp']"),
                )
            )
    want = expected("ICCV", 2021)
    assert sorted(got) == sorted((w["title"], w["paper_link"], w["supp_link"]) for w in want)


def test_pmlr_icml_2021_volume_and_abstract_pages(client):
    vol = get_doc(client, "/proceedings.mlr.press/v139/")
    track = text(vol, "//p[@class='track']")
    hrefs = [a.get("href") for a in vol.xpath("//div[@class='paper']/p[@class='links']/a[.='abs']")]
    got = []
    for doc in fetch_docs(client, hrefs):
        bib = text(doc, "//code[@class='bibtex']")
        author = re.search(r"^  author = +\{(.*)\},$", bib, re.M)
        info = text(doc, "//div[@id='info']/span[@class='info']")
        got.append(
            {
                "title": text(doc, "//article/h1"),
                "authors": author.group(1) if author else "",
                "abstract": text(doc, "//div[@class='abstract']"),
                "conference": info.rsplit(", PMLR ", 1)[0],
                "track": track,
                "paper_link": link(doc, "//a[.='Download PDF']"),
                "bibtex_link": "",
                "supp_link": link(doc, "//a[.='Supplementary PDF']"),
            }
        )
    assert_same(got, expected("ICML", 2021))


def test_openreview_iclr_2021_api_offset_pagination(client, sandbox_url):
    group = client.get("/api.openreview.net/groups", params={"id": "ICLR.cc/2021/Conference"}).json()
    track = group["groups"][0]["content"]["tracks"][0]
    invitation = "ICLR.cc/2021/Conference/-/Blind_Submission"
    notes, offset, count = [], 0, None
    while count is None or offset < count:
        r = client.get(
            "/api.openreview.net/notes", params={"invitation": invitation, "offset": offset, "limit": 100}
        )
        assert r.status_code == 200
        body = r.json()
        count = body["count"]
        assert body["notes"], f"empty page at offset {offset} of {count}"
        notes.extend(body["notes"])
        offset += len(body["notes"])
    assert len({n["id"] for n in notes}) == len(notes) == count
    got = []
    for n in notes:
        c = n["content"]
        booktitle = re.search(r"^booktitle=\{(.*)\},$", c["_bibtex"], re.M).group(1)
        year = re.search(r"^year=\{(\d{4})\},$", c["_bibtex"], re.M).group(1)
        got.append(
            {
                "title": c["title"],
                "authors": ", ".join(c["authors"]),
                "abstract": c.get("abstract", ""),
                "conference": f"{booktitle} {year}",
                "track": track,
                "paper_link": canon(f"{sandbox_url}/openreview.net{c['pdf']}"),
                "bibtex_link": "",
                "supp_link": "",
            }
        )
    want = expected("ICLR", 2021)
    df = load_table("papers")  # JSON carries the raw abstract; only HTML needs the cleaning
    raw = df[(df["abbr"] == "ICLR") & (df["year"] == 2021)].set_index("paper_link")["abstract"].to_dict()
    for w in want:
        w["abstract"] = raw[w["paper_link"]]
    assert_same(got, want)
    forum = get_doc(client, f"/openreview.net/forum?id={notes[0]['id']}")
    assert forum.xpath("//meta[@name='citation_title']/@content") == [notes[0]["content"]["title"]]
    pdf = client.get(f"/openreview.net{notes[0]['content']['pdf']}")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"


def test_ecva_eccv_2020_papers_php_and_paper_pages(client):
    listing = get_doc(client, "/www.ecva.net/papers.php")
    section = listing.xpath("//div[@id='eccv-2020']")[0]
    conference, track = section.xpath("./p[@class='conference']")[0].text_content().split(" — ")
    hrefs = [a.get("href") for a in section.xpath(".//dt[@class='ptitle']/a")]
    assert all(not h.startswith("/") for h in hrefs)  # relative links, as on the real page
    got = []
    for doc in fetch_docs(client, [absolute(listing, h).replace("https://", "/", 1) for h in hrefs]):
        authors_line = doc.xpath("//div[@id='authors']")[0].text_content()
        got.append(
            {
                "title": text(doc, "//div[@id='papertitle']"),
                "authors": text(doc, "//div[@id='authors']/b/i"),
                "abstract": text(doc, "//div[@id='abstract']"),
                "conference": authors_line.rsplit("; ", 1)[1],
                "track": track,
                "paper_link": link(doc, "//a[.='pdf']"),
                "bibtex_link": "",
                "supp_link": link(doc, "//a[.='supplementary material']"),
            }
        )
    want = expected("ECCV", 2020)
    assert {w["conference"] for w in want} == {conference}
    assert_same(got, want)


@pytest.mark.parametrize(
    "path",
    [
        "/papers.nips.cc/paper_files/paper/1900",
        "/papers.nips.cc/paper_files/paper/2017/hash/0000-Abstract.html",
        "/aclanthology.org/events/acl-1900/",
        "/aclanthology.org/2023.acl-long.99999/",
        "/openaccess.thecvf.com/CVPR1999",
        "/openaccess.thecvf.com/content/CVPR2021/html/nope.html",
        "/proceedings.mlr.press/v99999/",
        "/proceedings.mlr.press/v139/nope.html",
        "/openreview.net/forum?id=nope",
        "/api.openreview.net/no-such-endpoint",
        "/www.ecva.net/papers/eccv_2020/papers_ECCV/papers/nope.pdf",
    ],
)
def test_unknown_paths_answer_404_html(client, path):
    r = client.get(path)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "<html" in r.text


@pytest.mark.parametrize(
    ("params", "bad"),
    [
        ({"invitation": "ICLR.cc/2021/Conference/-/Blind_Submission", "limit": "abc"}, "limit"),
        ({"invitation": "ICLR.cc/2021/Conference/-/Blind_Submission", "limit": "0"}, "limit"),
        ({"invitation": "ICLR.cc/2021/Conference/-/Blind_Submission", "limit": "1001"}, "limit"),
        ({"invitation": "ICLR.cc/2021/Conference/-/Blind_Submission", "offset": "-1"}, "offset"),
        ({"invitation": "ICLR.cc/2021/Conference/-/Blind_Submission", "offset": "x"}, "offset"),
        ({"invitation": "ICLR.cc/2021/Conference/-/Blind_Submission", "bogus": "1"}, "bogus"),
        ({}, "invitation"),
    ],
)
def test_openreview_bad_parameters_answer_400_json(client, params, bad):
    r = client.get("/api.openreview.net/notes", params=params)
    assert r.status_code == 400
    body = r.json()
    assert body["name"] == "ValidationError" and body["status"] == 400
    assert body["details"]["path"] == bad


def test_cvf_bad_day_answers_400_json(client):
    r = client.get("/openaccess.thecvf.com/CVPR2021", params={"day": "yesterday"})
    assert r.status_code == 400
    assert r.json()["param"] == "day"
