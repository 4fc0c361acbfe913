"""Where a user would point the agents for each sandbox task (``autodata bench`` without ``--no-source``).

An entry page of the site family that serves the task's records — the site a data engineer would
name, not the page holding the answer; the agents still have to find the records from there.
Lives in ``sandbox/`` because it names sandbox hosts and paths.
"""

from __future__ import annotations

from prefect_autodata.sandbox.tasks import Task

_PAPER_ENTRY = {
    "NeurIPS": "/papers.nips.cc/",
    "ACL": "/aclanthology.org/",
    "EMNLP": "/aclanthology.org/",
    "NAACL": "/aclanthology.org/",
    "CVPR": "/openaccess.thecvf.com/menu",
    "ICCV": "/openaccess.thecvf.com/menu",
    "ICML": "/proceedings.mlr.press/",
    "ECCV": "/www.ecva.net/papers.php",
}


def source_paths(task: Task) -> list[str]:
    """Sandbox paths (append to the sandbox base URL) to give as ``--source`` for ``task``."""
    n = int(task.template[1:])
    p = task.params
    if n <= 3:
        conf = p["conference"]
        if conf == "ICLR":
            year = p.get("year", p.get("start_year"))
            return [f"/openreview.net/group?id=ICLR.cc/{year}/Conference"]
        return [_PAPER_ENTRY[conf]]
    if n <= 6:
        out = ["/api.tiingo.com/documentation/end-of-day"]
        if p.get("ticker") == "*":
            out.insert(0, "/en.wikipedia.org/wiki/List_of_S%26P_500_companies")
        return out
    if n <= 9:
        return ["/www.nba.com/teams"] if n < 9 else ["/www.nba.com/stats"]
    if n <= 12:
        return ["/www.nba.com/players"]
    return ["/www.fangraphs.com/leaders/major-league"]
