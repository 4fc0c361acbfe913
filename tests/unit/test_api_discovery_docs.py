"""API documentation pages and OpenAPI documents: endpoints and the auth scheme they state.

The pages below are written for these tests (three documentation styles: curl example, prose +
"GET /path" line, parameter prose naming a query key); no page of the sandbox is copied.
"""

from __future__ import annotations

from prefect_autodata.agents.induction.apidocs import ApiAuth, read_api_docs, read_openapi

PAGE = "https://api.example.org/docs/widgets"

CURL_BEARER = """<html><body><h1>Widgets API</h1>
<pre><code>curl -H "Authorization: Bearer $TOKEN" "https://api.example.org/v2/widgets?limit=25&amp;colour=&lt;colour&gt;"</code></pre>
<p>Every request needs a token. Use the demo token <code>dm0ab12cd34ef56gh</code> to try it.</p>
<a href="/docs/other">Other</a></body></html>"""

PROSE_HEADER = """<html><body><h2>Listing gadgets</h2><p>GET /api/gadgets</p>
<p>One gadget: GET /api/gadgets/&lt;id&gt;</p>
<h2>Authentication</h2><p>Send the header <code>X-Gadget-Key: ...</code> with each call.
Your trial key: <b>trial-9f8e7d6c5b4a</b>.</p></body></html>"""

QUERY_KEY = """<html><body><p>Fetch <code>https://api.example.org/data/items.json?page=1</code>.
Pass your key in the query parameter <code>access_key</code>. Sample key: k3y0000aaaa1111.</p></body></html>"""

OPEN = """<html><body><p>The API is open. GET /v1/things?page=1 returns JSON.</p></body></html>"""


def test_curl_example_and_bearer_token() -> None:
    docs = read_api_docs(CURL_BEARER, PAGE)
    assert docs.endpoints[0] == "https://api.example.org/v2/widgets?limit=25"  # placeholder param dropped
    assert docs.auth == ApiAuth("bearer", "Authorization", "dm0ab12cd34ef56gh")
    assert docs.auth.headers() == {"Authorization": "Bearer dm0ab12cd34ef56gh"}


def test_method_line_and_named_header() -> None:
    docs = read_api_docs(PROSE_HEADER, PAGE)
    assert docs.endpoints == ["https://api.example.org/api/gadgets"]  # the <id> template is not an endpoint
    assert docs.auth == ApiAuth("header", "X-Gadget-Key", "trial-9f8e7d6c5b4a")


def test_query_parameter_key_is_applied_to_urls() -> None:
    docs = read_api_docs(QUERY_KEY, PAGE)
    assert docs.endpoints == ["https://api.example.org/data/items.json?page=1"]
    assert docs.auth is not None and (docs.auth.location, docs.auth.name) == ("query", "access_key")
    assert docs.auth.apply(docs.endpoints[0]).endswith("page=1&access_key=k3y0000aaaa1111")


def test_open_api_has_no_auth_and_other_hosts_are_ignored() -> None:
    docs = read_api_docs(OPEN + "<p>See https://elsewhere.example.com/v1/x?y=1</p>", PAGE)
    assert docs.endpoints == ["https://api.example.org/v1/things?page=1"]
    assert docs.auth is None


def test_openapi_document() -> None:
    spec = {
        "openapi": "3.0.0",
        "servers": [{"url": "/svc"}],
        "info": {"description": "Try it with the demo key abc123def456ghi."},
        "paths": {"/items": {"get": {}}, "/items/{id}": {"get": {}}, "/upload": {"post": {}}},
        "components": {"securitySchemes": {"k": {"type": "apiKey", "in": "header", "name": "X-Key"}}},
    }
    docs = read_openapi(spec, "https://api.example.org/openapi.json")
    assert docs.openapi and docs.endpoints == ["https://api.example.org/svc/items"]
    assert docs.auth == ApiAuth("header", "X-Key", "abc123def456ghi")
    assert read_openapi({"paths": []}, PAGE).endpoints == []


def test_rows_with_header_kept_beside_them() -> None:
    from prefect_autodata.agents.induction.jsonsets import json_record_sets

    body = {"columns": ["name", "price"], "result": {"items": [["a", 1], ["b", 2], ["c", 3]]}}
    best = json_record_sets(body)[0]
    assert best.path == "$.result.items[*]" and best.positional
    assert best.labels == {0: "name", 1: "price"} and best.count == 3
    # rows of text only: the first is a record, not a header, when the header is kept beside them
    text = {"header": ["id", "name"], "data": {"records": [["x1", "Ann"], ["x2", "Bo"], ["x3", "Cy"]]}}
    best = json_record_sets(text)[0]
    assert (best.path, best.count, best.labels) == ("$.data.records[*]", 3, {0: "id", 1: "name"})
    # a header of another width is not taken for these rows
    other = {"columns": ["name", "price", "qty"], "items": [["a", 1], ["b", 2], ["c", 3]]}
    assert all(r.labels != {0: "name", 1: "price"} for r in json_record_sets(other))


