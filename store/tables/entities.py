"""Who and what the facts are about: clients, projects, people (their names, addresses and
merges), concepts, and the living documents' sections."""

from __future__ import annotations

from sqlmodel import Field, SQLModel


class Client(SQLModel, table=True):
    __tablename__ = "clients"
    id: int = Field(default=None, primary_key=True)
    name: str
    created_at: str


class Project(SQLModel, table=True):
    __tablename__ = "projects"
    id: int = Field(default=None, primary_key=True)
    name: str
    client_id: int | None = None
    created_at: str


class Person(SQLModel, table=True):
    __tablename__ = "people"
    id: int = Field(default=None, primary_key=True)
    name: str
    email: str | None = None
    created_at: str


class EntityAlias(SQLModel, table=True):
    __tablename__ = "entity_aliases"
    id: int = Field(default=None, primary_key=True)
    entity_type: str
    entity_id: int | None = None
    alias: str
    confidence: float
    auto_resolved: int = 0
    confirmed_by: str | None = None
    created_at: str


class PersonAddress(SQLModel, table=True):
    __tablename__ = "person_addresses"
    address: str = Field(primary_key=True)
    person_id: int | None = None
    proposed_person_id: int | None = None
    display_name: str = ""
    settled: int = 0
    created_at: str


class Merge(SQLModel, table=True):
    """Two people made one; what moved, so a split can put it back (records.PersonMerge)."""

    __tablename__ = "person_merges"
    id: int = Field(default=None, primary_key=True)
    kept_id: int
    merged_name: str
    merged_email: str | None = None
    merged_created_at: str
    moved_json: str
    merged_at: str
    merged_by: str
    split_at: str | None = None


class Concept(SQLModel, table=True):
    __tablename__ = "concepts"
    id: int = Field(default=None, primary_key=True)
    name: str  # unique in any case (COLLATE NOCASE)
    created_at: str


class Section(SQLModel, table=True):
    """A living document's section (entity_type: person, project, client or concept)."""

    __tablename__ = "sections"
    id: int = Field(default=None, primary_key=True)
    entity_type: str
    entity_id: int
    key: str
    body: str
    cited_fact_keys: str = "[]"  # a JSON list of fact keys
    edited_by: str  # 'agent' | 'user'
    updated_at: str
