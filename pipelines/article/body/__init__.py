"""The article body: density extraction marks the content nodes (density), rendering turns
them into paragraph text and clean HTML (render)."""