def test_next_page_url_in_the_body() -> None:
    from prefect_autodata.agents.offline.discovery import json_next_link

    url = "https://api.example.org/v1/things?size=10"
    assert json_next_link({"data": [], "links": {"next": "/v1/things?size=10&page=2"}}, url) == "$.links.next"
    assert json_next_link({"paging": {"nextUrl": url + "&after=x9"}}, url) == "$.paging.nextUrl"
    # a link to another resource, or to this very page, is not a next page
    assert json_next_link({"self": url, "docs": "https://api.example.org/docs?x=1"}, url) is None


def test_a_demo_key_far_from_the_word_key_is_read_whole() -> None:
    # the token starts within reach of "key" but ends past it: a cut key answers 403 everywhere
    page = (
        "<html><body><p>Pass it in the query parameter <code>token_id</code>.</p><p>A demo key, "
        "valid for one hour, free of charge and shared by everyone who reads this page (so please do "
        "not use it for anything heavy or for production): <code>0a1b2c3d4e5f60718293a4b5c6d7e8f9</code>."
        "</p><p>GET /v3/parts?page=1</p></body></html>"
    )
    docs = read_api_docs(page, PAGE)
    assert docs.auth == ApiAuth("query", "token_id", "0a1b2c3d4e5f60718293a4b5c6d7e8f9")


def test_a_bare_path_in_a_code_span_is_an_endpoint() -> None:
    page = (
        "<html><body><h1>Parts API</h1><p>The parts can be read from <code>/svc/2.1/parts</code> with a plain "
        "request, one part from <code>/svc/2.1/parts/&lt;id&gt;</code>. Send <code>Accept</code> as "
        "usual; the style sheet is <code>/static/site.css</code>. An example record: "
        "<code>/svc/2.1/parts/84b667fb</code>.</p></body></html>"
    )
    docs = read_api_docs(page, PAGE)
    assert docs.endpoints == ["https://api.example.org/svc/2.1/parts"]  # no template, record, file or header


def test_text_that_only_looks_like_a_url_is_skipped_not_raised() -> None:
    # "http://host]" out of a bracketed aside and "http://[" are no URLs (urlsplit raises on them)
    page = "<p>[see http://www.example.org] or http://[::1 and <code>/v1/rows</code></p>"
    assert "https://api.example.org/v1/rows" in read_api_docs(page, PAGE).endpoints


def test_the_api_host_of_the_same_site_is_kept_and_other_sites_are_not() -> None:
    page = (
        "<p>Base URL: <code>https://api.example.org/v1/orders?page=1</code>. Mirror: "
        "https://api.example.co.uk/v1/orders?page=1 and https://data.other-example.org/v1/orders?page=1</p>"
    )
    docs = read_api_docs(page, "https://developer.example.org/docs/orders")
    assert docs.endpoints == ["https://api.example.org/v1/orders?page=1"]
    uk = read_api_docs(page, "https://www.example.co.uk/api-docs")
    assert uk.endpoints == ["https://api.example.co.uk/v1/orders?page=1"]  # co.uk: three labels
    assert read_api_docs(page, "http://127.0.0.1:8000/docs").endpoints == []  # an address is itself


def test_an_authorization_header_with_its_own_scheme_word() -> None:
    page = (
        "<p>GET /api/stations?page=1</p><p>Authenticate with the header "
        "<code>Authorization: Token &lt;your key&gt;</code>. Demo key: <code>9f8e7d6c5b4a3f2e1d0c</code>.</p>"
    )
    docs = read_api_docs(page, PAGE)
    assert docs.auth is not None and docs.auth.headers() == {"Authorization": "Token 9f8e7d6c5b4a3f2e1d0c"}


def test_openapi_server_variables_take_their_defaults() -> None:
    spec = {
        "openapi": "3.0.1",
        "servers": [
            {
                "url": "https://{region}.example.org/{version}",
                "variables": {
                    "region": {"default": "api"},
                    "version": {"default": "v2", "enum": ["v1", "v2"]},
                },
            }
        ],
        "paths": {"/stations": {"get": {}}},
    }
    docs = read_openapi(spec, "https://www.example.org/openapi.json")
    assert docs.endpoints == ["https://api.example.org/v2/stations"]
