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
    AliasRow,
    Backfill,
    CaptureCandidate,
    CaptureRef,
    CaptureSummary,
    DecisionRecord,
    Directory,
    FactRecord,
    NewActionItem,
    NewAlias,
    NewCapture,
    NewDecision,
    NewExcerpt,
    PendingMention,
    PersonRef,
    PersonRow,
    PersonSummary,
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
    "AliasRow",
    "Backfill",
    "CaptureCandidate",
    "CaptureRef",
    "CaptureSummary",
    "CostLine",
    "DecisionRecord",
    "Directory",
    "DuplicateCaptureError",
    "FactFilter",
    "FactRecord",
    "LLMCallRow",
    "NewActionItem",
    "NewAlias",
    "NewCapture",
    "NewDecision",
    "NewExcerpt",
    "PendingMention",
    "PersonRef",
    "PersonRow",
    "PersonSummary",
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
