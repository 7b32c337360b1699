"""Capture: a source file becomes a stored capture with verified facts, in one transaction."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from sqlalchemy.exc import IntegrityError

from memo_tui.core.capture import dedup, guards
from memo_tui.core.capture.decode import decode
from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.capture.evidence import EvidenceIndex
from memo_tui.core.capture.excerpts import excerpts
from memo_tui.core.capture.offline import NAME as OFFLINE_NAME
from memo_tui.core.capture.offline import extract as offline_extract
from memo_tui.core.capture.sources import Transcript, parse
from memo_tui.core.llm.schemas import Extraction
from store import (
    ActionItemRecord,
    DecisionRecord,
    NewActionItem,
    NewCapture,
    NewDecision,
    Provenance,
    Store,
    utc_now,
)

Status = Literal["captured", "unchanged", "replaced", "needs_replace", "rejected"]
Extractor = Callable[[Transcript], Extraction]
# Reasoning said within this many lines of the quote widens the evidence range to include it.
REASONING_REACH = 12


@dataclass
class CaptureResult:
    """What happened to one input path."""

    path: str
    status: Status
    capture_id: int | None = None
    title: str | None = None
    error: str | None = None
    truncated: bool = False
    extractor: str | None = None
    decisions: list[DecisionRecord] = field(default_factory=list)
    action_items: list[ActionItemRecord] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status in ("captured", "unchanged", "replaced")


@dataclass(frozen=True)
class CaptureOptions:
    max_chars: int = 100_000
    user: str = "user"


def iter_sources(paths: Iterable[Path]) -> Iterator[tuple[Path, CaptureRejected | None]]:
    """Each file to capture; folders recurse over allowed files, hidden ones skipped."""
    for path in paths:
        if not path.exists():
            yield path, CaptureRejected("missing", f"{path}: no such file or folder")
        elif path.is_dir():
            found = sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and p.suffix.lower() in guards.ALLOWED_SUFFIXES
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
            if not found:
                allowed = ", ".join(guards.ALLOWED_SUFFIXES)
                yield (
                    path,
                    CaptureRejected("empty_folder", f"{path}: no {allowed} files in this folder"),
                )
            for file in found:
                yield file, None
        else:
            yield path, None


class CaptureService:
    """The write path. Handed a store; extraction is pluggable (offline by default)."""

    def __init__(
        self,
        store: Store,
        options: CaptureOptions | None = None,
        extractor: Extractor = offline_extract,
        extractor_name: str = OFFLINE_NAME,
    ) -> None:
        self.store = store
        self.options = options or CaptureOptions()
        self.extractor = extractor
        self.extractor_name = extractor_name

    def capture_paths(
        self,
        paths: Iterable[Path],
        replace: bool = False,
        progress: Callable[[CaptureResult], None] | None = None,
    ) -> list[CaptureResult]:
        results = []
        for path, problem in iter_sources(paths):
            if problem is not None:
                result = CaptureResult(str(path), "rejected", error=problem.message)
            else:
                result = self.capture_file(path, replace=replace)
            results.append(result)
            if progress is not None:
                progress(result)
        return results

    def capture_file(self, path: Path, replace: bool = False) -> CaptureResult:
        """Capture one file; a rejection is a result, never an exception."""
        try:
            fmt = guards.source_format(path)
            guards.check_file_size(path, path.stat().st_size, self.options.max_chars)
            text = decode(path.read_bytes(), path.name)
        except CaptureRejected as problem:
            return CaptureResult(str(path), "rejected", error=problem.message)
        except OSError as error:
            return CaptureResult(str(path), "rejected", error=f"{path}: {error.strerror}")
        modified = dt.datetime.fromtimestamp(path.stat().st_mtime).date()
        return self.capture_text(
            text,
            path.name,
            fmt,
            source_path=str(path.resolve()),
            replace=replace,
            default_date=modified,
        )

    def capture_text(
        self,
        text: str,
        name: str,
        source_format: str,
        source_path: str | None = None,
        replace: bool = False,
        default_date: dt.date | None = None,
        source_kind: str = "file",
    ) -> CaptureResult:
        """Capture decoded text (the CLI, the TUI and the demo seeder all end here)."""
        label = source_path or name
        try:
            guards.check_text(name, text, self.options.max_chars)
        except CaptureRejected as problem:
            return CaptureResult(label, "rejected", error=problem.message)
        content_hash = dedup.content_hash(text)
        existing = self.store.capture_by_hash(content_hash)
        if existing is not None:
            return self._unchanged(label, existing.id, existing.title)
        transcript = parse(text, name, source_format, default_date)
        signature = dedup.signature(text)
        version_of = self._version_of(source_path, signature)
        if version_of is not None and not replace:
            other_id, other_title = version_of
            return CaptureResult(
                label,
                "needs_replace",
                capture_id=other_id,
                title=transcript.title,
                error=(
                    f"{name} looks like a new version of capture {other_id} "
                    f"({other_title!r}): run again with --replace to replace it"
                ),
            )
        extraction = self.extractor(transcript)
        new = self._new_capture(
            transcript, extraction, content_hash, signature, source_path, source_kind
        )
        try:
            written = self.store.write_capture(
                new, replace_id=version_of[0] if version_of else None
            )
        except IntegrityError:
            # Another process stored the same text between our check and our write.
            again = self.store.capture_by_hash(content_hash)
            if again is None:
                raise
            return self._unchanged(label, again.id, again.title)
        return CaptureResult(
            label,
            "replaced" if version_of else "captured",
            capture_id=written.capture_id,
            title=transcript.title,
            truncated=new.truncated,
            extractor=self.extractor_name,
            decisions=written.decisions,
            action_items=written.action_items,
        )

    def _unchanged(self, label: str, capture_id: int, title: str) -> CaptureResult:
        return CaptureResult(
            label,
            "unchanged",
            capture_id=capture_id,
            title=title,
            decisions=self.store.decisions([capture_id]),
            action_items=self.store.action_items([capture_id]),
        )

    def _version_of(self, source_path: str | None, signature: bytes) -> tuple[int, str] | None:
        best: tuple[float, int, str] | None = None
        for candidate in self.store.capture_candidates():
            score = dedup.similarity(signature, candidate.signature)
            if source_path is not None and candidate.source_path == source_path:
                score = max(score, 1.0)
            if score >= dedup.NEAR_DUPLICATE and (best is None or score > best[0]):
                best = (score, candidate.id, candidate.title)
        return (best[1], best[2]) if best else None

    def _new_capture(
        self,
        transcript: Transcript,
        extraction: Extraction,
        content_hash: str,
        signature: bytes,
        source_path: str | None,
        source_kind: str,
    ) -> NewCapture:
        index = EvidenceIndex(transcript.lines)
        decisions = []
        for item in extraction.decisions:
            lines = _evidence_lines(index, item.evidence_quote, item.reasoning)
            decisions.append(
                NewDecision(
                    description=item.description,
                    reasoning=item.reasoning,
                    decided_by=item.decided_by,
                    line_start=lines[0] if lines else None,
                    line_end=lines[1] if lines else None,
                    evidence_quote=item.evidence_quote,
                    verified=lines is not None,
                )
            )
        actions = []
        for action in extraction.action_items:
            lines = _evidence_lines(index, action.evidence_quote, None)
            actions.append(
                NewActionItem(
                    description=action.description,
                    assignee_raw=action.assignee,
                    due_date=action.due_date.isoformat() if action.due_date else None,
                    status=action.status,
                    line_start=lines[0] if lines else None,
                    line_end=lines[1] if lines else None,
                    evidence_quote=action.evidence_quote,
                    verified=lines is not None,
                )
            )
        kind = source_kind if source_path else "text"
        source_id = f"{kind}:{source_path or content_hash[:16]}"
        return NewCapture(
            source_kind=kind,
            source_path=source_path,
            source_format=transcript.source_format,
            content_hash=content_hash,
            signature=signature,
            title=transcript.title or transcript.name,
            occurred_at=transcript.occurred_at.isoformat() if transcript.occurred_at else None,
            raw_text=transcript.raw_text,
            text=transcript.text,
            line_count=len(transcript.lines),
            summary=extraction.summary,
            meta=extraction.meta.model_dump(),
            extractor=self.extractor_name,
            truncated=False,
            provenance=Provenance(
                source_type="meeting",
                source_id=source_id,
                captured_at=utc_now(),
                triggered_by_user=self.options.user,
                triggered_by_agent=self.extractor_name,
            ),
            decisions=decisions,
            action_items=actions,
            excerpts=excerpts(transcript),
        )


def _evidence_lines(
    index: EvidenceIndex, quote: str, reasoning: str | None
) -> tuple[int, int] | None:
    """The quote's lines, widened to the reasoning when that was said close by."""
    found = index.locate(quote)
    if found is None:
        return None
    start, end = found.line_start, found.line_end
    reason = index.locate(reasoning) if reasoning else None
    if reason is not None and abs(reason.line_start - start) <= REASONING_REACH:
        start, end = min(start, reason.line_start), max(end, reason.line_end)
    return start, end
