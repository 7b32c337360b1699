"""The record out, as files a user keeps: Markdown notes for a vault."""
