"""Capture: a source file becomes a stored capture with verified facts, in one transaction."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from memo_tui.core.capture import dedup, guards
from memo_tui.core.capture.addressed import meeting_names
from memo_tui.core.capture.channels import Pairing, pairing
from memo_tui.core.capture.decode import normalize_newlines
from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.capture.files import iter_sources, read_file
from memo_tui.core.capture.mail import prepared_thread, thread_source
from memo_tui.core.capture.offline import NAME as OFFLINE_NAME
from memo_tui.core.capture.offline import OfflineExtractor
from memo_tui.core.capture.offline import extract as offline_extract
from memo_tui.core.capture.record import Outcome, build_capture
from memo_tui.core.capture.result import CaptureResult
from memo_tui.core.capture.sources import Transcript, captured_name, parse
from memo_tui.core.entities.linking import link_names
from store import (
    ChangeRecord,
    DuplicateCaptureError,
    NewCapture,
    NewChange,
    Store,
    StoreError,
)

if TYPE_CHECKING:
    from memo_tui.core.capture.offline.judge import Embed
    from memo_tui.core.llm.schemas import Extraction

Extractor = Callable[[Transcript], "Extraction | Outcome"]


@dataclass(frozen=True)
class Replacement:
    """A new version of a stored meeting, extracted but not written: what would change."""

    name: str
    stored_id: int
    new: NewCapture


AskReplace = Callable[[Replacement], bool]


@dataclass(frozen=True)
class CaptureOptions:
    max_chars: int = 100_000
    user: str = "user"
    my_addresses: tuple[str, ...] = ()  # the user's own email addresses


class Proposer(Protocol):
    """Names earlier decisions a capture's decisions replace, beside the rules' finds; what
    it names is only ever proposed (see history.proposer)."""

    def __call__(
        self, store: Store, capture_id: int, found: Sequence[NewChange]
    ) -> list[NewChange]: ...


class CaptureService:
    """The write path. Handed a store; extraction is pluggable (offline by default)."""

    def __init__(
        self,
        store: Store,
        options: CaptureOptions | None = None,
        extractor: Extractor = offline_extract,
        extractor_name: str = OFFLINE_NAME,
        after_commit: Callable[[int], object] | None = None,
        proposer: Proposer | None = None,
        embed: Callable[[], Embed | None] | None = None,
    ) -> None:
        self.store = store
        self.embed = embed  # the embedding model's `embed` when here (the closer's, the linker's)
        self.after_commit = after_commit  # e.g. embed the new facts; best-effort
        self.proposer = proposer  # a model naming replaced decisions, for review
        self.options = options or CaptureOptions()
        self.extractor = extractor
        self.extractor_name = str(getattr(extractor, "name", extractor_name))

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
                result = self._guarded(path, replace)
            results.append(result)
            if progress is not None:
                progress(result)
        return results

    def _guarded(self, path: Path, replace: bool) -> CaptureResult:
        """One file of a batch: a store that refuses it (a constraint, a lock held too
        long) fails that file alone, and its transaction left nothing behind."""
        try:
            return self.capture_file(path, replace=replace)
        except StoreError as error:
            return CaptureResult(str(path), "rejected", error=f"{path.name}: {error}")

    def capture_file(
        self, path: Path, replace: bool = False, ask_replace: AskReplace | None = None
    ) -> CaptureResult:
        """Capture one file; a rejection is a result, never an exception."""
        try:
            text, source_format = read_file(path, self.options.max_chars)
            source_path = str(path.resolve())
        except CaptureRejected as problem:
            return CaptureResult(str(path), "rejected", error=problem.message)
        except OSError as error:
            reason = error.strerror or str(error)
            return CaptureResult(str(path), "rejected", error=f"{path}: cannot read it ({reason})")
        name = captured_name(path)
        return self.capture_text(
            text, name, source_format, source_path, replace=replace, ask_replace=ask_replace
        )

    def capture_text(
        self,
        text: str,
        name: str,
        source_format: str,
        source_path: str | None = None,
        replace: bool = False,
        source_kind: str = "file",
        ask_replace: AskReplace | None = None,
    ) -> CaptureResult:
        """Capture decoded text (the CLI, the TUI and the demo seeder all end here).

        A new version of a stored meeting is refused unless `replace`; with `ask_replace`,
        it is extracted first and the callback, shown what would change, decides."""
        label = source_path or name
        try:
            transcript = self._parsed(text, name, source_format)
        except CaptureRejected as problem:
            return CaptureResult(label, "rejected", error=problem.message)
        content_hash = dedup.content_hash(transcript.text)
        existing = self.store.captures.by_hash(content_hash)
        if existing is not None:
            return self._unchanged(label, existing.id, existing.title)
        signature = dedup.signature(transcript.text)
        version_of = self._version_of(transcript, source_path, signature)
        if version_of is not None and (stored := self.store.captures.by_hash(content_hash)):
            return self._unchanged(label, stored.id, stored.title)  # stored meanwhile
        if version_of is not None and not replace and ask_replace is None:
            other_id, other_title = version_of
            message = (
                f"{name} looks like a new version of capture {other_id} ({other_title!r}): "
                "run again with --replace to replace it"
            )
            return CaptureResult(label, "needs_replace", other_id, transcript.title, message)
        try:
            result = self.extractor(transcript)
        except Exception as error:  # noqa: BLE001 - one bad file must not stop a batch
            message = f"{name}: the {self.extractor_name} failed ({error}); nothing was stored"
            calls = len(getattr(error, "llm_calls", ()))  # made before it failed: in the ledger
            return CaptureResult(label, "rejected", error=message, llm_calls=calls)
        new = self._recorded(transcript, result, content_hash, signature, source_path, source_kind)
        declined = (
            version_of is not None
            and not replace
            and ask_replace is not None
            and not ask_replace(Replacement(name, version_of[0], new))
        )
        if declined and version_of is not None:
            message = f"{name}: kept the stored version (capture {version_of[0]})"
            return CaptureResult(label, "needs_replace", version_of[0], new.title, message)
        replace_id = version_of[0] if version_of else None
        paired = self._pairing(source_path, transcript, replace_id)
        outcome = self._write(label, new, replace_id, paired)
        outcome.chunks = int(getattr(result, "chunks", 0))
        outcome.judge = new.meta.get("judge")
        outcome.skipped = transcript.skipped
        if outcome.status in ("captured", "replaced"):
            self._committed(outcome)
        return outcome

    def _parsed(self, text: str, name: str, source_format: str) -> Transcript:
        """The text as turns, once it passed the guards (CaptureRejected says why not)."""
        guards.check_text(name, text, self.options.max_chars)
        transcript = parse(normalize_newlines(text), name, source_format)
        guards.check_stored(name, transcript.text, self.options.max_chars)
        return transcript

    def _committed(self, outcome: CaptureResult) -> None:
        """After a capture commits: the earlier decisions it replaces, then `after_commit`
        for it and for every capture it touched (its vectors)."""
        assert outcome.capture_id is not None
        outcome.changes = self._changes(outcome.capture_id)
        if self.after_commit is not None:
            for capture_id in dict.fromkeys([outcome.capture_id, *self._touched(outcome)]):
                self.after_commit(capture_id)

    def _changes(self, capture_id: int) -> list[ChangeRecord]:
        """Earlier decisions this capture replaces: strong ones applied, weak ones proposed.
        Found after the capture commits; a failure here loses no capture (memo changes
        --scan finds them again)."""
        from memo_tui.core.history.closing import closings
        from memo_tui.core.history.replacing import supersessions

        try:
            embed = self.embed() if self.embed else None
            found = supersessions(self.store, capture_id, embed)
            if self.proposer is not None:
                found += self.proposer(self.store, capture_id, found)
            found += closings(self.store, capture_id, embed)
            ids = self.store.changes.add(found)
        except StoreError:
            return []
        return [c for c in (self.store.changes.get(i) for i in ids) if c is not None]

    def _touched(self, outcome: CaptureResult) -> list[int]:
        """Captures whose facts an applied change re-worded (their text says superseded or
        done now, so their vectors are made again)."""
        applied = [c for c in outcome.changes if c.status == "applied"]
        return self.store.captures.of_facts(
            [c.old_id for c in applied if c.kind == "supersedes"],
            [c.old_id for c in applied if c.kind == "closes"],
        )

    def capture_thread(
        self,
        transcript: Transcript,
        thread_key: str,
        replace_id: int | None,
        meta: dict[str, object],
        prepared: NewCapture | None = None,
    ) -> tuple[int, int, int]:
        """An email thread's capture (replacing the one it had) and the thread's link to it,
        in one transaction; (capture id, decisions, action items). `prepared` is this
        transcript's capture as `thread_preparer` built it ahead, names not yet linked."""
        content_hash = dedup.content_hash(transcript.text)
        existing = self.store.captures.by_hash(content_hash)
        if existing is not None:  # the same text is stored: link the thread to it
            self.store.email.attach_thread(thread_key, existing.id)
            decisions, actions = self.store.captures.items([existing.id])
            return existing.id, len(decisions), len(actions)
        source_path = thread_source(str(meta.get("source", "mail")), thread_key)
        prepared = prepared or self._preparer()((transcript, source_path))
        new = self._linked(transcript, replace(prepared, meta={**prepared.meta, **meta}))
        listed = meta.get("participants", [])
        participants = [(str(a), str(n), bool(s)) for a, n, s in listed]  # type: ignore[attr-defined]
        with self.store.atomically():
            written = self.store.captures.write(new, replace_id)
            self.store.email.attach_thread(thread_key, written.capture_id)
            self.store.email.link_participants(participants, self.options.my_addresses)
        if self.after_commit is not None:
            self.after_commit(written.capture_id)
        return written.capture_id, len(written.decisions), len(written.action_items)

    @property
    def thread_preparer(self) -> Callable[[tuple[Transcript, str]], NewCapture] | None:
        """What `capture_thread` takes as `prepared`, as a function of (transcript, source
        path) that may run in another process: only the offline rules are a pure function
        of the transcript (a model's extractor logs its calls in this store)."""
        offline = self.extractor is offline_extract or isinstance(self.extractor, OfflineExtractor)
        return self._preparer() if offline else None

    def _preparer(self) -> Callable[[tuple[Transcript, str]], NewCapture]:
        return partial(
            prepared_thread,
            extract=self.extractor,
            extractor=self.extractor_name,
            user=self.options.user,
        )

    def _recorded(
        self,
        transcript: Transcript,
        result: Extraction | Outcome,
        content_hash: str,
        signature: bytes,
        source_path: str | None,
        source_kind: str,
    ) -> NewCapture:
        """What the extractor found, as the capture to write, its names linked to people."""
        new = build_capture(
            transcript,
            result,
            content_hash=content_hash,
            signature=signature,
            source_path=source_path,
            source_kind=source_kind,
            extractor=self.extractor_name,
            user=self.options.user,
        )
        return self._linked(transcript, new)

    def _linked(self, transcript: Transcript, new: NewCapture) -> NewCapture:
        """The capture with its names linked to people (and the names it taught kept)."""
        directory = self.store.people.directory()
        taught = meeting_names(transcript)
        if taught:  # kept, so the meeting's names read the same way later (memo resolve)
            new = replace(new, meta={**new.meta, "names": taught})
        return link_names(new, transcript.speakers, transcript.attendees, directory, taught)

    def _pairing(
        self, source_path: str | None, transcript: Transcript, replace_id: int | None
    ) -> Pairing:
        day = transcript.occurred_at.isoformat() if transcript.occurred_at else None
        stored = [c for c in self.store.captures.candidates() if c.id != replace_id]
        return pairing(source_path, transcript.source_format, day, stored)

    def _write(
        self, label: str, new: NewCapture, replace_id: int | None, paired: Pairing | None = None
    ) -> CaptureResult:
        """The capture, and its links to a meeting's chat (or the meeting of a chat), in
        one transaction."""
        paired = paired or Pairing()
        try:
            with self.store.atomically():
                written = self.store.captures.write(new, replace_id)
                if paired.chat_of is not None:
                    self.store.captures.link_side_channel(written.capture_id, paired.chat_of)
                for chat in paired.chats:
                    self.store.captures.link_side_channel(chat, written.capture_id)
        except DuplicateCaptureError:  # another process stored the same text just now
            again = self.store.captures.by_hash(new.content_hash)
            assert again is not None
            return self._unchanged(label, again.id, again.title)
        return CaptureResult(
            label,
            "captured" if replace_id is None else "replaced",
            capture_id=written.capture_id,
            title=new.title,
            truncated=new.truncated,
            extractor=self.extractor_name,
            llm_calls=len(new.llm_call_ids),
            decisions=written.decisions,
            action_items=written.action_items,
            format=new.source_format,
            channel_of=paired.chat_of,
        )

    def _unchanged(self, label: str, capture_id: int, title: str) -> CaptureResult:
        stored = self.store.captures.get(capture_id)
        return CaptureResult(
            label,
            "unchanged",
            capture_id=capture_id,
            title=title,
            decisions=self.store.captures.decisions([capture_id]),
            action_items=self.store.captures.action_items([capture_id]),
            format=stored.source_format if stored else None,
            skipped=self.store.captures.meta(capture_id).get("skipped", {}),
            channel_of=stored.channel_of if stored else None,
        )

    def _version_of(
        self, transcript: Transcript, source_path: str | None, signature: bytes
    ) -> tuple[int, str] | None:
        """A stored capture this text is a new version of: same file, or nearly the same text.

        Meetings on different dates are never versions of each other (a weekly meeting
        reuses its header and agenda).
        """
        day = transcript.occurred_at.isoformat() if transcript.occurred_at else None
        best: tuple[float, int, str] | None = None
        for candidate in self.store.captures.candidates():
            if day and candidate.occurred_at and candidate.occurred_at != day:
                continue
            score = dedup.similarity(signature, candidate.signature)
            if source_path is not None and candidate.source_path == source_path:
                score = 1.0
            if score >= dedup.NEAR_DUPLICATE and (best is None or score > best[0]):
                best = (score, candidate.id, candidate.title)
        return (best[1], best[2]) if best else None
