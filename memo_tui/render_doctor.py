"""What `memo doctor` prints."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memo_tui.core.safety import sanitize_line

if TYPE_CHECKING:
    from store import StoreStats


def print_doctor(stats: StoreStats, report: dict[str, Any]) -> None:
    embedding = report["embedding"]
    print(f"store        {sanitize_line(stats.path)}")
    print(f"schema       v{stats.schema_version}   integrity: {report['integrity']}")
    if stats.sqlite_version.startswith("PostgreSQL"):  # a team store: the server's versions
        print(f"server       {stats.sqlite_version}   {stats.vec_version}")
    else:
        print(f"sqlite       {stats.sqlite_version}   sqlite-vec {stats.vec_version}")
    counts = ", ".join(f"{k} {v}" for k, v in stats.facts_by_type.items() if v)
    print(f"captures     {stats.captures}   facts: {counts or 'none'}")
    provider = report["provider"]
    print(f"provider     {provider['in_use']}: {sanitize_line(provider['why'])}")
    print(f"extraction   {sanitize_line(provider['extractor'])}")
    if provider.get("judge"):
        print(f"             {sanitize_line(provider['judge'])}")
    print(f"             {sanitize_line(provider['closer'])}")
    for task, model in provider["models"].items():
        print(f"  {task:<16} {sanitize_line(model or '(not set)')}")
    if provider["in_use"] != "offline":
        limits, server = provider["limits"], provider["server"]
        print(
            f"limits       capture {limits['extract_deadline_s']:g} s, router "
            f"{limits['router_deadline_s']:g} s, answer {limits['answer_deadline_s']:g} s; "
            f"slice {limits['llm_slice_chars']:,} chars"
            + (" (local-server defaults where unset)" if limits["local_defaults"] else "")
        )
        if not server["checked"]:
            print(f"server       not contacted ({sanitize_line(server['why'])})")
        else:
            state = "reachable" if server["reachable"] else "unreachable"
            listed = ", ".join(server["listed"]) or "none"
            context = server["context_tokens"]
            print(
                f"server       {sanitize_line(server['url'])}: {state}"
                + (f"; models {sanitize_line(listed)}" if server["reachable"] else "")
                + (f"; context {context:,} tokens" if context else "")
            )
    for problem in provider["problems"]:
        print(f"  problem: {sanitize_line(problem)}")
    state = "model found" if embedding["model_path_ok"] else "no local model path"
    if embedding["model_path"] and not embedding["model_path_ok"]:
        state = "no model.onnx there"
    print(f"embeddings   {sanitize_line(embedding['runs_as'])} ({state}); vectors {stats.vectors}")
    for problem in embedding["problems"]:
        print(f"  problem: {sanitize_line(problem)}")
