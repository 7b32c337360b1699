"""The fact codes, fixed since schema 1.

A fact's key in the search indexes is its arm's code in the high bits and its row id below
((code << 32) | id). The schema itself, and the codes written into it, are in the frozen
steps of `store.migrations` (schema 1: `v01_initial`).
"""

from __future__ import annotations

FACT_CODES = {
    "decision": 1,
    "action_item": 2,
    "summary": 3,
    "excerpt": 4,
    "client_note": 5,
    "project_note": 6,
    "digest": 7,
}
