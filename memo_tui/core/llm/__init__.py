"""LLM providers and the schemas they fill (offline extraction lives in core.capture)."""
