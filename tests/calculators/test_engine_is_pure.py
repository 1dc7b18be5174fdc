"""The arithmetic stays free of Django so it can be read and run on its own."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "calculators" / "engine"


def test_no_module_in_the_engine_imports_django():
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "django"]
    assert offenders == []
