"""SQLModel table classes for the rows the store reads and writes, one module per area.

The typed query layer for the plain tables: a query selects, inserts and updates through
these classes (`select(col(Section.body))`), not through SQL text. The schema itself is
created by the migrations; a test checks every class here against it (columns, primary
key, NOT NULL) and that every plain table has one. An id is an `int`: a row read has one,
and an insert leaves it to SQLite (the default None is never written). Raw SQL stays for
FTS5, vec0, the facts view and triggers, and for the rollups' rebuild. Nothing outside
`store` sees these objects: query functions return `records`.
"""

from store.tables.embeddings import EmbeddingCache, EmbeddingSpace, FactEmbedding
from store.tables.entities import (
    Client,
    Concept,
    EntityAlias,
    Merge,
    Person,
    PersonAddress,
    Project,
    Section,
)
from store.tables.facts import (
    ActionItem,
    Capture,
    CapturePerson,
    CaptureProject,
    ContextNote,
    Decision,
    Digest,
    Excerpt,
    FactTable,
    ProvenanceColumns,
)
from store.tables.history import Change
from store.tables.mail import EmailMessage
from store.tables.rollups import PeopleReport, ProjectsReport
from store.tables.runs import (
    AgentDecision,
    AgentEvent,
    AgentSession,
    AgentStep,
    AgentToolCall,
    LlmCall,
)

__all__ = [
    "ActionItem",
    "AgentDecision",
    "AgentEvent",
    "AgentSession",
    "AgentStep",
    "AgentToolCall",
    "Capture",
    "CapturePerson",
    "CaptureProject",
    "Change",
    "Client",
    "Concept",
    "ContextNote",
    "Decision",
    "Digest",
    "EmailMessage",
    "EmbeddingCache",
    "EmbeddingSpace",
    "EntityAlias",
    "Excerpt",
    "FactEmbedding",
    "FactTable",
    "LlmCall",
    "Merge",
    "PeopleReport",
    "Person",
    "PersonAddress",
    "Project",
    "ProjectsReport",
    "ProvenanceColumns",
    "Section",
]
