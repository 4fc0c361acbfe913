"""A download page linking a CSV of every record (and one CSV per year on some sites)."""

from prefect_autodata.sandbox.zoo.families.api_files import FileFamily

FAMILY = FileFamily("api_csv_download", "csv")
