"""memo: remembers what a team decided, why, and who owes what."""

__version__ = "0.1.0"
