"""A download page linking NDJSON / JSON-lines files: all records, and one file per year on most sites."""

from prefect_autodata.sandbox.zoo.families.api_files import FileFamily

FAMILY = FileFamily("api_ndjson_download", "ndjson")
