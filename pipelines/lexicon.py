"""The words the extraction reads, by concept, in one place (simplified and traditional
Chinese forms and the Western languages side by side): what a byline, a date label, a
comment heading, a pager or a page-type cue is written as."""

from __future__ import annotations

# --- article route (bylines, sources, date labels, comments, boilerplate, titles) ---

# --- page type, records, template diff, node labelling ---
