"""Generic wrapper induction: record regions, labelled values, tables, structured data, JSON records,
field matching and spec assembly, for any record kind and any field names (issue 13).

One concept per module: ``regions`` (repeated DOM structure), ``labels`` (label/value pairs),
``tables`` (HTML tables), ``structured`` (JSON-LD, microdata, OpenGraph), ``jsonrec`` (JSON record
sets), ``matching`` (requested field ↔ candidate), ``selectors`` (rules verified on several detail
pages), ``pagination`` (next links, page numbers, stated totals) and ``assemble`` (CollectorSpecs).
"""

from prefect_autodata.agents.induction.assemble import induce, induce_page

__all__ = ["induce", "induce_page"]
