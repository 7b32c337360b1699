"""The code's contracts that import-linter cannot state; prints what breaks them, exit 1 if any.

- Size: no module over 400 lines, no function over 60 (tables of data excepted). The modules
  and functions written before the limits are listed in `contracts-baseline.txt` with their
  size then: each may shrink but never grow (`--update` rewrites the list; one that fits
  drops off it). Anything new must fit.
- Privates: no module imports another module's private name (`from store.vectors import
  _pack`): what a module shares, it names without the underscore.
- Slow tests: a test that kills a process (SIGKILL), drives tmux or runs `memo bench` is
  marked `slow` (itself or its module), so `-m 'not slow'` is the quick suite it claims to be.
- Drawing code reads nothing: screens, widgets and dialogs never reach `.store`; what they
  show is read by `memo_tui.core.views` (in a worker) and handed to them.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = Path(__file__).with_name("contracts-baseline.txt")
PACKAGES = ("memo_tui", "store")
MODULE_LINES = 400
FUNCTION_LINES = 60
# Tables of data, not logic: regular expressions one to a line, a migration's literal DDL.
TABLES = frozenset({"memo_tui/core/capture/offline/cues.py", "store/migrations/v01_initial.py"})


def measure() -> dict[str, int]:
    """Every module and function over its limit, by name ("path" or "path:function")."""
    over: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name in TABLES:
                continue
            source = path.read_text(encoding="utf-8")
            lines = source.count("\n")
            if lines > MODULE_LINES:
                over[name] = lines
            for qualified, length in _functions(ast.parse(source)):
                if length > FUNCTION_LINES:
                    over[f"{name}:{qualified}"] = length
    return over


def _functions(tree: ast.AST, prefix: str = "") -> list[tuple[str, int]]:
    """Every function and method with its length, named with its class ("Chat.ask")."""
    found = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            found += _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            found.append((f"{prefix}{node.name}", length))
            found += _functions(node, f"{prefix}{node.name}.")
    return found


def private_imports() -> list[str]:
    """Every `from <our module> import _name` of a name private to that module."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ImportFrom) or not node.module or node.level:
                    continue
                if node.module.split(".")[0] not in PACKAGES:
                    continue
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{name}:{node.lineno}: imports {node.module}.{alias.name}")
    return found


SLOW_SIGNS = ("SIGKILL", ".kill()", "os.kill(", '"tmux"', 'memo("bench"', '"bench",')


def _slow_mark(mark: ast.expr) -> bool:
    """`pytest.mark.slow`, alone or in a list of marks."""
    if isinstance(mark, ast.List | ast.Tuple):
        return any(_slow_mark(m) for m in mark.elts)
    return ast.unparse(mark) == "pytest.mark.slow"


def _marked_slow(node: ast.AST) -> bool:
    """`@pytest.mark.slow` on a function or class, or `pytestmark = ...slow` in a module or
    class body."""
    marks = list(getattr(node, "decorator_list", []))
    for statement in getattr(node, "body", []):
        if isinstance(statement, ast.Assign) and any(
            getattr(t, "id", "") == "pytestmark" for t in statement.targets
        ):
            marks.append(statement.value)
    return any(_slow_mark(mark) for mark in marks)


def _tests(node: ast.AST, slow: bool) -> list[tuple[ast.AST, bool]]:
    """Every test function under `node` (in classes too), with whether a mark covers it."""
    found: list[tuple[ast.AST, bool]] = []
    for child in getattr(node, "body", []):
        if isinstance(child, ast.ClassDef) and child.name.startswith("Test"):
            found += _tests(child, slow or _marked_slow(child))
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) and child.name.startswith(
            "test_"
        ):
            found.append((child, slow or _marked_slow(child)))
    return found


def unmarked_slow_tests() -> list[str]:
    """Every test that kills, drives tmux or runs a benchmark without the `slow` mark (as
    written in the test itself: a helper that kills is not followed)."""
    found = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        module = ast.parse(source)
        for test, slow in _tests(module, _marked_slow(module)):
            body = ast.get_source_segment(source, test) or ""
            if not slow and any(sign in body for sign in SLOW_SIGNS):
                where = f"{path.relative_to(ROOT).as_posix()}:{getattr(test, 'lineno', 0)}"
                found.append(f"{where}: {getattr(test, 'name', '')} is slow: mark it")
    return found


DRAWING = ("memo_tui/ui/screens", "memo_tui/ui/widgets", "memo_tui/ui/dialogs")


def store_reads() -> list[str]:
    """Every place a screen, widget or dialog reaches the store itself."""
    found = []
    for folder in DRAWING:
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr == "store":
                    found.append(f"{name}:{node.lineno}: reaches the store (read it in core.views)")
    return found


def read_baseline() -> dict[str, int]:
    if not BASELINE.exists():
        return {}
    lines = BASELINE.read_text().splitlines()
    rows = (line.split(maxsplit=1) for line in lines if line.strip() and not line.startswith("#"))
    return {name: int(size) for size, name in rows}


def main(argv: list[str]) -> int:
    over = measure()
    if "--update" in argv:
        BASELINE.write_text(
            "# size name: over the limits before they were set; may shrink, never grow\n"
            + "".join(f"{size} {name}\n" for name, size in sorted(over.items()))
        )
        print(f"{len(over)} modules and functions over the limits listed in {BASELINE.name}")
        return 0
    allowed = read_baseline()
    broken = [
        f"{name}: {size} lines (limit {FUNCTION_LINES if ':' in name else MODULE_LINES}"
        + (f", {allowed[name]} when listed)" if name in allowed else ")")
        for name, size in sorted(over.items())
        if size > allowed.get(name, 0)
    ]
    privates, unmarked, reads = private_imports(), unmarked_slow_tests(), store_reads()
    for line in broken + privates + unmarked + reads:
        print(line)
    listed = sum(1 for name in over if name in allowed)
    print(f"size limits: {len(broken)} broken; {listed} listed from before the limits")
    print(f"private imports: {len(privates)}")
    print(f"slow tests not marked slow: {len(unmarked)}")
    print(f"screens, widgets and dialogs reaching the store: {len(reads)}")
    return 1 if broken or privates or unmarked or reads else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
