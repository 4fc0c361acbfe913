"""URL derivations of the academic sandbox sites and the tiny files they serve (pure, no sockets)."""

from __future__ import annotations

import io
import zipfile

import pytest
from pypdf import PdfReader

from prefect_autodata.sandbox.sites import _html, acl, cvf, ecva, mlr, nips, openreview


@pytest.mark.parametrize(
    ("anth_id", "volume"),
    [
        ("2023.acl-long.1", "2023.acl-long"),
        ("2022.findings-emnlp.548", "2022.findings-emnlp"),
        ("P79-1001", "P79-1"),
        ("W96-0201", "W96-02"),
        ("N19-1094", "N19-1"),
    ],
)
def test_anthology_volume_ids(anth_id, volume):
    assert acl.volume_id(anth_id) == volume


def test_anthology_display_names_reverse_bibtex_names():
    assert acl.display_names("Ma, Nianzu  and Mazumder, Sahisnu  and Liu, Bing") == [
        "Nianzu Ma",
        "Sahisnu Mazumder",
        "Bing Liu",
    ]
    assert acl.display_names("") == []


@pytest.mark.parametrize(
    ("pdf", "page"),
    [
        (
            "/content/CVPR2021/papers/A_B_CVPR_2021_paper.pdf",
            "/content/CVPR2021/html/A_B_CVPR_2021_paper.html",
        ),
        ("/content_cvpr_2013/papers/K_2013_CVPR_paper.pdf", "/content_cvpr_2013/html/K_2013_CVPR_paper.html"),
    ],
)
def test_cvf_paper_page_is_the_html_sibling_of_the_pdf(pdf, page):
    assert cvf.html_path(pdf) == page


def test_cvf_booktitle_drops_the_year():
    assert (
        cvf.booktitle("IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR), 2021")
        == "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"
    )


@pytest.mark.parametrize(
    ("pdf", "key"),
    [("/v139/bertail21a/bertail21a.pdf", (139, "bertail21a")), ("/v28/levine13.pdf", (28, "levine13"))],
)
def test_pmlr_paper_keys(pdf, key):
    assert mlr.paper_key(pdf) == key
    assert mlr.paper_key("/v139/x.html") is None


def test_nips_hash_prefers_file_links_and_is_stable_without_them():
    rec = {"year": 2012, "title": "T", "paper_link": "", "supp_link": ""}
    rec["bibtex_link"] = "https://papers.nips.cc/paper_files/paper/2012/file/" + "a" * 32 + "-Bibtex.bib"
    assert nips.paper_hash(rec) == "a" * 32
    bare = {"year": 2012, "title": "T", "paper_link": "", "bibtex_link": "", "supp_link": ""}
    assert nips.paper_hash(bare) == nips.paper_hash(dict(bare)) and len(nips.paper_hash(bare)) == 32


def test_openreview_note_ids_are_stable_and_distinct():
    a = {"paper_link": "https://openreview.net/pdf/" + "1" * 40 + ".pdf", "title": "x"}
    b = {"paper_link": "https://openreview.net/pdf/" + "2" * 40 + ".pdf", "title": "x"}
    assert openreview.note_id(a) == openreview.note_id(dict(a))
    assert openreview.note_id(a) != openreview.note_id(b)
    assert len(openreview.note_id(a)) == 10


def test_ecva_page_names():
    rec = {"idx": 4, "year": 2020}
    assert ecva.html_name(rec, "/papers/eccv_2020/papers_ECCV/papers/123700205.pdf") == (
        "/papers/eccv_2020/papers_ECCV/html/5_ECCV_2020_paper.php"
    )
    stem = "Yonggen_Ling_Modeling_ECCV_2018_paper"
    assert ecva.html_name(rec, f"/papers/eccv_2018/papers_ECCV/papers/{stem}.pdf") == (
        f"/papers/eccv_2018/papers_ECCV/html/{stem}.php"
    )


def test_tiny_pdf_is_a_valid_pdf_with_the_title():
    data = _html.tiny_pdf("Attention (Is) All You Need \\ é")
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1
    assert "Attention (Is) All You Need" in reader.pages[0].extract_text()


def test_tiny_zip_is_a_valid_zip():
    body = _html.zip_response("x-Supplemental.zip", "Title").body
    with zipfile.ZipFile(io.BytesIO(body)) as zf:
        assert zf.read("README.txt").decode().startswith("Supplementary material for: Title")


def test_esc_drops_control_characters_and_escapes_markup():
    assert _html.esc("a\x0cb\r\n<i>&") == "ab\n&lt;i&gt;&amp;"


def test_split_url_ignores_scheme_and_rejects_other_hosts():
    assert _html.split_url("http://proceedings.mlr.press/v28/x.pdf", "proceedings.mlr.press") == "/v28/x.pdf"
    assert _html.split_url("https://example.org/v28/x.pdf", "proceedings.mlr.press") is None
    assert _html.split_url("", "proceedings.mlr.press") is None
