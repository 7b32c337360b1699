"""memo's persistence: one SQLite file (sqlean + sqlite-vec), plain records in and out."""

from store.errors import (
    DuplicateCaptureError,
    ProvenanceError,
    SchemaTooNewError,
    StoreError,
    VectorError,
)
from store.facts import FACT_TYPES
from store.ledger import CostLine, LLMCallRow
from store.migrations import SCHEMA_VERSION
from store.records import (
    ActionItemRecord,
    CaptureCandidate,
    CaptureRef,
    CaptureSummary,
    DecisionRecord,
    FactRecord,
    NewActionItem,
    NewCapture,
    NewDecision,
    NewExcerpt,
    Provenance,
    StoreStats,
    WrittenCapture,
)
from store.search import FactFilter
from store.store import Store, utc_now

__all__ = [
    "FACT_TYPES",
    "SCHEMA_VERSION",
    "ActionItemRecord",
    "CaptureCandidate",
    "CaptureRef",
    "CaptureSummary",
    "CostLine",
    "DecisionRecord",
    "DuplicateCaptureError",
    "FactFilter",
    "FactRecord",
    "LLMCallRow",
    "NewActionItem",
    "NewCapture",
    "NewDecision",
    "NewExcerpt",
    "ProvenanceError",
    "Provenance",
    "SchemaTooNewError",
    "Store",
    "StoreError",
    "StoreStats",
    "VectorError",
    "WrittenCapture",
    "utc_now",
]
