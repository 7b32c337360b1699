"""Decisions and action items over time: what replaced what, and what got done."""
