"""Dates: reading them (parse), the page's zone (zones) and clock (clock), the Chinese
labelled lines (cn_fields), choosing an article's publish date (publish) and a comment's
(comment)."""
