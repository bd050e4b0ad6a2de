"""Print the dependency floors of pyproject.toml as exact pins, for `make test-floors`.

Each ``name>=X`` of the runtime dependencies, the Parquet extra and pytest becomes
``name==X``, so the floor job installs exactly the oldest versions pyproject.toml allows.
Reads the file with a regular expression (tomllib needs Python 3.11).
"""

import re
from pathlib import Path

text = Path("pyproject.toml").read_text()


def listed(key: str) -> list[str]:
    match = re.search(rf"^{key} = \[(.*?)\]", text, flags=re.M | re.S)
    if match is None:
        raise SystemExit(f"pyproject.toml: no list {key!r}")
    return re.findall(r'"([^"]+)"', match.group(1))


wanted = listed("dependencies") + listed("parquet")
wanted += [spec for spec in listed("test") if spec.startswith("pytest")]
pins = []
for spec in wanted:
    name, _, floor = spec.partition(">=")
    if not floor or "," in floor:
        raise SystemExit(f"pyproject.toml: {spec!r} has no single floor to pin")
    pins.append(f"{name}=={floor}")
print(" ".join(pins))
