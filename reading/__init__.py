"""The reading layer: what an analyst asks of the store (search, and the commands over it).
It reads what the crawl writes, through `models`; it never imports the crawler."""
