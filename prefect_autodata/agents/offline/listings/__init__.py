"""The legacy listing → detail inducer (proceedings, catalogues, directories), kept for the pages it was
built on: it reacts to the paper-shaped field names (TITLE, AUTHORS, ABSTRACT, CONFERENCE, TRACK and the
``*_LINK`` names). The generic, kind-agnostic inducers live in ``agents/induction/``.

One concept per module: ``regions`` (record regions and relative paths), ``fields`` (the labelled
values on the listing and on detail pages), ``spec`` (spec assembly), ``navigation`` (which observed page
is the listing; the entry point ``induce_listings``).
"""

from prefect_autodata.agents.offline.listings.fields import names_score
from prefect_autodata.agents.offline.listings.navigation import induce_listings
from prefect_autodata.agents.offline.listings.regions import find_regions
from prefect_autodata.agents.offline.listings.spec import ListingInduction, induce_listing, listing_spec

__all__ = [
    "ListingInduction",
    "find_regions",
    "induce_listing",
    "induce_listings",
    "listing_spec",
    "names_score",
]
