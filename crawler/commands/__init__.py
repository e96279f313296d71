"""Project commands for the `scrapy` tool (COMMANDS_MODULE): `crawl`, with its arguments
checked before Scrapy starts."""
