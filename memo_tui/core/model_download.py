"""The default embedding model, fetched once from the model hub on first run.

memo knows where the ONNX export of its default model lives and which files fastembed needs
from it. They are fetched one by one into a work folder beside the target, which is renamed
into place only when every file is whole, so a stopped or failed download leaves no model
that half loads. A failed attempt is written down: for a day after it, memo does not try
again by itself (an offline machine is not slowed at every start), and says so.
`MEMO_EMBED_MODEL_PATH` still wins over anything downloaded here.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

HUB = "https://huggingface.co"
CONNECT_TIMEOUT_S = 5.0  # also the longest wait for the next piece of a file
RETRY_AFTER_S = 24 * 3600  # a failed download is not tried again by itself for a day
FAILED = "download-failed.json"
LOCK = ".download.lock"  # one download at a time, across processes
COMPLETE = ".complete"  # written last into a folder whose every file was checked
CHUNK = 256 * 1024
WAIT_S = 0.5  # how often a process waiting for another's download checks for a stop


@dataclass(frozen=True)
class Source:
    """Where a model's ONNX export lives on the hub, and the files fastembed loads."""

    repo: str
    files: tuple[str, ...]


FASTEMBED_FILES = (
    "config.json",
    "special_tokens_map.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "vocab.txt",
    "model.onnx",  # last: the big one, after the small ones have shown the hub answers
)
SOURCES = {
    "sentence-transformers/all-MiniLM-L6-v2": Source(
        "Qdrant/all-MiniLM-L6-v2-onnx", FASTEMBED_FILES
    )
}


@dataclass(frozen=True)
class Progress:
    file: str  # the file being fetched
    files_done: int
    files: int
    done: int  # bytes of this file so far
    size: int | None  # its size, when the hub said

    def describe(self) -> str:
        """ "model.onnx 34/87 MB (6/6)" """
        so_far = f"{self.done / 1e6:.0f}" + (f"/{self.size / 1e6:.0f}" if self.size else "")
        return f"{self.file} {so_far} MB ({self.files_done + 1}/{self.files})"


class DownloadFailed(Exception):
    """The hub could not be reached, or sent something other than the files. `remember`: a
    failure of the hub waits a day; one of this machine (a full disk) does not."""

    def __init__(self, message: str, remember: bool = True) -> None:
        super().__init__(message)
        self.remember = remember


class Stopped(Exception):  # noqa: N818 - the user stopped it: not an error
    """The caller asked the download to stop (ctrl+x)."""


def fastembed_cache() -> Path:
    """Where fastembed keeps the models it downloaded (its own default)."""
    default = Path(tempfile.gettempdir()) / "fastembed_cache"
    return Path(os.environ.get("FASTEMBED_CACHE_PATH", default))


def in_fastembed_cache(source: Source) -> bool:
    """Whether fastembed downloaded this model before (MEMO_EMBED_DOWNLOAD=1): it loads from
    there, so memo fetches no copy of its own (whose int8 vectors would mean embedding the
    store again)."""
    wanted = source.repo.rsplit("/", 1)[-1].lower().removesuffix("-onnx")
    try:
        return any(wanted in entry.name.lower() for entry in fastembed_cache().iterdir())
    except OSError:
        return False


