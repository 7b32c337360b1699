"""`memo doctor`: the store, the provider and the embedding model, and what is wrong."""

from __future__ import annotations

import argparse
import importlib.util
from typing import TYPE_CHECKING, Any

from memo_tui import render, render_doctor
from memo_tui.core.safety import sanitize_line

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from memo_tui.settings import Settings

EXIT_OK, EXIT_REFUSED = 0, 1


def add_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    doctor = commands.add_parser(
        "doctor",
        parents=[common],
        help="show the store, versions and state; ask the model server for its models",
    )
    doctor.add_argument(
        "--offline", action="store_true", help="contact no model server (settings only)"
    )


def _embedding_problems(settings: Settings, runs_as: str, stored: str | None) -> list[str]:
    """What keeps search from using vectors, each with the setting that fixes it."""
    from memo_tui.core.embed.embedder import model_hint  # (not at import: the app's start)

    path, folder = settings.embed_model_path, settings.embed_model_folder
    problems = []
    if path is not None and not (path / "model.onnx").is_file():
        problems.append(
            f"MEMO_EMBED_MODEL_PATH={path} holds no model.onnx: point it at the model's folder"
        )
    elif folder is None and settings.embed_download is not True:
        problems.append(
            f"no embedding model here, so search is keyword-only: {model_hint(settings)}"
        )
    if stored and stored != runs_as:
        problems.append(f"the vectors come from {stored}: run memo backfill")
    return problems


def doctor(args: argparse.Namespace, services: Services) -> int:
    """The store, the provider and the embedding model; exit 1 when anything it reports is
    a problem (the provider's server unreachable, a model it does not list, a setting
    missing, no embedding model, vectors of another model, a store that fails its check)."""
    settings, store = services.settings, services.store
    stats = store.stats()
    model_path = settings.embed_model_folder
    provider = _doctor_provider(args, services)
    runs_as, stored = services.embed.embedder.name, store.vectors.model()
    report = {
        "store": render.stats_json(stats),
        "integrity": store.integrity_check(),
        "provider": provider,
        "embedding": {
            "model": settings.embed_model,
            "runs_as": runs_as,  # ":int8" when run as its int8 copy
            "stored_space": stored,  # the model that made the vectors
            "problems": _embedding_problems(settings, runs_as, stored),
            "model_path": str(model_path) if model_path else None,
            "model_path_ok": bool(model_path and (model_path / "model.onnx").is_file()),
            "fastembed_installed": importlib.util.find_spec("fastembed") is not None,
            "vectors": stats.vectors,
            "facts": sum(stats.facts_by_type.values()),
            "without_vectors": store.vectors.count_missing(),
        },
    }
    problems = [*provider["problems"], *report["embedding"]["problems"]]
    if report["integrity"] != "ok":
        problems.append(f"the store's integrity check says: {report['integrity']}")
    if args.json:
        render.emit_json(report)
        for problem in problems:
            render.warn(f"memo doctor: {sanitize_line(problem)}")
    else:
        render_doctor.print_doctor(stats, report)
    return EXIT_REFUSED if problems else EXIT_OK  # a problem said is a problem to fix


def _doctor_provider(args: argparse.Namespace, services: Services) -> dict[str, Any]:
    """The provider, its models and limits, and what its server said (unless --offline)."""
    from memo_tui.core.llm import select

    settings = services.settings
    choice = select.choose(settings)
    checked = None if args.offline else select.check_server(settings)
    return {
        "setting": settings.provider,
        "in_use": choice.name,
        "why": choice.reason,
        "extractor": services.capture.extractor_name,
        "judge": _doctor_judge(services),
        "closer": _doctor_closer(services),
        "models": {}
        if choice.name == "offline"
        else {task: select.model_for(settings, task) for task in select.TASKS},
        "base_url": {
            "anthropic": settings.anthropic_base_url,
            "openai": settings.openai_base_url,
        }.get(choice.name),
        "limits": _doctor_limits(settings),
        "server": checked.as_dict() if checked else _unchecked(args, choice.name),
        "problems": select.problems(settings) + list(checked.problems if checked else ()),
    }


def _doctor_judge(services: Services) -> str | None:
    """How the offline extractor rates its items here: with the embedding model, or on words
    alone and why (None when a model extracts)."""
    from memo_tui.core.capture.offline import OfflineExtractor
    from memo_tui.core.capture.offline.judge import shipped

    extractor = services.capture.extractor
    if not isinstance(extractor, OfflineExtractor):
        return None
    if extractor.embed() is not None:
        return f"learned judge {shipped().version}, with the embedding model"
    return f"learned judge {shipped().version}, on words alone: {extractor.missing}"


def _doctor_closer(services: Services) -> str:
    """How memo finds what later meetings change: tasks said done, calls replaced. The
    learned closer and linker with the embedding model, else the rules, and why."""
    from memo_tui.core.capture.offline import OfflineExtractor
    from memo_tui.core.history import closing_model, linking_model

    closer, linker, embed = closing_model.shipped(), linking_model.shipped(), services.capture.embed
    what = "tasks done and calls replaced in later meetings"
    if closer and linker and embed is not None and embed() is not None:
        return f"learned closer {closer.version} and linker {linker.version}: {what}"
    why = OfflineExtractor(services.embed.embedder).missing if closer else "no models shipped"
    return f"{what}: by the rules alone ({why})"


def _doctor_limits(settings: Settings) -> dict[str, object]:
    """The deadlines and slice model calls get, and which are local-server defaults."""
    return {
        "extract_deadline_s": settings.extract_deadline_s,
        "router_deadline_s": settings.router_deadline_s,
        "answer_deadline_s": settings.answer_deadline_s,
        "llm_slice_chars": settings.llm_slice_chars,
        "local_defaults": settings.local_defaults,
    }


def _unchecked(args: argparse.Namespace, provider: str) -> dict[str, object]:
    """Why doctor asked no server."""
    if args.offline:
        why = "--offline"
    elif provider == "offline":
        why = "the offline provider uses no server"
    else:
        why = "no key to ask with"
    return {"checked": False, "why": why}