class ModelDownload:
    """The model `name` fetched from `hub` into `root`/<repo as a folder name>."""

    def __init__(
        self, name: str, root: Path, hub: str = HUB, timeout_s: float = CONNECT_TIMEOUT_S
    ) -> None:
        self.name = name
        self.source = SOURCES.get(name)
        self.root = root
        self.hub = hub.rstrip("/")
        self.timeout_s = timeout_s

    @property
    def known(self) -> bool:
        """Whether memo knows where this model is on the hub (only its default, today)."""
        return self.source is not None

    @property
    def folder(self) -> Path | None:
        if self.source is None:
            return None
        return self.root / self.source.repo.replace("/", "--")

    def present(self) -> Path | None:
        """The downloaded model's folder when every file is in it and was checked."""
        folder = self.folder
        if folder is None or self.source is None or not (folder / COMPLETE).is_file():
            return None
        if all((folder / name).is_file() for name in self.source.files):
            return folder
        return None

    def recent_failure(self, now: float | None = None) -> str | None:
        """What went wrong, when a download from this hub failed less than a day ago."""
        try:
            said = json.loads((self.root / FAILED).read_text("utf-8"))
            at, hub, error = float(said["at"]), str(said["hub"]), str(said["error"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if hub != self.hub or (now or time.time()) - at >= RETRY_AFTER_S:
            return None
        when = datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")
        return f"{error} (at {when}; memo tries again a day later)"

    def fetch(
        self,
        progress: Callable[[Progress], None] | None = None,
        stopped: Callable[[], bool] = lambda: False,
    ) -> Path:
        """Download and check every file, then put the folder in place; its path. One process
        at a time: another waits, then finds the model there. Raises DownloadFailed (a hub's
        failure remembered for a day) or Stopped (not remembered: it may start again)."""
        folder, source = self.folder, self.source
        if folder is None or source is None:
            raise DownloadFailed(f"memo does not know where to download {self.name} from")
        if not self.hub.startswith(("https://", "http://")):
            raise DownloadFailed(f"MEMO_EMBED_HUB={self.hub} is not an http(s) address", False)
        if (ready := self.present()) is not None:
            return ready
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            with _locked(self.root / LOCK, stopped):
                if (ready := self.present()) is not None:  # another process just made it
                    return ready
                self._download(folder, source, progress, stopped)
        except OSError as error:  # a read-only home, a full disk: said, not a crash
            raise DownloadFailed(f"could not write in {self.root}: {error}", False) from error
        (self.root / FAILED).unlink(missing_ok=True)
        return folder

    def _download(
        self,
        folder: Path,
        source: Source,
        progress: Callable[[Progress], None] | None,
        stopped: Callable[[], bool],
    ) -> None:
        """Under the lock: into a work folder, checked, then renamed into place."""
        for left in self.root.glob(f".{folder.name}.*.partial"):
            shutil.rmtree(left, ignore_errors=True)  # a download killed part way (no lock now)
        work = self.root / f".{folder.name}.{os.getpid()}.partial"
        work.mkdir()
        try:
            for n, name in enumerate(source.files):
                self._fetch_file(name, work / name, n, progress, stopped)
            check_model(work, source.files, self.hub)
            (work / COMPLETE).write_text(json.dumps({"hub": self.hub, "at": time.time()}))
            self._put_in_place(work, folder)
        except DownloadFailed as error:
            if error.remember:
                self._remember(str(error))
            raise
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def url(self, name: str) -> str:
        assert self.source is not None
        return f"{self.hub}/{self.source.repo}/resolve/main/{name}"

    def _fetch_file(
        self,
        name: str,
        target: Path,
        n: int,
        progress: Callable[[Progress], None] | None,
        stopped: Callable[[], bool],
    ) -> None:
        import http.client  # (here: the app's start does not pay for urllib and ssl)
        import urllib.error
        import urllib.request

        files = len(self.source.files) if self.source else 0
        broken = (urllib.error.URLError, OSError, ValueError, http.client.HTTPException)
        request = urllib.request.Request(self.url(name), headers={"User-Agent": "memo"})
        done, size = 0, None
        try:
            with (
                urllib.request.urlopen(request, timeout=self.timeout_s) as response,  # noqa: S310 - http(s) only (fetch)
                _writing(target) as out,
            ):
                length = response.headers.get("Content-Length")
                size = int(length) if length and length.isdigit() else None
                while chunk := response.read(CHUNK):
                    if stopped():
                        raise Stopped
                    out(chunk)
                    done += len(chunk)
                    if progress is not None:
                        progress(Progress(name, n, files, done, size))
        except broken as error:
            why = f"could not download {self.url(name)}: {_reason(error)}"
            raise DownloadFailed(why) from error
        if size is not None and done != size:
            raise DownloadFailed(f"{self.url(name)} ended after {done} of {size} bytes")

    def _put_in_place(self, work: Path, folder: Path) -> None:
        if folder.is_dir() and self.present() is None:
            shutil.rmtree(folder, ignore_errors=True)  # a copy missing files: replaced
        try:
            os.replace(work, folder)
        except OSError as error:
            if self.present() is None:  # (else another process put a whole copy there first)
                raise DownloadFailed(f"could not put the model in {folder}: {error}") from error

    def _remember(self, error: str) -> None:
        try:
            said = {"at": time.time(), "hub": self.hub, "error": error}
            (self.root / FAILED).write_text(json.dumps(said), "utf-8")
        except OSError:  # a read-only home: memo then tries at every start, no worse
            pass


def check_model(folder: Path, files: tuple[str, ...], hub: str) -> None:
    """Raise DownloadFailed unless the files are the model's: JSON that parses, a vocabulary,
    an ONNX graph onnxruntime loads (not a proxy's login page sent with a 200)."""

    def refuse(name: str, why: str) -> DownloadFailed:
        return DownloadFailed(f"{name} from {hub} is not the model's file ({why})")

    for name in files:
        data = (folder / name).read_bytes()
        if not data.strip() or data.lstrip()[:15].lower().startswith((b"<!doctype", b"<html")):
            raise refuse(name, "empty, or a web page")
        if name.endswith(".json"):
            try:
                json.loads(data)
            except ValueError as error:
                raise refuse(name, "not JSON") from error
    if "model.onnx" in files:
        try:
            import onnxruntime
        except ImportError:  # (fastembed brings it; without it nothing could load the model)
            return
        try:
            onnxruntime.InferenceSession(str(folder / "model.onnx"))
        except Exception as error:  # noqa: BLE001 - any failure means "not a model"
            raise refuse("model.onnx", "onnxruntime cannot load it") from error


@contextmanager
def _writing(target: Path) -> Iterator[Callable[[bytes], None]]:
    """A file to write, whose errors (a full disk) are this machine's, not the hub's; what
    the block itself raises (the hub's errors) passes through as it is."""
    try:
        out = target.open("wb")
    except OSError as error:
        raise DownloadFailed(f"could not write {target}: {error}", False) from error

    def write(chunk: bytes) -> None:
        try:
            out.write(chunk)
        except OSError as error:
            raise DownloadFailed(f"could not write {target}: {error}", False) from error

    with out:
        yield write


@contextmanager
def _locked(path: Path, stopped: Callable[[], bool]) -> Iterator[None]:
    """Hold `path`'s lock while the block runs; wait for another process that holds it
    (checking `stopped`). Without fcntl (not POSIX), no lock: the rename still keeps one
    whole copy."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with path.open("a") as handle:
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if stopped():
                    raise Stopped from None
                time.sleep(WAIT_S)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _reason(error: BaseException) -> str:
    import urllib.error

    if isinstance(error, urllib.error.HTTPError):
        return f"the hub answered {error.code} {error.reason}"
    if isinstance(error, urllib.error.URLError):
        return str(error.reason)
    return str(error) or type(error).__name__
